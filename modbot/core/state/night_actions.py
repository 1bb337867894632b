"""Theory of operation: what a player's private message asks for at night, as values.

The night grammar (reading/night_forms.py) reads a player's PM into these actions and the
night's rules (night/choices.py, characters/helpers.py) decide them: `/choose` (players, a
character, or both; with `if CHARACTER`, a contingency for a character the player may gain
tonight), `/pass`, `/action TEXT` for an ability the Storytellers judge, and a
choice made for another's ability (`/swap`, `/babysit`, `/fiddle`: `Help`). `HELPED` says,
for each such verb, whose step it is, which team may use it and how many players it takes.
"""

from __future__ import annotations

from dataclasses import dataclass

from .ids import BARBER, FIDDLER, LIL_MONSTA

HELPED = {"swap": (BARBER, "demon", 2), "babysit": (LIL_MONSTA, "minion", 1),
          "fiddle": (FIDDLER, "demon", 1)}


@dataclass(frozen=True, slots=True)
class Choose:
    players: tuple[str, ...] = ()
    character: str | None = None  # an id
    if_becomes: str | None = None  # a contingency: the character id this choice is for


@dataclass(frozen=True, slots=True)
class Pass:
    pass


@dataclass(frozen=True, slots=True)
class FreeAction:
    text: str


@dataclass(frozen=True, slots=True)
class Help:
    """A choice for another's ability: `verb` is one of `HELPED`."""

    verb: str
    players: tuple[str, ...]

    @property
    def step(self) -> str:
        return HELPED[self.verb][0]


NightAction = Choose | Pass | FreeAction | Help

__all__ = ["HELPED", "Choose", "FreeAction", "Help", "NightAction", "Pass"]
