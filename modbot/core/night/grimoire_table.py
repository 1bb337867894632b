"""Theory of operation: the grimoire as the Storytellers read it in `!status`.

One row per seat, in clock order: the character (and the one the player is shown, when it
differs), the alignment, alive or dead with the vote token, what the night sheet calls the
player's status (malfunctioning, mad as X) and the reminders. Private: only the Storytellers'
answer shows it. Names and states are data; the words are the template's.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..state.grimoire import alignment_of, character_names, true_character
from ..state.model import GameState
from ..state.registration import kept_parts
from ..wording import Say, say
from .rows import status_of


@dataclass(frozen=True, slots=True)
class GrimoireRow:
    seat: int  # 1-based, in clock order
    player: str
    character: str | None  # the character's name; None when none is recorded
    shown_as: str | None  # the character the player believes they are, when it differs
    alignment: str | None
    alive: bool
    ghost_vote: bool
    traveller: bool
    status: tuple[Say, ...]  # malfunctioning, mad as X, is really Y (not "dead")
    reminders: tuple[str, ...]


def grimoire_rows(state: GameState) -> tuple[GrimoireRow, ...]:
    names = character_names(state) if state.setup.script else {}
    return tuple(_row(state, index, seat.name, names) for index, seat in enumerate(state.seats, 1))


def _row(state: GameState, index: int, player: str, names: dict[str, str]) -> GrimoireRow:
    entry, seat, real = state.grimoire_of(player), state.seat(player), true_character(state, player)
    real_id = real.id if real else entry.character
    shown = names.get(entry.thinks, entry.thinks) if entry.thinks and entry.thinks != real_id \
        else None
    return GrimoireRow(index, player, real.name if real else entry.character, shown,
                       alignment_of(state, player), seat.alive, seat.ghost_vote, seat.traveller,
                       _status(state, player), entry.reminders)


def _status(state: GameState, player: str) -> tuple[Say, ...]:
    """Poisoned or drunk as recorded, then the sheet's status without "dead" and "is really"
    (the table has columns for both), "malfunctioning" only for another cause (a No Dashii's
    neighbour); without a script, what the Storytellers recorded."""
    entry = state.grimoire_of(player)
    recorded = tuple(say(code) for code, on in
                     (("status.poisoned", entry.poisoned), ("status.drunk", entry.drunk)) if on)
    if state.setup.script is None:
        return recorded + ((say("status.mad_as", character=entry.mad_as),)
                           if entry.mad_as else ())
    skip = {"status.is_really"} | ({"status.malfunctioning"} if recorded else set())
    return recorded + tuple(s for s in status_of(state, player, dead=False) if s.code not in skip) \
        + tuple(_kept_registration(state, kept) for kept in entry.registers_as)


def _kept_registration(state: GameState, kept: str) -> Say:
    """`imp to fortuneteller` as "registers as the Imp to the Fortune Teller" (`!registers`)."""
    names = character_names(state)
    what, ability = kept_parts(kept)
    if not ability:
        return say("status.registers", what=names.get(what, what))
    return say("status.registers_to", what=names.get(what, what), ability=names.get(ability, ability))


__all__ = ["GrimoireRow", "grimoire_rows"]
