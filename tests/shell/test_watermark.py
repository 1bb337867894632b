"""The watermark (app/reading/watermark.py): a game's clock moves only as far as its thread and the
bot's inbox are both read, less the settle time; a rename found outside the reads is placed
at that mark, never before the game's latest input."""

from datetime import UTC, datetime, timedelta

from modbot.app.reading.watermark import Watermark

T = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)
SETTLE = timedelta(seconds=10)


def test_nothing_moves_before_both_the_thread_and_the_inbox_are_read():
    mark = Watermark(SETTLE)
    assert mark.through(7) is None
    mark.thread_read(7, T)
    assert mark.through(7) is None  # the inbox not read yet
    mark.inbox_read(T + timedelta(hours=1))
    assert mark.through(7) == T - SETTLE  # the thread is the older source


def test_a_failed_read_leaves_the_mark_where_the_last_full_read_put_it():
    mark = Watermark(SETTLE)
    mark.thread_read(7, T)
    mark.inbox_read(T)
    mark.inbox_read(T + timedelta(hours=2))  # a PM wake-up read the inbox; the thread failed
    assert mark.through(7) == T - SETTLE
    mark.thread_read(7, T - timedelta(hours=1))  # an older read never moves it back
    assert mark.through(7) == T - SETTLE
    assert mark.through(8) is None  # another game's thread is its own


def test_a_rename_happens_at_the_mark_but_never_before_the_games_latest_input():
    mark = Watermark(SETTLE)
    mark.thread_read(7, T)
    mark.inbox_read(T)
    later = T + timedelta(hours=3)
    assert mark.cap(7, later, None) == T - SETTLE
    assert mark.cap(7, later, T) == T  # the latest input was at T
    assert mark.cap(7, T - timedelta(hours=1), None) == T - timedelta(hours=1)


def test_a_moment_is_due_once_a_read_lets_the_clock_pass_it():
    """A read at `now` ticks a game to `now - settle`, so a moment at T is due (the daemon runs
    a cycle for it) from T + settle: a cycle before that reads for nothing."""
    from modbot.app.reading.intake import Intake

    class Game:
        def next_due(self):
            return T

    class Handler:
        def holds(self, _game):
            return False  # no input of it is quarantined (quarantine.py)

    intake = Intake.__new__(Intake)
    intake.games, intake.watermark = {7: Game()}, Watermark(SETTLE)  # type: ignore[dict-item]
    intake.handler = Handler()  # type: ignore[assignment]
    assert not intake.moment_due([7], T)
    assert not intake.moment_due([7], T + SETTLE - timedelta(seconds=1))
    assert intake.moment_due([7], T + SETTLE)
