"""Theory of operation: the clock hand that stalls, one reminder to the player it waits on.

The hand of an open nomination waits on one seat from the moment the seat before it locked
(or, for the first seat, from the nomination). When that wait reaches the game file's
`hand_nudge_hours` (default 6; 0 turns reminders off), a timed rule (`FEATURE.timers`, in the
engine's one table) emits `HandNudged`: the player gets one PM saying so and how to vote. The
day remembers whom it nudged on which nomination (`DayState.nudged`), so each (nomination,
player) is reminded at most once, and a restart's fold remembers it too. A player away
(`/away`, away.py) is reminded at their return, if the hand still waits on them. The vote count shows
the same moment ("waiting since").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from ..state.events import Event
from ..state.feature import Feature, Notice, Timer, to_player
from ..state.memo import last_answer
from ..state.model import EXILE, GameState, Nomination, NominationKind
from .away import AWAY, after_return


@dataclass(frozen=True, slots=True)
class HandNudged:
    """The clock hand has waited on `player` for the game's `hand_nudge_hours`."""

    day: int
    kind: NominationKind
    nominee: str
    player: str
    since: datetime  # when the hand reached the player
    at: datetime


def waiting_since(nomination: Nomination) -> datetime:
    """When the hand reached the seat it points at."""
    return nomination.locked[-1].locked_at if nomination.locked else nomination.at


def _token(kind: str, nominee: str, player: str) -> str:
    return f"{kind}:{nominee}:{player}"


def _waiting(state: GameState) -> list[tuple[datetime, Nomination, str]]:
    """(when due, nomination, player) for each hand not yet nudged, earliest first."""
    hours = state.setup.hand_nudge_hours
    day = state.today
    if not hours or day is None:
        return []
    out = [(after_return(state, n.hand, waiting_since(n) + timedelta(hours=hours)), n, n.hand)
           for n in day.open_nominations()
           if n.hand is not None and _token(n.kind, n.nominee, n.hand) not in day.nudged]
    return sorted(out, key=lambda item: item[0])


@last_answer(lambda state: (state.setup, state.today, AWAY.of(state)))  # asked after every post
def due(state: GameState) -> datetime | None:
    """The earliest moment a reminder not yet sent becomes due (None: none waits)."""
    waiting = _waiting(state)
    return waiting[0][0] if waiting else None


def fire(state: GameState, at: datetime) -> list[HandNudged]:
    day = state.current_day
    return [HandNudged(day.number, n.kind, n.nominee, player, waiting_since(n), at)
            for when, n, player in _waiting(state) if when <= at]


def _nudged(state: GameState, event: HandNudged) -> GameState:
    day = state.current_day
    token = _token(event.kind, event.nominee, event.player)
    return state.evolve(today=replace(day, nudged=(*day.nudged, token)))


def _notice(_state: GameState, event: HandNudged, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    key = f"nudge:{event.day}:{event.kind}:{event.nominee}:{event.player}"
    return (to_player(event.player, "hand_nudge", key, nominee=event.nominee,
                      since=event.since, exile=event.kind == EXILE),)


FEATURE = Feature(
    "the clock hand's reminder",
    appliers={HandNudged: _nudged},
    timers=(Timer("a stalled clock hand's reminder", due, fire),),
    notices={HandNudged: _notice},
)
