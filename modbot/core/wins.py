"""Theory of operation: noticing that the game is over, for the Storytellers to confirm.

`detect(state, day_ended)` checks the win conditions of seed 001 on the grimoire: good wins
when every Demon is dead; evil wins when only two players live (travellers not counted); if
both hold, good wins (a tie goes to good). A working Vortox adds one: a day that ended without
an execution is an evil win. The engine records a `WinDetected` once per reason; the bot then
asks the Storytellers to confirm with `!win`, and only that announces the winner publicly.
Other routes to victory (the Damsel guessed, the Klutz, the Fearmonger...) are the
Storytellers' to call with `!win` until they are modelled.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from . import events as _events
from .grimoire import is_malfunctioning, players_of_team, true_character
from .model import GameState


@dataclass(frozen=True, slots=True)
class WinDetected:
    winner: str  # good | evil
    reason: str
    at: datetime


def detect(state: GameState, day_ended: bool = False) -> tuple[str, str] | None:
    if not state.dealt or state.winner is not None or state.setup.script is None:
        return None
    residents = [s for s in state.seats if not s.traveller]
    if not any(true_character(state, s.name) for s in residents):
        return None
    demons = players_of_team(state, "demon")
    living = sum(1 for s in residents if s.alive)
    if not demons:
        return "good", "every Demon is dead"
    if living <= 2:
        return "evil", "only two players live"
    if day_ended and _no_execution_under_vortox(state, demons):
        return "evil", "no one was executed today, and the Vortox is in play"
    return None


def _no_execution_under_vortox(state: GameState, demons: list[str]) -> bool:
    day = state.past_days[-1] if state.past_days else None
    working = [d for d in demons if true_character(state, d).id == "vortox"
               and not is_malfunctioning(state, d)]
    return bool(working) and day is not None and day.executed is None


def check(state: GameState, at: datetime, day_ended: bool = False) -> tuple:
    """The WinDetected event owed now, if any (each reason once)."""
    found = detect(state, day_ended)
    if found is None or found in state.wins_detected:
        return ()
    return (WinDetected(found[0], found[1], at),)


def _win_detected(state: GameState, e: WinDetected) -> GameState:
    return replace(state, wins_detected=state.wins_detected + ((e.winner, e.reason),))


_events._APPLIERS[WinDetected] = _win_detected

__all__ = ["WinDetected", "check", "detect"]
