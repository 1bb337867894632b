"""A User API key's day (app/bus_watch.py): the bus's polls are held back to back while a game
is busy, a minute apart after a quiet one otherwise."""

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

from modbot.app.bus_watch import IDLE_GAP, user_key_pace

NOW = datetime(2026, 12, 3, 12, tzinfo=UTC)


def _game(deadline_in: timedelta, last_post_ago: timedelta | None):
    return SimpleNamespace(state=SimpleNamespace(phase_ends_at=NOW + deadline_in),
                           clock_at=NOW - last_post_ago if last_post_ago is not None else None)


def test_a_busy_game_keeps_the_poll_held_and_a_quiet_one_spaces_it():
    assert user_key_pace([_game(timedelta(hours=1), None)], NOW) == 0  # a deadline near
    assert user_key_pace([_game(timedelta(hours=9), timedelta(minutes=5))], NOW) == 0  # posting
    quiet = _game(timedelta(hours=9), timedelta(hours=3))
    assert user_key_pace([quiet], NOW) == IDLE_GAP
    assert user_key_pace([quiet, _game(timedelta(minutes=30), None)], NOW) == 0
    assert user_key_pace([], NOW) == IDLE_GAP
