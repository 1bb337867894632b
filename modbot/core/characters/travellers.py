"""Theory of operation: travellers' abilities that change the day's rules (seed 001).

The Deviant: "If you were funny today, you cannot be exiled." Being funny is the
Storytellers' judgement: `!funny PLAYER` records it for today (`funny_day` in the grimoire),
and an exile vote that passes against a working, funny Deviant does not exile them; the thread
is told why (a traveller's character is public).

The Butcher: "Each day, after nominations have closed, you may make another nomination that
resolves alongside the main execution." In the voting window a living Butcher may `/nominate`
once more (rules.butcher_may_nominate); that nomination is voted like any other but stays out
of the race for the main execution: at the day's end its nominee is executed too if more than
half the living voted for it (unless the Butcher malfunctions), and the thread is told. While
the Butcher may still nominate, the day does not end early.
`FEATURE` hands its command and events to the registry.
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
from ..state.feature import Feature, Notice, to_thread, unchanged
from ..state.grimoire import is_malfunctioning, true_character
from ..state.model import GameState, iso
from ..state.rejection import Rejection
from ..wording import say


@dataclass(frozen=True, slots=True)
class StFunny:
    player: str


@dataclass(frozen=True, slots=True)
class DeviantWasFunny:
    player: str
    day: int
    at: datetime


@dataclass(frozen=True, slots=True)
class ExileRefused:
    """An exile vote passed against a funny Deviant: they are not exiled."""

    player: str
    votes: int
    at: datetime


@dataclass(frozen=True, slots=True)
class ButcherResolved:
    nominee: str
    votes: int
    executed: bool
    at: datetime


def butcher_malfunctions(state: GameState, butcher: str) -> bool:
    return is_malfunctioning(state, butcher)


def cannot_be_exiled(state: GameState, player: str) -> bool:
    character = true_character(state, player)
    return (character is not None and character.id == "deviant"
            and state.grimoire_of(player).funny_day == state.cycle
            and not is_malfunctioning(state, player))


def _funny(state: GameState, action: StFunny, ctx: Context) -> Sequence[Event] | Rejection:
    character = true_character(state, action.player)
    if character is None or character.id != "deviant":
        return reject(ctx, "not_deviant", player=action.player)
    if not state.phase.is_day:
        return reject(ctx, "funny_by_day", phase=state.phase_said)
    return (DeviantWasFunny(action.player, state.cycle, ctx.at),)


def _was_funny(state: GameState, e: DeviantWasFunny) -> GameState:
    return state.with_entry(e.player, funny_day=e.day)


def _told_refused(_state: GameState, event: ExileRefused, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    return (to_thread("deviant", f"exile-refused:{event.player}:{iso(event.at)}",
                      player=event.player, votes=event.votes),)


def _told_butcher(_state: GameState, event: ButcherResolved, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    return (to_thread("butcher", f"butcher:{event.nominee}:{iso(event.at)}",
                      nominee=event.nominee, votes=event.votes, executed=event.executed),)


FEATURE = Feature(
    "travellers",
    appliers={DeviantWasFunny: _was_funny, ExileRefused: unchanged, ButcherResolved: unchanged},
    staff_rules={StFunny: _funny},
    commands=(Command("funny", "!funny PLAYER", say("help.funny"), "!funny Gus",
                      lambda words, roster: StFunny(_one_name(words, roster))),),
    command_of={StFunny: "funny"},
    notices={ExileRefused: _told_refused, ButcherResolved: _told_butcher},
)

__all__ = ["ButcherResolved", "DeviantWasFunny", "ExileRefused", "butcher_malfunctions",
           "cannot_be_exiled"]
