"""The real forum: players known by their user id, moderators' actions survived, a revoked key
outlived. Each disturbance is made on the sandbox as Discourse makes it (see
modbot/sandbox/moderation.py), in the middle of the demo game, and the game must end as the
undisturbed one does: the same bot posts (by outbox marker), the same outcome, or the
documented difference with the Storytellers told."""

import dataclasses
import json
import re
import time
from datetime import datetime, timedelta

import pytest
import requests

from modbot.adapters.forum import ForumClient
from modbot.adapters.store import OutboxRow, SnapshotRow
from modbot.cli.rehearsal import day_end, demo_rehearsal
from modbot.core import report

from .test_e2e import MARKER, markers

pytestmark = pytest.mark.slow  # the bot against the sandbox over HTTP

OLD, NEW = "Fatima", "Fatimah"
RENAME_AT = "2026-12-03T07:30:00Z"  # after Fatima's vote on Derek, before Fatima is nominated


def _finish(rehearsal, script):
    last = datetime.fromisoformat(script[-1]["created_at"])
    return max(last, day_end(rehearsal.setup)) + timedelta(hours=1)


def _start(folder, name: str):
    rehearsal, script = demo_rehearsal(f"sqlite:///{folder}/{name}.sqlite")
    rehearsal.start_bot()
    rehearsal.clock.set(rehearsal.setup.first_night_starts)
    rehearsal.service.cycle(rehearsal.setup.first_night_starts)
    return rehearsal, script


def _game(rehearsal):
    return next(iter(rehearsal.service.games.values()))


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    rehearsal, script = _start(tmp_path_factory.mktemp("ref"), "reference")
    rehearsal.play(script, finish_at=_finish(rehearsal, script))
    yield rehearsal
    rehearsal.stop()


def _renamed_item(item: dict, others_say_new: bool) -> dict:
    """A scripted post after the rename: Fatima posts as Fatimah; another player names her by
    her new name where `others_say_new` (the old name, an alias now, elsewhere)."""
    item = dict(item)
    if item.get("username") == OLD:
        item["username"] = NEW
    elif others_say_new and "raw" in item:
        item["raw"] = item["raw"].replace(f"/vote {OLD}", f"/vote {NEW}")
    if isinstance(item.get("to"), list):
        item["to"] = [NEW if n == OLD else n for n in item["to"]]
    return item


def _rename(rehearsal, old: str, new: str) -> None:
    rehearsal.clock.set(datetime.fromisoformat(RENAME_AT))
    rehearsal.request("PUT", f"/u/{old}/preferences/username", as_user=old, new_username=new)
    rehearsal.keys[new.lower()] = rehearsal.keys.pop(old.lower())


def _as_before(rehearsal) -> list[str]:
    """The bot's markers with the new name read as the old one, the rename note left out, and
    each post id replaced by that post's author and time (the note to the Storytellers is a
    post, so the ids of the posts after it differ from the reference's by one)."""
    posts = rehearsal.server.forum.posts

    def stable(key: str) -> str:
        parts = key.split(":")
        for i in range(1, len(parts)):
            post = posts.get(int(parts[i])) if parts[i].isdigit() else None
            if post is not None and parts[i - 1] == "pm":  # a PM's id (thread keys: numbers)
                parts[i] = f"{post.username}@{post.created_at.isoformat()}"
        return ":".join(parts).replace(NEW, OLD).replace(NEW.lower(), OLD.lower())
    return [stable(m) for m in markers(rehearsal) if ":renamed:" not in m]


def _outcome(rehearsal) -> dict:
    state = json.loads(json.dumps(report(_game(rehearsal).state), default=str)
                       .replace(NEW, OLD))
    for seat in state.get("seats", []):
        seat.pop("aliases", None)
    return state


@pytest.mark.parametrize("others_say_new, name_check", [(False, False), (True, True)])
def test_a_renamed_player_keeps_their_seat_votes_and_conversation(reference, tmp_path,
                                                                  others_say_new, name_check):
    """Without the names' check the bot learns the rename from Fatimah's own next post (the
    others still name her Fatima, an alias now); with it (every 10 forum minutes) before she
    posts, so a vote naming Fatimah counts too."""
    rehearsal, script = _start(tmp_path, "renamed")
    if not name_check:
        rehearsal.service.identities.check_seconds = 0  # off: only her own posts tell
    try:
        cut = next(i for i, item in enumerate(script) if item["created_at"] > RENAME_AT)
        rehearsal.play(script[:cut])
        _rename(rehearsal, OLD, NEW)
        rest = [_renamed_item(item, others_say_new) for item in script[cut:]]
        rehearsal.play(rest, finish_at=_finish(rehearsal, script))
        found = markers(rehearsal)
        assert len([m for m in found if ":renamed:fatima:fatimah" in m]) == 1  # told once
        assert _as_before(rehearsal) == _as_before(reference)
        assert _outcome(rehearsal) == _outcome(reference)
        game = _game(rehearsal)
        seat = game.state.seat(NEW)
        assert OLD in seat.aliases
        forum = rehearsal.server.forum
        conversations = [t for t in forum.topics.values() if t.is_pm and NEW in t.allowed]
        assert len(conversations) == 1  # her grimoire: the same conversation as before
        assert not rehearsal.store.outbox_counts().get("failed")
    finally:
        rehearsal.stop()


def test_a_rename_is_seen_by_the_name_check_before_the_player_posts(tmp_path):
    rehearsal, script = _start(tmp_path, "checked")
    try:
        cut = next(i for i, item in enumerate(script) if item["created_at"] > RENAME_AT)
        rehearsal.play(script[:cut])
        _rename(rehearsal, OLD, NEW)
        service = rehearsal.service
        before = rehearsal.server.counts["GET /user-cards.json"]
        at = datetime.fromisoformat(RENAME_AT) + timedelta(minutes=11)
        rehearsal.clock.set(at)
        service.cycle(at)
        assert _game(rehearsal).state.is_seated(NEW)  # nobody posted: the check found it
        assert rehearsal.server.counts["GET /user-cards.json"] == before + 1  # one for all
    finally:
        rehearsal.stop()


def test_someone_else_taking_the_old_name_makes_the_alias_lapse(tmp_path):
    """After Fatima's rename, a new forum account takes the name Fatima and posts: the current
    holder of a name wins, so the seat's alias lapses (Fatima no longer names Fatimah's seat)
    and the Storytellers are told; the seat itself stays Fatimah's."""
    rehearsal, script = _start(tmp_path, "lapsed")
    try:
        cut = next(i for i, item in enumerate(script) if item["created_at"] > RENAME_AT)
        rehearsal.play(script[:cut])
        _rename(rehearsal, OLD, NEW)
        at = datetime.fromisoformat(RENAME_AT) + timedelta(minutes=11)
        rehearsal.clock.set(at)
        rehearsal.service.cycle(at)
        assert OLD in _game(rehearsal).state.seat(NEW).aliases
        forum = rehearsal.server.forum
        forum.add_user(OLD)  # a newcomer registers the freed name
        forum.append(forum.topics[rehearsal.setup.topic_id], OLD, "Hello, just watching!", at)
        rehearsal.service.cycle(at + timedelta(minutes=1))
        game = _game(rehearsal)
        assert OLD not in game.state.seat(NEW).aliases and game.state.is_seated(NEW)
        assert game.state.setup.roster.resolve_exact(OLD) is None
        assert len([m for m in markers(rehearsal) if ":alias-lapsed:fatima:" in m]) == 1
    finally:
        rehearsal.stop()


def test_a_renamed_bot_account_goes_on_with_nothing_lost(reference, tmp_path):
    """Staff rename the bot's own account mid-game: its key acts by user id, so it keeps
    working; the names check sees the rename; the games follow (the Storytellers are told
    once), and the rest of the day plays out as it would have."""
    rehearsal, script = _start(tmp_path, "bot-renamed")
    try:
        cut = next(i for i, item in enumerate(script) if item["created_at"] > RENAME_AT)
        rehearsal.play(script[:cut])
        rehearsal.clock.set(datetime.fromisoformat(RENAME_AT))
        rehearsal.request("PUT", "/u/modbot/preferences/username", as_user="system",
                          new_username="Clocktower")
        at = datetime.fromisoformat(RENAME_AT) + timedelta(minutes=11)
        rehearsal.clock.set(at)
        rehearsal.service.cycle(at)
        assert rehearsal.service.settings.bot_username == "Clocktower"
        assert _game(rehearsal).state.setup.bot_username == "Clocktower"
        rehearsal.setup = dataclasses.replace(rehearsal.setup, bot_username="Clocktower")
        rest = [dict(item, to=["Clocktower" if n == "modbot" else n for n in item["to"]])
                if isinstance(item.get("to"), list) else item for item in script[cut:]]
        rehearsal.play(rest, finish_at=_finish(rehearsal, script))  # PMs to the new name
        assert len([m for m in markers(rehearsal) if ":renamed:modbot:clocktower" in m]) == 1
        assert _outcome(rehearsal) == _outcome(reference)
        assert not rehearsal.store.outbox_counts().get("failed")
    finally:
        rehearsal.stop()


def _play_with(tmp_path, name: str, disturb, username: str, raw: str):
    """The demo played with `disturb(rehearsal, item)` in place of the scripted post of
    `username` that starts with `raw`."""
    rehearsal, script = _start(tmp_path, name)
    index = next(i for i, item in enumerate(script)
                 if item.get("username") == username and item.get("raw", "").startswith(raw))
    rehearsal.play(script[:index])
    disturb(rehearsal, script[index])
    rehearsal.play(script[index + 1:], finish_at=_finish(rehearsal, script))
    return rehearsal


def _elsewhere(rehearsal, at: str) -> int:
    """Another topic of the forum, where the bot has nothing to read."""
    return rehearsal.request("POST", "/posts.json", as_user="Alex", category=1,
                             title="Another topic on the forum", created_at=at,
                             raw="Some chat that has nothing to do with the game.")["topic_id"]


def _busy_elsewhere(rehearsal, at: str, topic: int | None = None) -> None:
    """Sixty posts elsewhere on the forum (more than a page of the newest posts). Written
    directly: the API's per-user spacing would never refill on this frozen forum clock."""
    forum = rehearsal.server.forum
    topic = topic or _elsewhere(rehearsal, at)
    for n in range(60):
        forum.append(forum.topics[topic], "Alex", f"Elsewhere on the forum, post {n}.",
                     datetime.fromisoformat(at))


def test_a_vote_moved_into_the_thread_counts_like_one_posted_there(reference, tmp_path):
    """Ellen posts her vote in another topic; sixty posts later elsewhere on the forum a
    moderator moves it into the game thread (Discourse's PostMover: same id and created_at, the
    thread's next post number). It counts as if she had posted it there."""
    def stray_then_moved(rehearsal, item):
        at = datetime.fromisoformat(item["created_at"])
        topic = _elsewhere(rehearsal, item["created_at"])
        stray = rehearsal.request("POST", "/posts.json", as_user="Ellen", raw=item["raw"],
                                  topic_id=topic, created_at=item["created_at"])
        rehearsal.service.cycle(at)
        _busy_elsewhere(rehearsal, item["created_at"], topic)
        rehearsal.service.cycle(at)
        rehearsal.request("POST", f"/t/{topic}/move-posts.json", as_user="system",
                          **{"post_ids[]": stray["id"],
                             "destination_topic_id": rehearsal.setup.topic_id})
        rehearsal.service.cycle(at)

    rehearsal = _play_with(tmp_path, "moved", stray_then_moved, "Ellen", "/vote Derek yes")
    try:
        assert _outcome(rehearsal) == _outcome(reference)
        assert _as_before(rehearsal) == _as_before(reference)
    finally:
        rehearsal.stop()


def test_votes_posted_while_the_thread_is_unlisted_count(reference, tmp_path):
    """Staff unlist the game thread (as Discourse does itself when flags hide its first post);
    players go on posting; it is listed again. Every vote counts."""
    def unlisted(rehearsal, item):
        host = rehearsal.setup.storytellers[0]
        topic = rehearsal.setup.topic_id
        rehearsal.request("PUT", f"/t/{topic}/status.json", as_user=host, status="visible",
                          enabled="false")
        rehearsal.post(item["username"], item["raw"], item["created_at"])
        _busy_elsewhere(rehearsal, item["created_at"])
        rehearsal.service.cycle(datetime.fromisoformat(item["created_at"]))
        rehearsal.request("PUT", f"/t/{topic}/status.json", as_user=host, status="visible",
                          enabled="true")

    rehearsal = _play_with(tmp_path, "unlisted", unlisted, "Ellen", "/vote Derek yes")
    try:
        assert _numberless(_outcome(rehearsal)) == _numberless(_outcome(reference))
        # the two small actions (unlisted, listed) shift the thread's later post numbers
        assert _without_numbers(_as_before(rehearsal)) == _without_numbers(_as_before(reference))
    finally:
        rehearsal.stop()


def _numberless(value):
    """A report without post numbers (the small actions shift them)."""
    if isinstance(value, dict):
        return {k: _numberless(v) for k, v in value.items() if k != "post_number"}
    if isinstance(value, list):
        return [_numberless(v) for v in value]
    return value


def _without_numbers(found: list[str]) -> list[str]:
    """The markers without the players' post numbers some name (a reply to a rejected post, a
    whisper broken by a post), which depend on how the bot's posts interleave with theirs."""
    return sorted(re.sub(r"^(g\d+:whisper-broken:[^:]+):\d+:", r"\1:N:", m)
                  for m in found if ":rejected:" not in m)


def test_a_revoked_key_pauses_the_bot_and_it_resumes_with_nothing_lost_or_doubled(
        reference, tmp_path):
    """The bot's key is revoked (403 on every request) while a post is being retried, for three
    of the players' posts; then an admin restores it. The daemon's cycle never raises, and the
    game ends with exactly the reference's posts."""
    rehearsal, script = _start(tmp_path, "revoked")
    try:
        made = rehearsal.request("POST", "/admin/api/keys.json", **{"key[username]": "modbot"})
        service = rehearsal.service
        service.client.api_key = made["key"]["key"]  # the bot on a key of its own
        service.settings.max_backoff = service.outbox.max_backoff = 0.2  # fast retries here
        index = next(i for i, item in enumerate(script)
                     if item.get("username") == "Ellen" and item["raw"].startswith("/vote Derek"))
        rehearsal.play(script[:index])
        requests.post(rehearsal.url + "/_sandbox/faults.json", timeout=5, json={
            "path": "/posts", "method": "POST", "kind": "500", "count": 1,
            "username": "modbot"}).raise_for_status()
        rehearsal.request("POST", f"/admin/api/keys/{made['key']['id']}/revoke.json")
        rehearsal.play(script[index:index + 3])  # no exception: every cycle defers
        assert service.key_refused > 0
        rehearsal.request("POST", f"/admin/api/keys/{made['key']['id']}/undo-revoke.json")
        time.sleep(0.5)  # past the backoff
        rehearsal.play(script[index + 3:], finish_at=_finish(rehearsal, script))
        deadline = time.monotonic() + 30
        while (rehearsal.store.pending() or service.cycle(_finish(rehearsal, script)).deferred) \
                and time.monotonic() < deadline:
            time.sleep(0.2)
            service.drain()
        assert service.key_refused == 0
        # conversations catch up in their own order after the pause, and the bot's delayed
        # posts take other post numbers in the thread (a reply's key names the one it answers)
        got, expected = sorted(_as_before(rehearsal)), sorted(_as_before(reference))
        assert len(got) == len(expected) and _without_numbers(got) == _without_numbers(expected)
        thread = [m for p in rehearsal.thread() for m in MARKER.findall(p["raw"])]
        assert thread == [m for p in reference.thread() for m in MARKER.findall(p["raw"])]
        assert _outcome(rehearsal) == _outcome(reference)
        revisions = OutboxRow.select().where(  # the index's, and the countdowns' edits
            (OutboxRow.kind == "revise") | OutboxRow.key.contains(":ended:")).count()
        assert rehearsal.store.outbox_counts() == {"sent": len(markers(reference)) + revisions,
                                                   "withdrawn": 1}  # Cameron's moot reminder
    finally:
        rehearsal.stop()


def _nomination_votes(rehearsal, nominee: str) -> dict:
    day = _game(rehearsal).state.today
    nomination = next(n for n in day.nominations if n.nominee == nominee)
    votes = {player: vote.value for player, vote in nomination.cast.items()}
    votes.update({vote.player: vote.vote for vote in nomination.locked})
    return votes


def test_a_post_moved_in_after_a_lock_is_held_until_a_storyteller_accepts_it(reference,
                                                                              tmp_path):
    """Ellen's vote is moved into the thread hours after she posted it elsewhere, after
    moments the bot had applied (clock-hand locks). The bot does not count it by itself: the
    Storytellers get a note with what counting it in its place would change and the command;
    `!accept id:N` replays the game with it, and the game ends as the reference does."""
    rehearsal, script = _start(tmp_path, "late")
    try:
        index = next(i for i, item in enumerate(script)
                     if item.get("username") == "Ellen" and item["raw"].startswith("/vote Derek"))
        rehearsal.play(script[:index])
        item = script[index]
        topic = _elsewhere(rehearsal, item["created_at"])
        stray = rehearsal.request("POST", "/posts.json", as_user="Ellen", raw=item["raw"],
                                  topic_id=topic, created_at=item["created_at"])
        later = next(i for i, it in enumerate(script) if it["created_at"] >= "2026-12-03T19:00:00Z")
        rehearsal.play(script[index + 1:later])
        rehearsal.request("POST", f"/t/{topic}/move-posts.json", as_user="system",
                          **{"post_ids[]": stray["id"],
                             "destination_topic_id": rehearsal.setup.topic_id})
        rehearsal.service.cycle(datetime.fromisoformat(script[later - 1]["created_at"]))
        rehearsal.service.drain()
        forum = rehearsal.server.forum
        note = next(p for p in forum.posts.values() if f"modbot:g1:late:{stray['id']}" in p.raw)
        assert f"!accept id:{stray['id']}" in note.raw and "Ellen" in note.raw
        assert "Ellen" not in _nomination_votes(rehearsal, "Derek")  # held, not counted
        accept = {"username": "nightingale", "to": "storytellers",
                  "raw": f"!accept id:{stray['id']}", "created_at": script[later]["created_at"]}
        rehearsal.play([accept])
        assert _nomination_votes(rehearsal, "Derek").get("Ellen") == "yes"
        rehearsal.play(script[later:], finish_at=_finish(rehearsal, script))
        # the same game; the moved post took a later post number, the others one less
        assert _numberless(_outcome(rehearsal)) == _numberless(_outcome(reference))
        live = _outcome(rehearsal)
        SnapshotRow.delete().execute()  # a restart that folds every stored input again
        rehearsal.store.close()
        rehearsal.start_bot()
        assert _outcome(rehearsal) == live
    finally:
        rehearsal.stop()


def test_a_player_who_invites_someone_into_their_grimoire_gets_a_new_one(reference, tmp_path):
    """Alex invites Brianna into his grimoire conversation (any participant may). The bot posts
    nothing private there any more: his later messages open a new conversation with him and
    the Storytellers, he is told why there, the Storytellers what Brianna could read, and the
    bot (a moderator) removes her. The game itself is unchanged."""
    rehearsal, script = _start(tmp_path, "invited")
    try:
        forum = rehearsal.server.forum
        grimoire = next(t for t in forum.topics.values()
                        if t.is_pm and t.title.startswith("Alex's grimoire"))
        rehearsal.request("POST", f"/t/{grimoire.id}/invite.json", as_user="Alex", user="Brianna")
        invited_at = grimoire.posts[-1].post_number
        rehearsal.play(script, finish_at=_finish(rehearsal, script))
        after = [p for p in grimoire.posts if p.post_number > invited_at
                 and p.username == "modbot" and p.post_type == 1]  # (not the removal)
        assert after == []  # nothing private went where Brianna reads
        assert "Brianna" not in grimoire.allowed  # removed by the (staff) bot
        fresh = [t for t in forum.topics.values() if t.is_pm and t.id != grimoire.id
                 and {u.lower() for u in t.allowed} == {"alex", "modbot", "nightingale"}]
        assert len(fresh) == 1
        raws = [p.raw for p in fresh[0].posts]
        assert any("modbot:g1:moved:" in r for r in raws)  # told why, in the new one
        assert len(raws) > 1  # and his private messages came there
        note = next(p.raw for p in forum.posts.values()
                    if "modbot:g1:intruder:" in p.raw and p.topic_id != fresh[0].id)
        assert "Brianna" in note and "everything in that conversation" in note
        assert _outcome(rehearsal) == _outcome(reference)
    finally:
        rehearsal.stop()


def test_a_bot_without_moderator_rights_loses_no_post(tmp_path):
    """The bot's moderation is revoked before the game (Discourse's non-staff limits apply: no
    fourth reply in a row in the Storyteller's thread, 5 s between posts, 15 s between new
    conversations, all on the forum's clock). Every post the moderator bot makes still reaches
    the forum: those that would be a fourth reply in a row join the bot's last post, with
    their markers."""
    reference = _thread_only(tmp_path, "staff", staff=True)
    rehearsal = _thread_only(tmp_path, "regular", staff=False)
    try:
        assert not rehearsal.store.outbox_counts().get("failed")
        got, expected = sorted(markers(rehearsal)), sorted(markers(reference))
        # joined replies take fewer post numbers (a reply's key names the post it answers)
        assert len(got) == len(expected) and _without_numbers(got) == _without_numbers(expected)
        topic = rehearsal.server.forum.topics[rehearsal.setup.topic_id]
        run = longest = 0
        for post in topic.posts:
            if post.post_type == 1:
                run = run + 1 if post.username == "modbot" else 0
                longest = max(longest, run)
        assert longest <= 3
        merged = [p for p in topic.posts if p.raw.count("<!-- modbot:") > 1]
        assert merged  # day 2's phase posts, with nobody posting between them
    finally:
        reference.stop()
        rehearsal.stop()


def test_a_bot_demoted_mid_game_joins_its_fourth_reply_instead_of_losing_it(tmp_path):
    """The bot started as a moderator (its replies not joined) and loses the rights during
    night 1: the first reply the forum refuses as a fourth in a row (max_consecutive_replies)
    joins the bot's last post, and so do the later ones; nothing fails, nothing is lost."""
    reference = _thread_only(tmp_path, "staff", staff=True)
    rehearsal = _thread_only(tmp_path, "demoted", staff=False, revoked_at_start=False)
    try:
        assert not rehearsal.store.outbox_counts().get("failed")
        assert sorted(markers(rehearsal)) == sorted(markers(reference))
        assert rehearsal.service.started.merge_replies  # learnt from the forum's refusal
        topic = rehearsal.server.forum.topics[rehearsal.setup.topic_id]
        assert [p for p in topic.posts if p.raw.count("<!-- modbot:") > 1]
    finally:
        reference.stop()
        rehearsal.stop()


def _thread_only(tmp_path, name: str, *, staff: bool, revoked_at_start: bool = True):
    rehearsal, script = demo_rehearsal(f"sqlite:///{tmp_path}/{name}.sqlite", private=False)
    if not staff:
        rehearsal.settings.post_spacing = 0  # 6 s of real time would only slow this test; the
        # forum keeps its own 5 s between posts, on its clock
    if not staff and revoked_at_start:
        rehearsal.server.forum.user("modbot").moderator = False
    rehearsal.start_bot()
    rehearsal.clock.set(rehearsal.setup.first_night_starts)
    rehearsal.service.cycle(rehearsal.setup.first_night_starts)
    if not staff and not revoked_at_start:  # the bot started as a moderator; staff revoke it
        rehearsal.server.forum.user("modbot").moderator = False
    # on through day 2, where nobody posts: the bot's phase posts come one after another
    rehearsal.play(script, finish_at=day_end(rehearsal.setup, 2) + timedelta(hours=1))
    for _ in range(20):  # what waited for the forum's spacing goes out as its clock moves on
        if not rehearsal.store.pending():
            break
        rehearsal.clock.set(rehearsal.clock.now() + timedelta(seconds=20))
        OutboxRow.update(not_before=0).execute()  # the forum's seconds passed (its clock)
        rehearsal.service.outbox.quiet_until = rehearsal.service.quiet_until = 0
        rehearsal.service.outbox.new_pms_until = 0  # (the gap between new topics, likewise)
        rehearsal.service.drain()
    return rehearsal


def test_a_game_thread_in_slow_mode_delays_a_non_staff_bots_posts_and_loses_none(tmp_path):
    """A moderator puts the game thread in slow mode (10 minutes) before the bot, a regular
    account, starts: each post the forum refuses for it waits for the thread's time
    (PostCreator: "This topic is in slow mode.", with no wait named: the topic's view says
    it), the posts queued meanwhile go out joined, in order; nothing fails, nothing is lost or
    doubled, and the Storytellers are told once, with what would lift it."""
    reference = _thread_only(tmp_path, "staff", staff=True)
    rehearsal, script = demo_rehearsal(f"sqlite:///{tmp_path}/slow.sqlite", private=False)
    try:
        forum = rehearsal.server.forum
        forum.user("modbot").moderator = False
        forum.write_limits.set_slow_mode(forum.user("system"),
                                         forum.topics[rehearsal.setup.topic_id], 600)
        rehearsal.settings.post_spacing = 0  # real seconds would only slow this test
        rehearsal.start_bot()
        rehearsal.clock.set(rehearsal.setup.first_night_starts)
        rehearsal.service.cycle(rehearsal.setup.first_night_starts)
        rehearsal.play(script, finish_at=day_end(rehearsal.setup, 2) + timedelta(hours=1))
        outbox = rehearsal.service.started

        def talk(n: int) -> None:  # the players talk (a fourth reply in a row waits for
            # another author: its join, an edit, is refused in slow mode)
            rehearsal.post(("Alex", "Brianna", "Cameron")[n % 3], f"Still here, still thinking ({n}).",
                           rehearsal.clock.now().isoformat())
            outbox.slow_until = dict.fromkeys(outbox.slow_until, 0.0)  # (its wall clock)

        _drain_as_the_forum_moves(rehearsal, timedelta(minutes=11), 40, talk)  # 10 minutes
        assert not rehearsal.store.pending()
        assert not rehearsal.store.outbox_counts().get("failed")
        told = [m for m in markers(rehearsal) if ":limit:slow_mode" in m]
        assert len(told) == 1
        got = sorted(m for m in markers(rehearsal) if m not in told  # a countdown's edit the
                     and ":ended:" not in m)  # slow mode refused went out as a post, as a count's
        expected = sorted(markers(reference))  # joined replies take fewer post numbers
        assert len(got) == len(expected) == len(set(got))
        assert _without_numbers(got) == _without_numbers(expected)
        topic = forum.topics[rehearsal.setup.topic_id]
        assert [p for p in topic.posts if p.raw.count("<!-- modbot:") > 1]  # joined
        note = next(p for p in forum.posts.values() if ":limit:slow_mode" in p.raw)
        assert "turn slow mode off" in note.raw and "moderator" in note.raw
    finally:
        reference.stop()
        rehearsal.stop()


def _drain_as_the_forum_moves(rehearsal, step: timedelta, rounds: int, each) -> None:
    """Drain until nothing is owed, the forum's clock moving `step` a round and `each(n)`
    happening in round n. The forum's seconds pass here in milliseconds: the waits the bot
    keeps on its own clocks are let go, and so is Discourse's memo of an API create's answer
    (120 real seconds, a refusal too: PostsController#create)."""
    outbox = rehearsal.service.started
    for n in range(rounds):
        if not rehearsal.store.pending():
            return
        rehearsal.clock.set(rehearsal.clock.now() + step)
        each(n)
        OutboxRow.update(not_before=0).execute()
        outbox.quiet_until = rehearsal.service.quiet_until = outbox.new_pms_until = 0
        rehearsal.server.forum._memo.clear()
        rehearsal.service.drain()


def _post_numbers_out(key: str) -> str:
    return re.sub(r":\d+(?=:|$)", ":#", key)


def test_a_silenced_bot_holds_its_thread_posts_until_the_silence_ends_and_loses_none(tmp_path):
    """A moderator silences the bot (a regular account) for the game's first day: the forum
    refuses its posts in the game thread and its edits (lib/guardian/post_guardian.rb); they
    wait, never failed, and go out in order, each once, when a moderator unsilences it; the
    Storytellers are told once, in their conversation, with what would lift it."""
    reference = _thread_only(tmp_path, "staff", staff=True)
    rehearsal, script = demo_rehearsal(f"sqlite:///{tmp_path}/silenced.sqlite", private=False)
    try:
        forum = rehearsal.server.forum
        bot = forum.user("modbot")
        bot.moderator = False
        rehearsal.settings.post_spacing = 0  # real seconds would only slow this test
        rehearsal.start_bot()
        rehearsal.clock.set(rehearsal.setup.first_night_starts)
        rehearsal.service.cycle(rehearsal.setup.first_night_starts)
        bot.silenced_till = rehearsal.setup.first_night_starts + timedelta(days=30)
        rehearsal.play(script, finish_at=day_end(rehearsal.setup, 2) + timedelta(hours=1))
        assert rehearsal.store.pending() and not rehearsal.store.outbox_counts().get("failed")
        bot.silenced_till = None  # a moderator unsilences it
        outbox = rehearsal.service.started

        def rechecked(_n: int) -> None:  # the recheck's wait passed (on its wall clock)
            outbox.standing.silenced_until = 0.0

        _drain_as_the_forum_moves(rehearsal, timedelta(seconds=20), 40, rechecked)
        assert not rehearsal.store.pending()
        assert not rehearsal.store.outbox_counts().get("failed")
        told = [m for m in markers(rehearsal) if ":limit:silenced" in m]
        assert len(told) == 1
        got = [m for m in markers(rehearsal) if m not in told]
        assert len(got) == len(set(got))
        # the same posts as the staff bot's; those keyed by a player's post number name
        # another number, as the bot's own posts, held back, no longer come between
        assert sorted(map(_post_numbers_out, got)) == \
            sorted(map(_post_numbers_out, markers(reference)))
        note = next(p for p in forum.posts.values() if ":limit:silenced" in p.raw)
        assert forum.topics[note.topic_id].is_pm and "unsilence" in note.raw.lower()
    finally:
        reference.stop()
        rehearsal.stop()


def test_new_conversations_past_the_daily_limit_wait_and_nothing_else_does(tmp_path):
    """A non-staff bot may open only so many new PMs a day (Discourse's
    max_personal_messages_per_day, 20). The demo deals 7 character PMs and opens the
    Storytellers' conversation; the limit is set to 4 here so that the 5th waits as the 21st
    would on a real forum. The rest waits (never failed), the thread is read on meanwhile,
    and once the forum's day allows, every conversation opens."""
    rehearsal, script = demo_rehearsal(f"sqlite:///{tmp_path}/limited.sqlite")
    try:
        forum = rehearsal.server.forum
        forum.user("modbot").moderator = False
        forum.pms_per_day = 4
        rehearsal.settings.post_spacing = 0  # real seconds would only slow this test
        rehearsal.start_bot()
        start = rehearsal.setup.first_night_starts
        for step in range(12):  # the deal, a forum minute a cycle (new topics 15 s apart, and
            at = start + timedelta(seconds=61 * step)  # the admin budget of 60 a minute)
            rehearsal.clock.set(at)
            OutboxRow.update(not_before=0).execute()  # the forum's 15 s passed (on its clock)
            rehearsal.service.started.new_pms_until = 0  # likewise, on the bot's wall clock
            # (past the 4th conversation each try meets the day's limit again: told once)
            rehearsal.service.cycle(at)
        opened = [t for t in forum.topics.values() if t.is_pm]
        assert len(opened) == 4
        waiting = rehearsal.store.pending()
        assert waiting and not rehearsal.store.outbox_counts().get("failed")
        thread_items = [i for i in script if "to" not in i][:6]
        rehearsal.play(thread_items)  # the thread is read on while conversations wait
        thread = rehearsal.server.forum.topics[rehearsal.setup.topic_id]
        assert _game(rehearsal).last_post_number == thread.posts[-1].post_number
        later = datetime.fromisoformat(thread_items[-1]["created_at"]) + timedelta(days=1)
        rehearsal.clock.set(later)  # a day on the forum's clock; the bot's wait is over too
        OutboxRow.update(not_before=0).execute()
        rehearsal.service.outbox.new_pms_until = 0
        for step in range(30):
            rehearsal.clock.set(later + timedelta(seconds=61 * step))
            OutboxRow.update(not_before=0).execute()
            rehearsal.service.outbox.new_pms_until = 0  # the 15 s between new topics passed
            rehearsal.service.drain()
            if not rehearsal.store.pending():
                break
        assert not rehearsal.store.pending() and not rehearsal.store.outbox_counts().get("failed")
        note = next(p.raw for p in forum.posts.values() if "modbot:g1:pm-limit:" in p.raw)
        assert "wait" in note
    finally:
        rehearsal.stop()


def test_a_long_thread_is_rebuilt_by_id_keeping_its_place_across_a_restart(tmp_path,
                                                                            monkeypatch):
    """A game whose database is lost, with a thread of over 1,200 posts: its rebuild reads the
    first chunk, the ids of the rest in one request, then 50 posts a request, 12 requests a
    cycle; the bot restarts mid-way and goes on where it was (each post read once); the STs
    are told once how far it is; then it replays the thread and the game is as it was."""
    rehearsal, script = demo_rehearsal(f"sqlite:///{tmp_path}/long-0.sqlite", private=False)
    try:
        rehearsal.start_bot()
        rehearsal.clock.set(rehearsal.setup.first_night_starts)
        rehearsal.service.cycle(rehearsal.setup.first_night_starts)
        rehearsal.play(script[:6])
        forum = rehearsal.server.forum
        topic = forum.topics[rehearsal.setup.topic_id]
        at = datetime.fromisoformat(script[5]["created_at"]) + timedelta(minutes=1)
        for n in range(1200):  # table talk (written directly: the API's per-user spacing would
            # never refill on this frozen forum clock)
            forum.append(topic, ("Alex", "Brianna", "Cameron")[n % 3], f"Chat line {n}.", at)
        rehearsal.clock.set(at)
        rehearsal.service.cycle(at)
        as_it_was = _outcome(rehearsal)
        rehearsal.store.close()
        rehearsal.database_url = f"sqlite:///{tmp_path}/long-1.sqlite"  # lost: an empty one
        rehearsal.start_bot()
        ids_label = "GET /t/{id}/post_ids(.json)"
        before = rehearsal.server.counts[ids_label]
        thread_reads = []  # the rebuild's reads of the thread (not of the deal PM's topic)

        def counted(method):
            def read(self, topic_id, *args, **kwargs):
                live = topic.id in rehearsal.service.games  # the live loop's reads from then
                thread_reads.extend([1] if topic_id == topic.id and not live else [])
                return method(self, topic_id, *args, **kwargs)
            return read
        for name in ("posts_after", "posts_by_ids"):
            monkeypatch.setattr(ForumClient, name, counted(getattr(ForumClient, name)))
        at += timedelta(minutes=1)  # a forum minute a cycle: the budget counts them
        rehearsal.clock.set(at)
        rehearsal.service.cycle(at)
        assert rehearsal.setup.topic_id not in rehearsal.service.games  # still reading
        rehearsal.store.close()  # a restart mid-way, on the same database
        rehearsal.start_bot()
        cycles = 1
        while rehearsal.setup.topic_id not in rehearsal.service.games and cycles < 10:
            at += timedelta(minutes=1)
            rehearsal.clock.set(at)
            rehearsal.service.cycle(at)
            cycles += 1
        after_first = len(topic.posts) - 20  # the first chunk is read by post number
        assert 2 <= cycles < 10
        assert thread_reads == [1] * (1 + -(-after_first // 50))  # each post read once
        assert rehearsal.server.counts[ids_label] - before == 1
        notes = [p.raw for p in forum.posts.values() if "modbot:g1:reading:thread" in p.raw]
        assert len(notes) == 1 and "to go" in notes[0]
        assert _outcome(rehearsal) == as_it_was
    finally:
        rehearsal.stop()


def test_a_renamed_storyteller_still_commands_the_bot(tmp_path):
    """The Storyteller renames their account mid-game: their commands still run (they are
    known by their user id) and the Storytellers' conversation goes on."""
    rehearsal, script = _start(tmp_path, "st-renamed")
    try:
        cut = next(i for i, item in enumerate(script) if item["created_at"] > RENAME_AT)
        rehearsal.play(script[:cut])
        rehearsal.clock.set(datetime.fromisoformat(RENAME_AT))
        rehearsal.request("PUT", "/u/nightingale/preferences/username", as_user="nightingale",
                          new_username="lark")
        rehearsal.keys["lark"] = rehearsal.keys.pop("nightingale")
        at = datetime.fromisoformat(RENAME_AT) + timedelta(minutes=5)
        rehearsal.clock.set(at)
        conversation = next(t for t in rehearsal.server.forum.topics.values()
                            if t.is_pm and "notes for the Storytellers" in t.title)
        rehearsal.request("POST", "/posts.json", as_user="lark", topic_id=conversation.id,
                          raw="!status\nHow does it stand?", created_at=at.isoformat())
        rehearsal.service.cycle(at)
        rehearsal.service.drain()
        game = _game(rehearsal)
        assert game.state.setup.is_storyteller("lark")
        answers = [p for p in conversation.posts if p.username == "modbot" and p.created_at >= at
                   and "modbot:g1:" in p.raw and ":renamed:" not in p.raw]
        assert answers  # the !status of the renamed Storyteller was answered there
        assert any(":renamed:nightingale:lark" in p.raw for p in conversation.posts)
    finally:
        rehearsal.stop()


def _running_counts(tmp_path, name: str, disturb=None):
    """The demo with one running vote count a day (`vote_counts = "edit"`); `disturb(rehearsal,
    count post)` acts on day 1's count post once it exists."""
    rehearsal, script = demo_rehearsal(f"sqlite:///{tmp_path}/{name}.sqlite")
    rehearsal.setup = dataclasses.replace(rehearsal.setup, vote_counts="edit")
    rehearsal.start_bot()
    rehearsal.clock.set(rehearsal.setup.first_night_starts)
    rehearsal.service.cycle(rehearsal.setup.first_night_starts)
    cut = next(i for i, item in enumerate(script) if item["created_at"] > RENAME_AT)
    rehearsal.play(script[:cut])
    if disturb is not None:
        topic = rehearsal.server.forum.topics[rehearsal.setup.topic_id]
        (count,) = [p for p in topic.posts if ":vc:" in p.raw and p.username == "modbot"]
        disturb(rehearsal, count)
    rehearsal.play(script[cut:], finish_at=_finish(rehearsal, script))
    return rehearsal


def _shown_counts(rehearsal) -> list[str]:
    """The counts the thread shows, post numbers left out (the new count post takes one)."""
    topic = rehearsal.server.forum.topics[rehearsal.setup.topic_id]
    return [re.sub(r"(post #|/t/\d+/)\d+", r"\1N", MARKER.sub("", p.raw))
            for p in topic.visible_posts() if p.username == "modbot" and ":vc:" in p.raw
            and not p.hidden]  # a hidden post shows collapsed, its words behind a click


def _delete(rehearsal, post) -> None:
    rehearsal.request("DELETE", f"/posts/{post.id}.json", as_user="nightingale")


def _move(rehearsal, post) -> None:
    elsewhere = _elsewhere(rehearsal, RENAME_AT)
    rehearsal.request("POST", f"/t/{post.topic_id}/move-posts.json", as_user="system",
                      **{"post_ids[]": post.id, "destination_topic_id": elsewhere})


def _hide(rehearsal, post) -> None:
    post.hidden = True  # enough flags hide a post (PostAction; the sandbox has no flags)


@pytest.mark.parametrize("disturb, why", [(_delete, "deleted"), (_move, "moved"),
                                          (_hide, "hidden")])
def test_a_running_count_deleted_moved_or_hidden_goes_on_in_a_new_post(tmp_path, disturb,
                                                                       why):
    """A moderator deletes, moves or hides the running count mid-day: the next count is a new
    post in the game thread (never an edit of a deleted or hidden post, never in the other
    topic), later counts edit that one, the thread ends showing what an undisturbed game shows,
    and the Storytellers are told once."""
    reference = _running_counts(tmp_path, "reference")
    rehearsal = _running_counts(tmp_path, why, disturb)
    try:
        assert _shown_counts(rehearsal) == _shown_counts(reference)
        notes = [m for m in markers(rehearsal) if ":lost-post:" in m]
        assert len(notes) == 1 and notes[0].endswith(f":{why}")
        forum = rehearsal.server.forum
        away = [p for p in forum.posts.values() if p.username == "modbot"
                and any(m.startswith("g1:vc:") for m in MARKER.findall(p.raw))
                and (p.deleted_at or p.hidden or p.topic_id != rehearsal.setup.topic_id)]
        assert len(away) == 1  # the one disturbed, left as it was
        assert not rehearsal.store.outbox_counts().get("failed")
    finally:
        reference.stop()
        rehearsal.stop()
