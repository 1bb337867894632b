"""Theory of operation: the Pacifist's call, made by the Storytellers before the day ends.

Bad Moon Rising's Pacifist: "executed good players might not die". Whether one does not is the
Storytellers' call, and on a forum it must be made before the execution is announced: during
the day, `!pacifist PLAYER` keeps it (`ExecutionSpared`), as the Devil's Advocate's choice is kept
(the grimoire's `survives_execution_day`): if PLAYER is executed today, they do not die (the
thread is told the execution; nobody is told why they live). The call is refused by night, for
a dead or an evil player (their true alignment: the Pacifist spares good players), and while
no sober and healthy Pacifist lives in the game. A call the Storytellers change their mind
about is undone with `!undo`, as any command. The call is offered to them each day when
nominations open (`_offered`), while a working Pacifist lives.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from ..deciding.rules import reject
from ..reading.command_forms import Command
from ..reading.commands import _name
from ..state.actions import Context
from ..state.events import Event, PhaseChanged
from ..state.feature import Feature, Notice, to_storytellers
from ..state.grimoire import is_evil, working_holders
from ..state.model import GameState, Phase, iso
from ..state.names import Roster
from ..state.rejection import Refused, Rejection
from ..wording import say


@dataclass(frozen=True, slots=True)
class StSpare:
    player: str


@dataclass(frozen=True, slots=True)
class ExecutionSpared:
    """The Storytellers' call for the Pacifist: if `player` is executed on `day`, they live."""

    player: str
    day: int
    by: str
    at: datetime


def working_pacifist(state: GameState) -> str | None:
    """A living, sober and healthy Pacifist, or None."""
    return next(iter(working_holders(state, "pacifist")), None)


def _spare(state: GameState, action: StSpare, ctx: Context) -> Sequence[Event] | Rejection:
    if state.today is None:
        return reject(ctx, "wrong_phase", what="!pacifist", phase=state.phase.value)
    if working_pacifist(state) is None:
        return reject(ctx, "no_pacifist")
    if not state.seat(action.player).alive:
        return reject(ctx, "player_dead", nominee=action.player)
    if is_evil(state, action.player):
        return reject(ctx, "spare_evil", player=action.player)
    return (ExecutionSpared(action.player, state.cycle, ctx.author, ctx.at),)


def _spared(state: GameState, e: ExecutionSpared) -> GameState:
    return state.with_entry(e.player, survives_execution_day=e.day)


def _offered(state: GameState, event: PhaseChanged, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    pacifist = working_pacifist(state) if event.phase is Phase.NOMINATION else None
    if pacifist is None:
        return ()
    return (to_storytellers("st_note", f"pacifist:{event.cycle}:{iso(event.at)}",
                            text=say("st.pacifist", pacifist=pacifist)),)


def _spare_words(words: list[str], roster: Roster) -> StSpare:
    player, rest = _name(words, roster)
    if rest:
        raise Refused("unexpected", text=" ".join(rest))
    return StSpare(player)


FEATURE = Feature(
    "pacifist",
    appliers={ExecutionSpared: _spared},
    staff_rules={StSpare: _spare},
    commands=(Command("pacifist", "!pacifist PLAYER", say("help.pacifist"), "!pacifist Cal",
                      _spare_words),),
    command_of={StSpare: "pacifist"},
    notices={PhaseChanged: _offered},
)

__all__ = ["ExecutionSpared", "StSpare", "working_pacifist"]
