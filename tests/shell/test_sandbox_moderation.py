"""The sandbox's users and staff act as Discourse's do (modbot/sandbox/moderation.py names the
Discourse source of each): rename, move posts, unlist, invite into a PM and remove, revoke and
restore a key, revoke moderation; and the look-ups that answer by id."""

from datetime import UTC

import pytest

from ..sandbox_fixtures import Client, populated


@pytest.fixture()
def forum():
    server, client, topic = populated()
    yield server, client, topic
    server.stop()


def test_a_rename_keeps_the_id_and_rewrites_mentions_and_quotes(forum):
    server, client, topic = forum
    alex = server.forum.user("Alex")
    mention = client.post("Brianna", "Hello @Alex, and @Alexander is someone else.", topic_id=topic)
    quote = client.post("Cameron", '[quote="Alex, post:2, topic:1"]\nhi\n[/quote]\nIndeed, agreed.',
                        topic_id=topic)
    client.ok("PUT", "/u/Alex/preferences/username.json", "Alex", data={"new_username": "Alexis"})
    assert server.forum.user("Alex") is None and server.forum.user("Alexis").id == alex.id
    posts = {p["id"]: p for p in client.ok("GET", f"/t/{topic}.json", "modbot",
                                           params={"include_raw": "true"})["post_stream"]["posts"]}
    assert posts[2]["username"] == "Alexis" and posts[2]["user_id"] == alex.id
    shown = client.ok("GET", f"/posts/{mention['id']}.json", "modbot")["raw"]
    assert shown == "Hello @Alexis, and @Alexander is someone else."
    assert client.ok("GET", f"/posts/{quote['id']}.json", "modbot")["raw"].startswith(
        '[quote="Alexis, post:2')
    cards = client.ok("GET", "/user-cards.json", "modbot", params={"user_ids": f"{alex.id}"})
    assert [u["username"] for u in cards["users"]] == ["Alexis"]


def test_only_the_user_or_staff_may_rename_and_a_taken_name_is_refused(forum):
    _, client, _ = forum
    assert client.call("PUT", "/u/Alex/preferences/username.json", "Brianna",
                       data={"new_username": "Alexis"}).status_code == 403
    assert client.call("PUT", "/u/Alex/preferences/username.json", "Alex",
                       data={"new_username": "Brianna"}).status_code == 422


def test_moving_a_post_keeps_its_id_and_time_and_takes_the_next_number(forum):
    server, client, topic = forum
    other = client.post("Alex", "A topic somewhere else on the forum.", title="Off-topic chat here",
                        category=1)["topic_id"]
    stray = client.post("Alex", "/vote Brianna yes (posted in the wrong topic)", topic_id=other)
    highest = server.forum.topics[topic].posts[-1].post_number
    assert client.call("POST", f"/t/{other}/move-posts.json", "Alex",
                       data={"post_ids[]": [stray["id"]], "destination_topic_id": topic}
                       ).status_code == 403  # staff only
    client.ok("POST", f"/t/{other}/move-posts.json", "modbot",
              data={"post_ids[]": [stray["id"]], "destination_topic_id": topic})
    moved = client.ok("GET", f"/posts/{stray['id']}.json", "modbot")
    assert (moved["topic_id"], moved["post_number"]) == (topic, highest + 1)
    assert moved["created_at"] == stray["created_at"]
    listed = client.ok("GET", "/latest.json", "modbot", params={"topic_ids": str(topic)})
    assert [t["highest_post_number"] for t in listed["topic_list"]["topics"]] == [highest + 1]
    source = server.forum.topics[other].posts
    assert source[-1].action_code == "split_topic"


def test_an_unlisted_topic_is_listed_for_staff_only(forum):
    _server, client, topic = forum
    client.ok("PUT", f"/t/{topic}/status.json", "modbot", data={"status": "visible",
                                                                "enabled": "false"})
    staff = client.ok("GET", "/latest.json", "modbot", params={"topic_ids": str(topic)})
    player = client.ok("GET", "/latest.json", "Alex", params={"topic_ids": str(topic)})
    assert [t["id"] for t in staff["topic_list"]["topics"]] == [topic]
    assert player["topic_list"]["topics"] == []
    client.post("Alex", "/vote Brianna yes while the thread is unlisted", topic_id=topic)


def test_a_participant_invites_someone_into_a_pm_and_staff_remove_them(forum):
    server, client, _ = forum
    pm = next(t for t in server.forum.topics.values() if t.is_pm)
    client.ok("POST", f"/t/{pm.id}/invite.json", "Alex", data={"user": "Brianna"})
    assert "Brianna" in pm.allowed
    small = client.ok("GET", f"/t/{pm.id}.json", "modbot")["post_stream"]["posts"][-1]
    assert (small["post_type"], small["action_code"], small["action_code_who"]) == \
        (3, "invited_user", "Brianna")
    assert client.call("PUT", f"/t/{pm.id}/remove-allowed-user.json", "Alex",
                       data={"username": "Brianna"}).status_code == 403
    client.ok("PUT", f"/t/{pm.id}/remove-allowed-user.json", "modbot", data={"username": "Brianna"})
    assert "Brianna" not in pm.allowed


def test_a_revoked_key_is_refused_everywhere_until_restored(forum):
    server, client, _ = forum
    made = client.ok("POST", "/admin/api/keys.json", data={"key[username]": "Alex"})["key"]
    own = Client(server)
    assert own.call("GET", "/session/current.json", "Alex", key=made["key"]).status_code == 200
    client.ok("POST", f"/admin/api/keys/{made['id']}/revoke.json")
    refused = own.call("GET", "/session/current.json", "Alex", key=made["key"])
    assert refused.status_code == 403 and "API username or key is invalid" in refused.text
    client.ok("POST", f"/admin/api/keys/{made['id']}/undo-revoke.json")
    assert own.call("GET", "/session/current.json", "Alex", key=made["key"]).status_code == 200


def test_revoking_moderation_makes_the_account_a_regular_user(forum):
    server, client, _ = forum
    bot = server.forum.user("modbot")
    client.ok("PUT", f"/admin/users/{bot.id}/revoke_moderation.json")
    assert not bot.staff


def test_user_cards_answer_fifty_ids_at_most(forum):
    _, client, _ = forum
    assert client.call("GET", "/user-cards.json", "modbot",
                       params={"user_ids": ",".join(map(str, range(1, 52)))}).status_code == 400


def test_a_new_user_waits_30_seconds_between_posts_others_5():
    from datetime import datetime, timedelta

    from modbot.sandbox.forum import ApiError, Forum
    from modbot.sandbox.models import ManualClock
    clock = ManualClock(datetime(2026, 12, 1, tzinfo=UTC))
    forum = Forum(clock)
    newcomer, member = forum.add_user("Newcomer", trust_level=0), forum.add_user("Member")
    topic = forum.create(forum.add_user("Host", moderator=True), {
        "title": "A topic for the limits", "category": 1, "raw": "The first post of the topic."})
    for author in (newcomer, member):
        forum.create(author, {"topic_id": topic.topic_id, "raw": f"A first reply by {author.username}."})
    clock.set(clock.now() + timedelta(seconds=6))
    forum.create(member, {"topic_id": topic.topic_id, "raw": "A second reply by the member."})
    with pytest.raises(ApiError) as refused:
        forum.create(newcomer, {"topic_id": topic.topic_id, "raw": "A second reply, too soon."})
    assert refused.value.status == 429 and refused.value.headers["Retry-After"] == "24"


def test_twenty_new_personal_messages_a_day_for_non_staff():
    from datetime import datetime, timedelta

    from modbot.sandbox.forum import ApiError, Forum
    from modbot.sandbox.models import ManualClock
    clock = ManualClock(datetime(2026, 12, 1, tzinfo=UTC))
    forum = Forum(clock)
    sender = forum.add_user("Sender")
    forum.add_user("Reader")
    def send(n):
        clock.set(clock.now() + timedelta(seconds=16))  # past the 15 s between topics
        forum.create(sender, {"title": f"Message {n}", "archetype": "private_message",
                              "target_recipients": "Reader", "raw": f"Private message {n}."})
    for n in range(20):
        send(n)
    with pytest.raises(ApiError) as refused:
        send(20)
    assert refused.value.status == 429 and int(refused.value.headers["Retry-After"]) > 3600
    assert "Discourse-Rate-Limit-Error-Code" not in refused.value.headers  # the account's own
    clock.set(clock.now() + timedelta(days=1))
    send(21)


def _limited_forum():
    from datetime import datetime

    from modbot.sandbox.forum import Forum
    from modbot.sandbox.models import ManualClock
    clock = ManualClock(datetime(2026, 12, 1, tzinfo=UTC))
    forum = Forum(clock)
    host = forum.add_user("Host", moderator=True)
    topic = forum.create(host, {"title": "A topic for the limits", "category": 1,
                                "raw": "The first post of the topic."}).topic_id
    return forum, clock, host, topic


def test_slow_mode_refuses_a_non_staff_reply_until_its_seconds_pass(forum):
    """PostCreator#valid? (limits.py): 422 "This topic is in slow mode.", staff exempt; the
    topic JSON shows the seconds and the viewer's last post."""
    from datetime import timedelta

    from modbot.sandbox.forum import ApiError
    from modbot.sandbox.limits import SLOW_MODE
    limited, clock, host, topic = _limited_forum()
    member = limited.add_user("Member")
    with pytest.raises(ApiError):
        limited.write_limits.set_slow_mode(member, limited.topics[topic], 600)  # staff only
    limited.write_limits.set_slow_mode(host, limited.topics[topic], 600)
    limited.create(member, {"topic_id": topic, "raw": "A first reply in slow mode."})
    clock.set(clock.now() + timedelta(seconds=300))
    with pytest.raises(ApiError) as refused:
        limited.create(member, {"topic_id": topic, "raw": "A second reply, too soon for it."})
    assert refused.value.status == 422 and refused.value.body["errors"] == [SLOW_MODE]
    limited.create(host, {"topic_id": topic, "raw": "Staff reply whenever they like."})
    clock.set(clock.now() + timedelta(seconds=301))
    limited.create(member, {"topic_id": topic, "raw": "A second reply, now allowed."})
    _, client, game = forum
    client.ok("PUT", f"/t/{game}/slow_mode.json", "modbot", data={"seconds": "3600"})
    assert client.call("PUT", f"/t/{game}/slow_mode.json", "Alex",
                       data={"seconds": "0"}).status_code == 403
    shown = client.ok("GET", f"/t/{game}.json", "Alex")
    assert shown["slow_mode_seconds"] == 3600 and shown["user_last_posted_at"]


def test_slow_mode_refuses_an_edit_outside_the_grace_period():
    from datetime import timedelta

    from modbot.sandbox.forum import ApiError
    limited, clock, host, topic = _limited_forum()
    member = limited.add_user("Member")
    post = limited.create(member, {"topic_id": topic, "raw": "A reply I shall edit later."})
    limited.write_limits.set_slow_mode(host, limited.topics[topic], 60)
    limited.edit(post, member, "A reply I shall edit later (a typo).")  # within the grace
    clock.set(clock.now() + timedelta(seconds=400))
    with pytest.raises(ApiError) as refused:
        limited.edit(post, member, "A reply edited much later on, in slow mode.")
    assert refused.value.status == 422
    limited.edit(post, host, "Staff may edit it in slow mode.")


@pytest.mark.parametrize(("trust_level", "allowed"), [(1, 30), (2, 45), (3, 60)])
def test_edits_a_day_are_limited_by_trust_level_and_start_again_with_the_date(trust_level,
                                                                              allowed):
    """lib/edit_rate_limiter.rb (limits.py): 30 new versions a day, ×1.5 and ×2 at trust levels
    2 and 3; a 429 of hours; a new date, a new count; staff never limited."""
    from datetime import timedelta

    from modbot.sandbox.forum import ApiError
    limited, clock, host, topic = _limited_forum()
    clock.set(clock.now() + timedelta(hours=1))
    editor = limited.add_user("Editor", trust_level=trust_level)
    post = limited.create(editor, {"topic_id": topic, "raw": "A running count, edited often."})
    for n in range(allowed):
        clock.set(clock.now() + timedelta(seconds=301))  # past the grace period: new versions
        limited.edit(post, editor, f"A running count, edited often: version {n}.")
    clock.set(clock.now() + timedelta(seconds=301))
    with pytest.raises(ApiError) as refused:
        limited.edit(post, editor, "One version too many today.")
    assert refused.value.status == 429 and int(refused.value.headers["Retry-After"]) > 3600
    for n in range(allowed + 5):
        clock.set(clock.now() + timedelta(seconds=301))
        limited.edit(limited.posts[1], host, f"Staff edit the first post freely: {n}.")
    clock.set(clock.now().replace(hour=0, minute=1) + timedelta(days=1))
    limited.edit(post, editor, "A new day: a new count of edits.")
