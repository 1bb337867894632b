"""Rehearsal clocks: a start time and a speed factor, for the daemon and the sandbox."""

from datetime import UTC, datetime, timedelta

from modbot.app.running.daemon import RehearsalClock
from modbot.sandbox.forum import Forum
from modbot.sandbox.models import Clock, ManualClock

START = datetime(2026, 12, 1, 17, 55, tzinfo=UTC)


def test_rehearsal_clocks_run_from_start_at_speed(monkeypatch):
    import time
    now = [1000.0]
    monkeypatch.setattr(time, "monotonic", lambda: now[0])
    monkeypatch.setattr(time, "time", lambda: now[0])
    for clock in (RehearsalClock(START, 60), Clock(START, 60)):
        assert clock.now() == START
        now[0] += 10  # ten real seconds
        assert clock.now() == START + timedelta(minutes=10)
        now[0] -= 10


def test_without_a_start_the_clocks_tell_real_utc_time():
    for clock in (RehearsalClock(), Clock()):
        assert abs(clock.now() - datetime.now(UTC)) < timedelta(seconds=5)


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


def test_a_restarted_daemon_continues_the_rehearsal_clock(monkeypatch, tmp_path):
    """The anchor (when game time was `start`) is kept in the database: a restart an hour
    later continues game time instead of rewinding it to `start`."""
    import time

    from modbot.adapters.store import Store
    from modbot.app.running.daemon import Config, clock_for
    now = [50_000.0]
    monkeypatch.setattr(time, "time", lambda: now[0])
    config = Config("http://127.0.0.1:9", "modbot", "k", [], rehearsal_start=START,
                    rehearsal_speed=60, database_url=f"sqlite:///{tmp_path}/bot.sqlite")
    store = Store(config.database_url)
    try:
        assert clock_for(config, None, store).now() == START
        now[0] += 60  # the daemon stops; a real minute later it starts again
        assert clock_for(config, None, store).now() == START + timedelta(hours=1)
    finally:
        store.close()


def test_in_a_rehearsal_the_bot_reads_the_forums_clock():
    """One clock: the daemon's ForumClock is the sandbox's own (`/_sandbox/clock.json`), read
    outside the key's request budget (issue 37: a 2-second poll spent the key's minute on it)."""
    from modbot.adapters.forum import ForumClient
    from modbot.app.running.daemon import ForumClock
    from modbot.sandbox.server import SandboxServer
    forum = Forum(ManualClock(START + timedelta(hours=5)), limits=False)
    forum.add_user("modbot", moderator=True)
    server = SandboxServer(0, api_key="k", forum=forum).start()
    try:
        client = ForumClient(server.url, "modbot", "k")
        client.budget.per_minute = 1
        client.current_user()  # the minute's one request
        for _ in range(5):  # the clock read is no forum request: the budget never refuses it
            assert ForumClock(client).now() == START + timedelta(hours=5)
        assert client.budget.spent == 1 and client.budget.refused == 0
    finally:
        server.stop()
