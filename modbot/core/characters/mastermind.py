"""Theory of operation: the Mastermind's extra day (Bad Moon Rising).

"If the Demon dies by execution (ending the game), play for 1 more day. If a player is then
executed, their team loses." When a day ends with the last Demon executed and dead, and a
sober and healthy Mastermind lives, the good win wins.py would detect is not: the next day is
the Mastermind's (`MastermindDayCalled`, kept in `MASTERMIND`; the Storytellers are told). When
that day ends, the team of the player executed on it loses (`verdict`); a day that ends without
an execution is proposed as evil's win (the official text names only an execution; the
Storytellers confirm every win with `!win`, or call another). Until then no other win is
detected but two living players. wins.py asks `extra_day` and `verdict`; `called` gives the
event the first time the condition holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from ..state.events import Event
from ..state.feature import Feature, Notice, to_storytellers
from ..state.grimoire import alignment_of, true_character, working_holders
from ..state.model import GameState, iso
from ..state.slots import Slot
from ..wording import Say, say

MASTERMIND: Slot[int | None] = Slot("mastermind_day", None)  # the extra day's number


@dataclass(frozen=True, slots=True)
class MastermindDayCalled:
    """The Demon was executed while a working Mastermind lived: day `day` is the last."""

    day: int
    at: datetime


def _executed_demon_with_mastermind(state: GameState) -> bool:
    day = state.past_days[-1] if state.past_days else None
    executed = day.executed_and_died if day is not None else None
    demon = true_character(state, executed) if executed else None
    return demon is not None and demon.team == "demon" and bool(working_holders(state, "mastermind"))


def extra_day(state: GameState) -> int | None:
    """The Mastermind's extra day: kept, or the one the day just ended calls for."""
    kept = MASTERMIND.of(state)
    if kept is not None:
        return kept
    if state.today is None and _executed_demon_with_mastermind(state):
        return state.past_days[-1].number + 1
    return None


def called(state: GameState, at: datetime) -> tuple[MastermindDayCalled, ...]:
    """The event that keeps the extra day, the first time the Demon's execution calls it."""
    if MASTERMIND.of(state) is not None or (day := extra_day(state)) is None:
        return ()
    return (MastermindDayCalled(day, at),)


def verdict(state: GameState, day: int) -> tuple[str, Say] | None:
    """Who wins once the extra day ended (None: it has not)."""
    last = state.past_days[-1] if state.past_days else None
    if last is None or last.number != day or state.today is not None:
        return None
    if last.executed is None:
        return "evil", say("win.mastermind_no_execution")
    team = alignment_of(state, last.executed) or "good"
    return ("evil" if team == "good" else "good"), say("win.mastermind", player=last.executed)


def keep_day(state: GameState, e: MastermindDayCalled) -> GameState:
    return MASTERMIND.put(state, e.day)


def _told(_state: GameState, event: MastermindDayCalled, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    return (to_storytellers("st_note", f"mastermind:{event.day}:{iso(event.at)}",
                            text=say("st.mastermind", day=event.day)),)


FEATURE = Feature("mastermind", appliers={MastermindDayCalled: keep_day},
                  notices={MastermindDayCalled: _told}, slots=(MASTERMIND,))

__all__ = ["MASTERMIND", "MastermindDayCalled", "called", "extra_day", "keep_day", "verdict"]
