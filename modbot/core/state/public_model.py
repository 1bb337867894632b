"""Theory of operation: the state of the public abilities used in the thread, as frozen values.

The public abilities (characters/public_abilities.py: the Klutz, Moonchild, Psychopath,
Juggler, Damsel), the Boomdandy's pointing vote (characters/boomdandy.py) and the Fiddler's
vote (characters/fabled.py) keep their state here, beside the rest of `GameState`'s parts.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, slots=True)
class PublicAbilityUsed:
    player: str
    ability: str  # klutz | moonchild | psychopath | juggler | damsel
    target: str
    character: str | None  # a guess's character id (the Moonchild: the target's alignment)
    day: int
    post_number: int | None
    at: datetime


@dataclass(frozen=True, slots=True)
class PublicLedger:
    uses: tuple[PublicAbilityUsed, ...] = ()

    def used(self, player: str, ability: str, day: int | None = None) -> int:
        return sum(1 for u in self.uses if u.player == player and u.ability == ability
                   and (day is None or u.day == day))


@dataclass(frozen=True, slots=True)
class Countdown:
    survivors: tuple[str, ...]
    ends_at: datetime
    points: tuple[tuple[str, str], ...] = ()  # (player, target), the latest per player


@dataclass(frozen=True, slots=True)
class FiddleVote:
    players: tuple[str, str]
    ends_at: datetime
    votes: tuple[tuple[str, str], ...] = ()  # (voter, target), the latest per voter
