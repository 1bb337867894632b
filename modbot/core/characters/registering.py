"""Theory of operation: the Storytellers' kept registrations (`!registers`).

`!registers PLAYER as CHARACTER|good|evil [to CHARACTER]` keeps the Storytellers' answer to
what a player registers as (state/registration.py): to one ability (`to CHARACTER`, the
ability's character) or to every ability; a new answer for the same ability replaces the old.
`!registers PLAYER clear` forgets them all. Each is a `GrimoireChanged` of the player's
`registers_as` (so `!undo`, the log and the audit see it as any grimoire change), answered
privately like the rest of the grimoire. The night sheet's rows are built from it: an ability
whose every "might register" player has a kept answer gets a sure answer, no longer a proposal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..deciding.rules import reject
from ..reading.command_forms import Command
from ..reading.commands import _name
from ..state.actions import Context
from ..state.events import Event
from ..state.feature import Feature
from ..state.model import GameState
from ..state.names import Roster
from ..state.registration import ALIGNMENTS, CLEAR, kept_entry, kept_parts
from ..state.rejection import Refused, Rejection
from ..state.staff_events import GrimoireChanged
from ..wording import say


@dataclass(frozen=True, slots=True)
class StRegisters:
    """`!registers PLAYER as WHAT [to ABILITY]`, or `clear` (`what` None)."""

    player: str
    what: str | None
    ability: str | None = None


def _parse(words: list[str], roster: Roster) -> StRegisters:
    player, rest = _name(words, roster)
    if [w.lower() for w in rest] == [CLEAR]:
        return StRegisters(player, None)
    if len(rest) < 2 or rest[0].lower() != "as" or rest[-1].lower() == "to":
        raise Refused("registers_form")
    what, to, ability = " ".join(rest[1:]).partition(" to ")
    if not what.strip() or (to and not ability.strip()):
        raise Refused("registers_form")
    return StRegisters(player, what.strip(), ability.strip() or None)


def _character_id(state: GameState, name: str) -> str | None:
    script = state.setup.script
    found = script.find(name) if script is not None else None
    return found.id if found is not None and found.team != "fabled" else None


def _registers(state: GameState, action: StRegisters, ctx: Context) -> Sequence[Event] | Rejection:
    if not state.is_seated(action.player):
        return reject(ctx, "unknown_player", text=action.player)
    if action.what is None:
        return (GrimoireChanged(action.player, "registers_as", (), ctx.at),)
    what = action.what.casefold() if action.what.casefold() in ALIGNMENTS else \
        _character_id(state, action.what)
    if what is None:
        return reject(ctx, "unknown_character_st", text=action.what)
    ability = _character_id(state, action.ability) if action.ability else None
    if action.ability and ability is None:
        return reject(ctx, "unknown_character_st", text=action.ability)
    others = tuple(e for e in state.grimoire_of(action.player).registers_as
                   if kept_parts(e)[1] != (ability or ""))
    return (GrimoireChanged(action.player, "registers_as",
                            (*others, kept_entry(what, ability)), ctx.at),)


FEATURE = Feature(
    "registrations",
    staff_rules={StRegisters: _registers},
    commands=(Command("registers", "!registers PLAYER as CHARACTER|good|evil [to CHARACTER]",
                      say("help.registers"), "!registers Ellen as imp to fortune teller",
                      _parse),),
    command_of={StRegisters: "registers"},
)

__all__ = ["FEATURE", "StRegisters"]
