"""Rehearsal clocks: a start time and a speed factor, for the daemon and the sandbox."""

from datetime import datetime, timedelta, timezone

from modbot.app.daemon import RehearsalClock
from modbot.sandbox.forum import Forum
from modbot.sandbox.models import Clock, ManualClock

START = datetime(2026, 12, 1, 17, 55, tzinfo=timezone.utc)


def test_rehearsal_clocks_run_from_start_at_speed(monkeypatch):
    import time
    now = [1000.0]
    monkeypatch.setattr(time, "monotonic", lambda: now[0])
    for clock in (RehearsalClock(START, 60), Clock(START, 60)):
        assert clock.now() == START
        now[0] += 10  # ten real seconds
        assert clock.now() == START + timedelta(minutes=10)
        now[0] -= 10


def test_without_a_start_the_clocks_tell_real_utc_time():
    for clock in (RehearsalClock(), Clock()):
        assert abs(clock.now() - datetime.now(timezone.utc)) < timedelta(seconds=5)


def test_manual_clock_never_goes_back_and_stamps_new_posts():
    clock = ManualClock(START)
    clock.set(START + timedelta(hours=2))
    clock.set(START)
    assert clock.now() == START + timedelta(hours=2)
    forum = Forum(clock, limits=False)
    forum.add_user("host", moderator=True)
    post = forum.create(forum.user("host"), {"title": "A game thread for the clock",
                                             "raw": "Welcome to the game, everyone.",
                                             "category": 1})
    assert post.created_at == START + timedelta(hours=2)
