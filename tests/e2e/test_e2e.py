"""End to end over real HTTP on loopback: the bot plays scripted days against the sandbox."""

import re
from datetime import timedelta

import pytest
import requests

from modbot.adapters.forum import ConfigurationError, CredentialsRejected, ForumClient
from modbot.adapters.store import Store
from modbot.app.running.service import Service
from modbot.cli.rehearsal import day_end, demo_rehearsal

pytestmark = pytest.mark.slow  # the bot against the sandbox over HTTP (or a daemon process)

MARKER = re.compile(r"<!-- modbot:(\S+) -->")


def markers(rehearsal) -> list[str]:
    """Every marker the bot left on the forum (topic posts and PMs), in posting order."""
    found = []
    for post in sorted(rehearsal.server.forum.posts.values(), key=lambda p: p.id):
        found.extend(MARKER.findall(post.raw))
    return found


def play_demo(database_url, **kwargs):
    rehearsal, script = demo_rehearsal(database_url, private=False, **kwargs)
    rehearsal.start_bot()
    rehearsal.clock.set(rehearsal.setup.first_night_starts)
    rehearsal.service.cycle(rehearsal.setup.first_night_starts)
    rehearsal.play(script, finish_at=day_end(rehearsal.setup) + timedelta(hours=1))
    return rehearsal


@pytest.fixture()
def played(tmp_path):
    rehearsal = play_demo(f"sqlite:///{tmp_path}/bot.sqlite")
    yield rehearsal
    rehearsal.stop()


EXPECTED_PUBLIC = [  # vote counts: on each nomination, when one closes, and at most every 4 h
    "g1:night:1", "g1:index", "g1:discussion:1", "g1:nomination:1",
    "g1:vc:1.1:open:execution:Derek", "g1:vc:1.2:open:execution:Fatima", "g1:vc:1.3:vc",
    "g1:vc:1.4:closed:execution:Derek", "g1:voting:1", "g1:end:1", "g1:discussion:2",
]


def test_the_thread_holds_the_vote_counts_and_the_execution(played):
    public = [m for p in played.thread() for m in MARKER.findall(p["raw"])]
    assert public == EXPECTED_PUBLIC
    posts = {MARKER.search(p["raw"]).group(1): p["raw"] for p in played.thread()
             if p["username"] == "modbot"}
    first = posts["g1:vc:1.1:open:execution:Derek"]
    assert "Nominated by Alex in [post #12](/t/1/12)" in first
    assert "Clock hand: **Ellen**" in first and "Dead voters: Gus (vote token)" in first
    assert "**0** execute votes; **4** to reach the threshold (6 living)." in first
    assert '[date=2026-12-03 time=18:00:00 timezone="UTC"]' in first
    end = posts["g1:end:1"]
    assert "**Derek** was executed." in end
    assert end.index("was executed") < end.index("### Nomination of Derek")  # the outcome first
    assert re.search(r"\[Gus\]\(/t/1/\d+\) ✅ \(ghost vote\)", end)  # linked to the vote's post
    assert "Gus ❌ (dead without a vote token)" in end  # no post: a vote the bot recorded
    assert re.search(r"\[Fatima\]\(/t/1/\d+\) ❌", end)
    assert "**3** execute votes; **4** to reach the threshold" in end


def test_rejected_actions_are_answered_by_pm_and_nothing_twice(played):
    pms = {t.allowed[1]: t for t in played.server.forum.topics.values()
           if t.is_pm and "grimoire" in t.title}
    assert set(pms) == {"Brianna", "Gus", "Derek", "Ellen"}  # Ellen: her whisper ended
    assert all(t.allowed[2:] == ["nightingale"] for t in pms.values())  # the player's one PM
    assert "Nominating is not possible now" in pms["Brianna"].posts[0].raw
    assert any("Alex has not been nominated today" in p.raw for p in pms["Derek"].posts)
    all_markers = markers(played)
    assert len(all_markers) == len(set(all_markers)) == 19  # the STs' whisper digest, Derek's death
    # PM, the Storytellers' conversation's first note, the thread index


def test_a_restart_midway_resumes_without_losing_or_repeating(tmp_path):
    reference = play_demo(f"sqlite:///{tmp_path}/reference.sqlite")
    expected = markers(reference)
    reference.stop()
    rehearsal, script = demo_rehearsal(f"sqlite:///{tmp_path}/bot.sqlite", private=False)
    try:
        rehearsal.start_bot()
        rehearsal.clock.set(rehearsal.setup.first_night_starts)
        rehearsal.service.cycle(rehearsal.setup.first_night_starts)
        rehearsal.play(script[:9])
        rehearsal.store.close()
        rehearsal.start_bot()  # a new process would do exactly this: rebuild from the store
        rehearsal.play(script[9:], finish_at=day_end(rehearsal.setup) + timedelta(hours=1))
        assert markers(rehearsal) == expected
    finally:
        rehearsal.stop()


def test_an_edit_of_a_counted_vote_is_flagged_and_changes_nothing(tmp_path):
    rehearsal, script = demo_rehearsal(f"sqlite:///{tmp_path}/bot.sqlite", private=False)
    try:
        rehearsal.start_bot()
        rehearsal.play(script[:11])  # up to Ellen's locked vote on Derek
        ellen = next(p for p in rehearsal.server.forum.posts.values()
                     if p.username == "Ellen" and "/vote Derek yes" in p.raw)
        rehearsal.request("PUT", f"/posts/{ellen.id}.json", as_user="Ellen",
                          **{"post[raw]": "/vote Derek no\nChanged my mind, sorry."})
        fatima = next(p for p in rehearsal.server.forum.posts.values()
                      if p.username == "Fatima" and p.raw.startswith("/vote Derek"))
        rehearsal.request("DELETE", f"/posts/{fatima.id}.json", as_user="Fatima")
        assert rehearsal.service.intake.sweep() == 2
        rehearsal.play(script[11:12])
        derek = rehearsal.service.games[1].state.today.nomination_of("Derek")
        assert [(v.player, v.vote) for v in derek.locked][:2] == [("Ellen", "yes"),
                                                                 ("Fatima", "yes")]
        notes = [t for t in rehearsal.server.forum.topics.values()
                 if t.is_pm and "Storytellers" in t.title]
        raws = [p.raw for p in notes[0].posts]
        assert any("Ellen edited post" in r and "/vote Derek yes" in r for r in raws)
        assert any("Fatima deleted post" in r for r in raws)
        assert rehearsal.service.intake.sweep() == 0  # flagged once
        last_vc = [p["raw"] for p in rehearsal.thread() if "Vote count" in p["raw"]][-1]
        assert "Edited or deleted after counting" in last_vc
    finally:
        rehearsal.stop()


def test_an_idle_cycle_costs_two_requests(played):
    service = played.service
    service.intake.last_sweep = day_end(played.setup) + timedelta(hours=1)
    before = _total(played)
    report = service.cycle(day_end(played.setup) + timedelta(hours=1, minutes=1))
    assert report.requests == 2 and _total(played) - before == 2


def _total(rehearsal) -> int:
    return requests.get(rehearsal.url + "/_sandbox/requests.json", timeout=5).json()["total"]


def test_a_permanent_failure_is_reported_to_the_storytellers(tmp_path):
    rehearsal, _script = demo_rehearsal(f"sqlite:///{tmp_path}/bot.sqlite", private=False)
    try:
        rehearsal.start_bot()
        requests.post(rehearsal.url + "/_sandbox/faults.json", timeout=5,  # the Storytellers'
                      json={"path": "/posts", "method": "POST", "kind": "422", "count": 2})
        rehearsal.service.cycle(rehearsal.setup.first_night_starts)  # first note, and night 1
        rehearsal.service.drain()
        counts = rehearsal.store.outbox_counts()
        assert counts == {"failed": 2, "sent": 2}  # the note telling the Storytellers, the index
        notes = [t for t in rehearsal.server.forum.topics.values() if t.is_pm]
        note = notes[0].posts[0].raw
        assert "could not send a post in the game thread: the forum answered" in note
        assert "g1:" not in note.split("<!--")[0]  # no internal key, in words only
        assert notes[0].allowed == ["modbot", "nightingale"]
    finally:
        rehearsal.stop()


def test_start_up_errors_are_clear(tmp_path):
    rehearsal, _ = demo_rehearsal(f"sqlite:///{tmp_path}/bot.sqlite", private=False)
    try:
        store = Store(f"sqlite:///{tmp_path}/other.sqlite")
        bad_key = Service(ForumClient(rehearsal.url, "modbot", "wrong"), store, [rehearsal.setup])
        with pytest.raises(CredentialsRejected, match="key is invalid"):
            bad_key.start()
        import dataclasses
        missing = dataclasses.replace(rehearsal.setup, topic_id=999)
        no_topic = Service(ForumClient(rehearsal.url, "modbot", rehearsal.server.api_key),
                           store, [missing])
        with pytest.raises(ConfigurationError, match="topic 999 not found"):
            no_topic.start()
        store.close()
    finally:
        rehearsal.stop()


def test_the_topic_closes_at_night_and_reopens_at_dawn(tmp_path):
    from modbot.app.running.service import Settings
    settings = Settings(bot_username="modbot", vote_count_minutes=240, settle_seconds=0,
                        close_topic_at_night=True)
    rehearsal = play_demo(f"sqlite:///{tmp_path}/bot.sqlite", settings=settings)
    try:
        topic = rehearsal.server.forum.topics[rehearsal.setup.topic_id]
        actions = [p.action_code for p in topic.posts if p.post_type == 3]
        assert actions == ["closed.enabled", "closed.disabled", "closed.enabled",
                           "closed.disabled"]
        assert not topic.closed  # day 2 has begun
    finally:
        rehearsal.stop()


def test_names_cannot_inject_markdown_bbcode_or_mentions():
    from modbot.app.posting.views import md
    assert md("Zone_Q11") == "Zone\\_Q11"
    assert md("@everyone") == "&#64;everyone"
    assert md("[b]x[/b]") == "&#91;b&#93;x&#91;/b&#93;"
    assert md("<script>*x*") == "&lt;script&gt;\\*x\\*"
    assert md("a:smile:") == "a&#58;smile&#58;"


def test_a_read_429_is_honoured_by_waiting(played, monkeypatch):
    import time as clock
    service = played.service
    service.intake.last_sweep = day_end(played.setup) + timedelta(hours=1)
    requests.post(played.url + "/_sandbox/faults.json", timeout=5, json={
        "path": "/latest.json", "method": "GET", "kind": "429", "count": 1, "wait_seconds": 30,
        "username": "modbot"})
    now = [clock.monotonic()]
    monkeypatch.setattr(clock, "monotonic", lambda: now[0])
    at = day_end(played.setup) + timedelta(hours=2)
    service.identities.last_check = at  # the names' check (one request) is not due either
    first = service.cycle(at)
    assert first.deferred and first.requests == 1
    second = service.cycle(at)  # within Retry-After (31 s): no request at all
    assert second.requests == 0 and "Retry-After" in second.deferred[0]
    now[0] += 32
    third = service.cycle(at)
    assert third.requests == 2 and not third.deferred


def test_a_write_429_makes_everything_wait(tmp_path, monkeypatch):
    import time as clock
    rehearsal, _script = demo_rehearsal(f"sqlite:///{tmp_path}/bot.sqlite", private=False)
    try:
        rehearsal.start_bot()
        requests.post(rehearsal.url + "/_sandbox/faults.json", timeout=5, json={
            "path": "/posts", "method": "POST", "kind": "429", "count": 1,
            "wait_seconds": 20, "username": "modbot"})
        now = [clock.monotonic()]
        monkeypatch.setattr(clock, "monotonic", lambda: now[0])
        start = rehearsal.setup.first_night_starts + timedelta(hours=25)  # three posts owed
        rehearsal.clock.set(start)
        first = rehearsal.service.cycle(start)
        assert first.sent == 0 and len(rehearsal.store.pending()) == 4  # the STs' first note, the index
        assert rehearsal.service.cycle(start).requests == 0  # reads wait too
        assert rehearsal.service.drain() == 0
        now[0] += 22
        wall = rehearsal.service.outbox.wall
        rehearsal.service.outbox.wall = lambda: wall() + 22  # the row's own deferral
        assert rehearsal.service.drain() == 4
    finally:
        rehearsal.stop()
