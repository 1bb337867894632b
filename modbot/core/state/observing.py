"""Theory of operation: who watches the grimoire, the observers' own part of the game's state.

`!observer NAME` (core/observers.py) adds a forum user who sees the grimoire; the names are
the `OBSERVERS` slot, here on the ground floor because rules below the observers' own (a
`!sub` that must refuse an observer, deciding/staff.py) ask `is_observer`.
"""

from __future__ import annotations

from .model import GameState
from .slots import Slot

OBSERVERS: Slot[tuple[str, ...]] = Slot("observers", ())  # forum users who watch the grimoire


def observers_of(state: GameState) -> tuple[str, ...]:
    return OBSERVERS.of(state)


def is_observer(state: GameState, name: str) -> bool:
    """`name` watches the grimoire (`!observer`): never a player here."""
    return name.casefold() in (o.casefold() for o in OBSERVERS.of(state))


__all__ = ["OBSERVERS", "is_observer", "observers_of"]
