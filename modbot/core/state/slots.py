"""Theory of operation: a feature's own part of the game's state.

A feature whose rules remember something between events (the Boomdandy's countdown, the
Fiddler's vote, the Hell's Librarian's silence, ...) declares a `Slot`: a name and an empty
value of the feature's own frozen type. The game's state keeps every slot that holds
something in one field, `GameState.slots` (pairs of name and value), so a feature adds no
field to the state: `SLOT.of(state)` reads its value (the empty one when unset) and
`SLOT.put(state, value)` returns the state with it changed. A slot's value is folded from
events like the rest of the state and pickled with it in snapshots; the events that fill it
keep their stored shape. The registry checks that no two features declare one name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar, cast

from .model import GameState

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Slot(Generic[T]):
    name: str
    empty: T

    def of(self, state: GameState) -> T:
        for name, value in state.slots:
            if name == self.name:
                return cast(T, value)
        return self.empty

    def put(self, state: GameState, value: T) -> GameState:
        """`state` with this slot holding `value` (the empty value frees the slot)."""
        kept = tuple(pair for pair in state.slots if pair[0] != self.name)
        return state.evolve(slots=kept if value == self.empty else (*kept, (self.name, value)))


__all__ = ["Slot"]
