"""Theory of operation: what a player's private message asks for at night, as values.

The night grammar (reading/night_forms.py) reads a player's PM into these actions and the
night's rules (night/choices.py, characters/helpers.py) decide them: `/choose` (players, a
character, or both; with `if CHARACTER`, a contingency for a character the player may gain
tonight), `/pass`, `/action TEXT` for an ability the Storytellers judge, and a
choice made for another's ability (`/swap`, `/babysit`, `/fiddle`: `Help`, one of
`HELP_VERBS`; characters/helpers.py says whose step each is, which team may use it and how
many players it takes).
"""

from __future__ import annotations

from dataclasses import dataclass

HELP_VERBS = ("swap", "babysit", "fiddle")  # a choice made for another's ability


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
    """A choice for another's ability: `verb` is one of `HELP_VERBS`."""

    verb: str
    players: tuple[str, ...]


NightAction = Choose | Pass | FreeAction | Help

__all__ = ["HELP_VERBS", "Choose", "FreeAction", "Help", "NightAction", "Pass"]
