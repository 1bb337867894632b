"""Injected 429s, 500s, timeouts and dropped connections delay the bot but lose and duplicate
nothing: the thread ends exactly as in an undisturbed run."""

import re
import time
from datetime import datetime, timedelta

import pytest
import requests

from modbot.adapters.store_models import OutboxRow
from modbot.app.reading.intake import Wake
from modbot.app.running.service import Settings
from modbot.cli.rehearsal import day_end, demo_rehearsal
from modbot.core.state.model import Phase

from .test_e2e import MARKER, markers, play_demo

pytestmark = pytest.mark.slow  # the bot against the sandbox over HTTP (or a daemon process)

INDEX_MARKER = "<!-- modbot:g1:index -->"
FAULTS = [
    {"path": "/posts", "method": "POST", "kind": "timeout", "count": 2, "delay": 1.0},
    {"path": "/posts", "method": "POST", "kind": "drop", "count": 2},
    {"path": "/posts", "method": "POST", "kind": "429", "count": 2, "wait_seconds": 0},
    {"path": "/posts", "method": "POST", "kind": "500", "count": 2},
    {"path": "/latest.json", "method": "GET", "kind": "500", "count": 2},
    {"path": "/latest.json", "method": "GET", "kind": "drop", "count": 1},
    {"path": "/private-posts.json", "method": "GET", "kind": "timeout", "count": 1, "delay": 1.0},
    {"path": "/t/", "method": "GET", "kind": "429", "count": 2, "wait_seconds": 0},
]


def normalised(rehearsal) -> list[str]:
    """Markers, with each reply to a rejected post named by that post's author and text: the
    players' post numbers depend on how the bot's (delayed) posts interleave with theirs."""
    topic = rehearsal.server.forum.topics[rehearsal.setup.topic_id]
    by_number = {p.post_number: p for p in topic.posts}
    out = []
    for key in markers(rehearsal):
        if ":rejected:" in key:
            post = by_number[int(key.rsplit(":", 1)[1])]
            key = f"rejected:{post.username}:{post.raw}"
        elif ":whisper-broken:" in key:  # g1:whisper-broken:REQUESTER:POST:MEMBER
            parts = key.split(":")
            key = ":".join(parts[:3] + parts[4:])
        out.append(key)
    return sorted(out)


def public_markers(rehearsal) -> list[str]:
    return [m for p in rehearsal.thread() for m in MARKER.findall(p["raw"])]


def bot_posts(rehearsal) -> list[str]:
    """The bot's thread posts, in order, with post numbers left out (the players' numbers
    depend on when the bot's own posts went out); the thread index by its marker alone: its
    text is as of its last revision, at most one every `vote_count_minutes` of the bot's own
    cycles (thread_index.py), which faults move."""
    return [INDEX_MARKER if INDEX_MARKER in p["raw"] else re.sub(r"(/t/\d+/|post #)\d+", r"\1N", p["raw"])
            for p in rehearsal.thread() if p["username"] == "modbot"]


def sent_posts(rehearsal) -> int:
    """The outbox's sent rows but the thread index's revisions (their number depends on the
    cycles' timing, see `bot_posts`) and the edits of countdowns (no posts of their own)."""
    return rehearsal.store.outbox_counts().get("sent", 0) - OutboxRow.select().where(
        ((OutboxRow.kind == "revise") | OutboxRow.key.contains(":ended:"))
        & (OutboxRow.status == "sent")).count()


def _inject(url: str, faults) -> None:
    for fault in faults:  # the bot's requests only: the scripted players post undisturbed
        requests.post(url + "/_sandbox/faults.json", json={**fault, "username": "modbot"},
                      timeout=5).raise_for_status()


def _faulted_bot(tmp_path):
    """The demo's thread side with the bot started, for faults: (rehearsal, script)."""
    settings = Settings(bot_username="modbot", vote_count_minutes=240, settle_seconds=0,
                        max_backoff=1)  # the 60 s default would only make these tests slower
    rehearsal, script = demo_rehearsal(f"sqlite:///{tmp_path}/bot.sqlite", private=False,
                                       timeout=0.5, settings=settings)
    # The admin budget off (the posts' own limits stay on): the retries run at one frozen
    # forum instant, where a per-minute budget would never refill as a real minute does; the
    # budget is tested in test_sandbox.py and measured by benchmarks/forum.py.
    rehearsal.server.limiter.per_minute = 0
    rehearsal.start_bot()
    rehearsal.service.client.budget.per_minute = 0  # the bot's own budget likewise
    return rehearsal, script


def test_faults_delay_but_lose_and_duplicate_nothing(tmp_path):
    reference = play_demo(f"sqlite:///{tmp_path}/reference.sqlite")
    expected = markers(reference)
    expected_normalised = normalised(reference)
    expected_public = public_markers(reference)
    reference.stop()

    rehearsal, script = _faulted_bot(tmp_path)
    try:
        start = rehearsal.setup.first_night_starts
        rehearsal.clock.set(start)
        rehearsal.service.cycle(start)
        for index, item in enumerate(script):
            if index % 7 == 0:
                _inject(rehearsal.url, FAULTS)
            at = datetime.fromisoformat(item["created_at"])
            rehearsal.clock.set(at)
            rehearsal.post(item["username"], item["raw"], item["created_at"])
            rehearsal.service.cycle(at)
        finish = day_end(rehearsal.setup) + timedelta(hours=1)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # until a cycle reads everything and owes nothing
            time.sleep(0.2)
            report = rehearsal.service.cycle(finish)
            if not report.deferred and not rehearsal.store.pending():
                break
        assert sent_posts(rehearsal) == len(expected) and not rehearsal.store.pending()
        got = markers(rehearsal)
        assert len(got) == len(set(got)), "a post was made twice"
        assert normalised(rehearsal) == expected_normalised
        assert public_markers(rehearsal) == expected_public  # thread order preserved
    finally:
        rehearsal.stop()


THREAD_READ_FAULT = {"path": "/t/", "method": "GET", "kind": "500", "count": 1}


def test_a_day_whose_thread_reads_fail_ends_as_the_undisturbed_one(tmp_path):
    """Game time moves only as far as the bot has read (app/reading/watermark.py). Each player post
    wakes a cycle that reads only the game thread (as the MessageBus does), and every other
    one of those reads fails; between two posts a PM-only wake-up reads the inbox, half-way to
    the next post. Ticking that cycle to its own time would pass the clock hand's moves and the
    deadline over votes not read yet (held as "late", counted as no vote); with the watermark
    the clock waits for the thread, and the day ends exactly as the undisturbed one."""
    reference = play_demo(f"sqlite:///{tmp_path}/reference.sqlite")
    expected_normalised = normalised(reference)
    expected_public = public_markers(reference)
    expected_posts = bot_posts(reference)
    reference.stop()

    rehearsal, script = _faulted_bot(tmp_path)
    service = rehearsal.service
    topic = rehearsal.setup.topic_id
    try:
        start = rehearsal.setup.first_night_starts
        rehearsal.clock.set(start)
        service.cycle(start)
        failed = 0
        times = [datetime.fromisoformat(item["created_at"]) for item in script]
        for index, item in enumerate(script):
            at = times[index]
            rehearsal.clock.set(at)
            if not item.get("tick"):
                rehearsal.post(item["username"], item["raw"], item["created_at"])
            if index % 3 != 2:
                _inject(rehearsal.url, [THREAD_READ_FAULT])
            report = service.cycle(at, Wake(frozenset({topic}), False))
            failed += bool(report.deferred)
            if index + 1 < len(times):
                middle = at + (times[index + 1] - at) / 2
                rehearsal.clock.set(middle)
                service.cycle(middle, Wake(frozenset(), True))  # a PM was announced
        assert failed >= 2 * len(script) // 3 - 1  # the faults were met
        finish = day_end(rehearsal.setup) + timedelta(hours=1)
        rehearsal.clock.set(finish)
        service.cycle(finish)
        for _ in range(20):
            if not rehearsal.store.pending():
                break
            service.drain()
        assert normalised(rehearsal) == expected_normalised  # no vote late, none lost
        assert public_markers(rehearsal) == expected_public
        assert bot_posts(rehearsal) == expected_posts  # the same counts, the same execution
    finally:
        rehearsal.stop()


PM_READ_FAULT = {"path": "/private-posts.json", "method": "GET", "kind": "500", "count": 1}


def test_a_woken_cycle_with_a_deadline_due_reads_the_inbox_before_the_clock_moves(tmp_path):
    """A cycle the MessageBus woke for the thread alone reads the inbox too when a deadline is
    due (its PMs may be before it); if that read fails, the deadline waits (watermark.py)."""
    rehearsal, _ = demo_rehearsal(f"sqlite:///{tmp_path}/bot.sqlite", private=False)
    rehearsal.start_bot()
    service = rehearsal.service
    topic = rehearsal.setup.topic_id
    try:
        start = rehearsal.setup.first_night_starts
        rehearsal.clock.set(start)
        service.cycle(start)
        game = service.games[topic]
        assert game.state.phase is Phase.NIGHT
        dawn = start + timedelta(hours=25)  # night 1 lasts 24 hours
        rehearsal.clock.set(dawn)
        _inject(rehearsal.url, [PM_READ_FAULT])
        assert service.cycle(dawn, Wake(frozenset({topic}), False)).deferred  # the inbox failed
        assert game.state.phase is Phase.NIGHT  # so the night's end waits
        service.cycle(dawn, Wake(frozenset({topic}), False))
        assert game.state.phase is Phase.DISCUSSION
    finally:
        rehearsal.stop()
