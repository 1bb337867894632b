"""A moderator silences the bot's account (Discourse's rules in modbot/sandbox/silence.py): the
sandbox refuses what Discourse refuses, and the bot's outbox (adapters/standing.py) holds what
needs its public voice, answers in its conversations meanwhile, tells the Storytellers once,
and sends everything once the silence ends: nothing lost, nothing doubled, nothing failed."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from modbot.adapters.outbox import marker
from modbot.adapters.standing import RECHECK
from modbot.app.starting.preflight import preflight

from ..sandbox_fixtures import Client, populated
from .test_write_limits import Sandbox, _owe, _post


@pytest.fixture()
def forum():
    server, client, topic = populated()
    yield server, client, topic
    server.stop()


def _silence(client: Client, user_id: int, minutes: int, by: str = "modbot"):
    till = datetime.now(UTC) + timedelta(minutes=minutes)
    return client.call("PUT", f"/admin/users/{user_id}/silence.json", by,
                       data={"silenced_till": till.isoformat(), "reason": "testing"})


def test_a_silenced_account_may_only_reply_in_its_conversations(forum):
    server, client, topic = forum
    alex = server.forum.user("Alex")
    assert _silence(client, alex.id, 60, by="Brianna").status_code == 403  # staff only
    assert _silence(client, server.forum.user("modbot").id, 60).status_code == 403  # not staff
    assert _silence(client, alex.id, 60).status_code == 200
    me = client.ok("GET", "/session/current.json", "Alex")["current_user"]
    assert me["can_create_topic"] is False and me["silenced_till"]  # when it ends, its own
    assert client.ok("GET", f"/t/{topic}.json", "Alex")["details"]["can_create_post"] is False
    refused = client.call("POST", "/posts.json", "Alex", data={
        "topic_id": topic, "raw": "/vote Brianna yes, while silenced"})
    assert refused.status_code == 422 and "Something has gone wrong" in refused.json()["errors"][0]
    pm = client.call("POST", "/posts.json", "Alex", data={
        "title": "A word", "archetype": "private_message", "target_recipients": "Brianna",
        "raw": "A private word with you."})
    assert pm.status_code == 422 and "cannot send" in pm.json()["errors"][0]
    to_staff = client.post("Alex", "A private word with the moderator.", title="Help",
                           archetype="private_message", target_recipients="modbot")
    reply = client.post("Alex", "And my reply in our conversation.", topic_id=to_staff["topic_id"])
    assert reply["post_number"] == 2
    own = client.ok("GET", f"/t/{topic}.json", "Alex")["post_stream"]["posts"][1]
    assert client.call("PUT", f"/posts/{own['id']}.json", "Alex",
                       data={"post[raw]": "/vote Alex no, edited"}).status_code == 403
    client.ok("PUT", f"/admin/users/{alex.id}/unsilence.json", "modbot")
    assert client.post("Alex", "/vote Brianna yes, free again", topic_id=topic)["post_number"]


def test_a_silence_ends_at_its_time_on_the_forums_clock(forum):
    server, client, topic = forum
    alex = server.forum.user("Alex")
    alex.silenced_till = server.forum.clock.now() - timedelta(seconds=1)  # it just ended
    assert client.ok("GET", "/session/current.json", "Alex")["current_user"]["can_create_topic"]
    assert client.post("Alex", "/vote Brianna yes, the silence is over", topic_id=topic)


@pytest.fixture
def sandbox(tmp_path):
    box = Sandbox(tmp_path, datetime.now(UTC).replace(microsecond=0))
    yield box
    box.stop()


def _conversation(sandbox: Sandbox) -> int:
    """A private conversation the bot opened with Alex (its thread "g1:pm:alex")."""
    opened = sandbox.server.forum.create(sandbox.bot, {
        "title": "Your character", "archetype": "private_message", "target_recipients": "Alex",
        "raw": "You are the Clockmaker."}, api=False)
    return opened.topic_id


def test_a_silenced_bot_holds_its_public_posts_answers_in_private_and_loses_nothing(sandbox):
    forum = sandbox.server.forum
    game = sandbox.topic(sandbox.host, "A game thread for the silence")
    pm = _conversation(sandbox)
    forum.create(sandbox.bot, {"topic_id": game, "raw": "The bot's count post, version one."},
                 api=False)
    sandbox.bot.silenced_till = sandbox.clock.now() + timedelta(hours=1)
    sandbox.later(10)  # the forum's gap after the bot's posts above
    _owe(sandbox.store,
         _post("g1:n1", "g1:topic", game, "## Nominations are open\n\nNominate now."),
         _post("g1:n2", "g1:topic", game, "## Voting\n\nVote now."),
         _post("g1:a1", "g1:pm:alex", pm, "Your choice is recorded: Brianna."))
    outbox = sandbox.outbox()
    assert outbox.drain() == 1  # the answer in the conversation goes; the thread waits
    assert forum.topics[pm].posts[-1].raw.startswith("Your choice is recorded")
    # the Storytellers are told when it ends: the session's `silenced_till`, on the forum's time
    assert [(kind, round(seconds / 60)) for _, kind, seconds in sandbox.told] == [("silenced", 60)]
    assert sandbox.store.outbox_counts() == {"sent": 1, "pending": 2}
    sandbox.later(RECHECK + 1)
    assert outbox.drain() == 0 and len(sandbox.told) == 1  # still silenced: told once
    sandbox.later(3600)  # the silence ended
    # Discourse memoizes an API create's answer, a refusal too, for 120 s of real time (the
    # sandbox's `Forum.create`); the bot's retries are RECHECK (300 s) apart, which this test's
    # forum clock skips in a moment: forget the memo as those seconds would
    forum._memo.clear()
    sent = 0
    for _ in range(3):  # the posts 6 s apart (a regular account's pace)
        sent += outbox.drain()
        sandbox.later(10)
    assert sent == 2
    bot_posts = [p for p in sandbox.posts(game) if p.username == "modbot"][1:]
    assert len(bot_posts) == 2
    assert all(marker(k) in p.raw for k, p in zip(("g1:n1", "g1:n2"), bot_posts, strict=True))
    assert sandbox.store.outbox_counts() == {"sent": 3}


def test_modbot_check_says_a_silenced_bot_cannot_post_in_public(sandbox):
    sandbox.bot.silenced_till = sandbox.clock.now() + timedelta(hours=1)
    found = preflight(sandbox.client, "modbot", [])
    assert not found.ready and not found.may_post
    sandbox.bot.silenced_till = None
    assert preflight(sandbox.client, "modbot", []).ready
