"""Theory of operation: the Demon's bluffs, set by the Storytellers.

`!bluffs A, B, C` sets the characters every Demon learns as not in play (the game file's
`bluffs`). With several evil teams (seed 002) each team's Demon learns its own:
`!bluffs DEMON: A, B, C` (a seat's `bluffs` in the game file), kept in that Demon's grimoire
entry; Demon characters may be shown to several teams, any other only to one (checked by
`!setup`, setup.py). Names are checked against the script: a bluff is not in play, and good
unless the script has several evil teams. `FEATURE` hands the command to the registry.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from ..deciding.rules import reject
from ..reading.command_forms import Command
from ..reading.commands import _one_name
from ..state.actions import Context
from ..state.events import Event
from ..state.feature import Feature
from ..state.model import GameState
from ..state.names import Roster
from ..state.rejection import Refused, Rejection
from ..wording import say


@dataclass(frozen=True, slots=True)
class StBluffs:
    characters: tuple[str, ...]
    demon: str | None = None  # one Demon's own bluffs (several evil teams)


@dataclass(frozen=True, slots=True)
class BluffsSet:
    characters: tuple[str, ...]
    at: datetime
    demon: str | None = None


def _words(words: list[str], roster: Roster) -> StBluffs:
    text, demon = " ".join(words), None
    if ":" in text:  # !bluffs Ellen: Sage, Oracle, Mutant
        who, text = text.split(":", 1)
        demon = _one_name(who.split(), roster)
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise Refused("bluffs_list")
    return StBluffs(tuple(names), demon)


def _rule(state: GameState, action: StBluffs, ctx: Context) -> Sequence[Event] | Rejection:
    script, ids = state.setup.script, []
    if script is None:
        return reject(ctx, "no_script")
    demon = script.get(state.grimoire_of(action.demon).character or "") if action.demon else None
    if action.demon is not None and (demon is None or demon.team != "demon"):
        return reject(ctx, "not_a_demon", player=action.demon)
    in_play = {state.grimoire_of(s.name).character for s in state.seats}
    for name in action.characters:
        found = script.find(name)
        if found is None:
            return reject(ctx, "unknown_character_st", text=name)
        if found.id in in_play:
            return reject(ctx, "bluff_in_play", name=found.name)
        if not found.is_good and not script.terms.evil_teams:  # seed 002: any character
            return reject(ctx, "not_a_good_character", name=found.name)
        ids.append(found.id)
    return (BluffsSet(tuple(ids), ctx.at, action.demon),)


def _applied(state: GameState, e: BluffsSet) -> GameState:
    if e.demon is None:
        return state.evolve(bluffs=e.characters)
    return state.with_entry(e.demon, bluffs=e.characters)


FEATURE = Feature(
    "bluffs",
    appliers={BluffsSet: _applied},
    staff_rules={StBluffs: _rule},
    commands=(Command("bluffs", "!bluffs [DEMON:] A, B, C", say("help.bluffs"),
                      "!bluffs Sage, Oracle, Mutant", _words),),
    command_of={StBluffs: "bluffs"},
)

__all__ = ["BluffsSet", "StBluffs"]
