"""Theory of operation: the forum's names change; the game follows.

The shell knows every forum user by id (app/games/identities.py) and tells the core two things:
`handle_rename` (the user called OLD is now called NEW: the seat or Storyteller follows, and
OLD stays an alias of a seat, so votes naming either count) and `handle_name_taken` (a user
who is none of the game's now goes by NAME: where NAME is an alias of a seat, the current
holder of the name wins and the alias lapses, so `/vote NAME` no longer names the seat).
"""

from __future__ import annotations

from datetime import datetime

from .engine import Outcome
from .registry import apply
from .state.model import GameState
from .state.staff_events import AliasLapsed, UserRenamed


def handle_rename(state: GameState, old: str, new: str, at: datetime) -> Outcome:
    """The forum user called `old` renamed themself `new`. Nothing else changes."""
    if old == new:
        return Outcome(state, ())
    event = UserRenamed(old, new, at)
    return Outcome(apply(state, event), (event,))


def handle_name_taken(state: GameState, name: str, at: datetime) -> Outcome:
    """A forum user who is none of the game's goes by `name` now."""
    seat = next((s for s in state.setup.seats
                 if any(a.lower() == name.lower() for a in s.aliases)), None)
    if seat is None or state.setup.is_storyteller(name) or state.is_seated(name):
        return Outcome(state, ())
    alias = next(a for a in seat.aliases if a.lower() == name.lower())
    event = AliasLapsed(alias, seat.name, at)
    return Outcome(apply(state, event), (event,))
