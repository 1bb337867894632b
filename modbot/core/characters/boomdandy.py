"""Theory of operation: the Boomdandy's explosion, run as a timed pointing vote in the thread.

"If you are executed, all but 3 players die. After a 10 to 1 countdown, the player with the
most players pointing at them, dies." (seed 000). When a working Boomdandy is executed, the
Storytellers are asked which three live (`!boom A B C`); the others die at once and the
thread is told to point: every player, the dead too (seed 000: "Even dead players who have
no vote token may point"), posts `/point NAME` at one of the three (the latest counts) within
`COUNTDOWN`. When it ends, the one with the most pointing at them dies; on a tie (nobody
pointed, too) nobody dies and the day is over (seed 000: "If it is a tie, the day ends"):
the execution ended it already, so the game goes on as it stands. The win check that
follows decides the game (two players live).
Its state is its own slot (`BOOM`: who exploded, the countdown under way). `FEATURE` hands
its command, rules, events and slot to the registry.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from ..deciding.rules import reject
from ..reading.command_forms import Command
from ..reading.commands import _name
from ..state.actions import Context, Point
from ..state.events import Event, PlayerDied
from ..state.feature import Feature, Notice, Timer, to_storytellers, to_thread
from ..state.grimoire import is_malfunctioning, true_character
from ..state.model import GameState, iso
from ..state.names import Roster
from ..state.public_model import Countdown
from ..state.rejection import Refused, Rejection
from ..state.slots import Slot
from ..wording import say

COUNTDOWN = timedelta(minutes=10)
BOOM_DEATH = "boomdandy"


@dataclass(frozen=True, slots=True)
class Boom:
    """The Boomdandy's part of the game's state."""

    boomed: str | None = None  # the Boomdandy who exploded, until the pointing ends
    countdown: Countdown | None = None  # the pointing vote under way


BOOM = Slot("boomdandy", Boom())



@dataclass(frozen=True, slots=True)
class StBoom:
    survivors: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BoomdandyExploded:
    player: str
    at: datetime


@dataclass(frozen=True, slots=True)
class CountdownStarted:
    survivors: tuple[str, ...]
    ends_at: datetime
    at: datetime


@dataclass(frozen=True, slots=True)
class Pointed:
    player: str
    target: str
    post_number: int | None
    at: datetime


@dataclass(frozen=True, slots=True)
class CountdownEnded:
    victim: str | None  # None: a tie, nobody dies
    counts: tuple[tuple[str, int], ...]
    at: datetime


def exploded(state: GameState, executed: str, at: datetime) -> tuple[Event, ...]:
    character = true_character(state, executed)
    if character is None or character.id != "boomdandy" or is_malfunctioning(state, executed):
        return ()
    return (BoomdandyExploded(executed, at),)


def due(state: GameState) -> datetime | None:
    countdown = BOOM.of(state).countdown
    return countdown.ends_at if countdown is not None else None


def resolve(state: GameState, at: datetime) -> list[Event]:
    counts: dict[str, int] = {}
    countdown = BOOM.of(state).countdown
    for _player, target in (countdown.points if countdown else ()):
        counts[target] = counts.get(target, 0) + 1
    ranked = sorted(counts.items(), key=lambda item: -item[1])
    victim = ranked[0][0] if ranked and (len(ranked) == 1 or ranked[0][1] > ranked[1][1]) \
        else None
    events: list[Event] = [CountdownEnded(victim, tuple(ranked), at)]
    if victim is not None and state.seat(victim).alive:
        events.append(PlayerDied(victim, BOOM_DEATH, at))
    return events


def _boom_words(words: list[str], roster: Roster) -> StBoom:
    names = []
    while words:
        name, words = _name(words, roster)
        names.append(name)
    if len(set(names)) != 3:
        raise Refused("boom_three")
    return StBoom(tuple(names))


def _boom(state: GameState, action: StBoom, ctx: Context) -> Sequence[Event] | Rejection:
    if BOOM.of(state).boomed is None:
        return reject(ctx, "no_boomdandy")
    if BOOM.of(state).countdown is not None:
        return reject(ctx, "boom_twice")
    events = tuple(PlayerDied(s.name, BOOM_DEATH, ctx.at) for s in state.seats
                   if s.alive and not s.traveller and s.name not in action.survivors)
    return (*events, CountdownStarted(action.survivors, ctx.at + state.setup.window(COUNTDOWN),
                                      ctx.at))


def _point(state: GameState, action: Point, ctx: Context) -> Sequence[Event] | Rejection:
    countdown = BOOM.of(state).countdown
    if countdown is None or ctx.at >= countdown.ends_at:
        return reject(ctx, "no_countdown")
    if action.target not in countdown.survivors:  # every player points, the dead too
        return reject(ctx, "not_pointing", players=tuple(countdown.survivors))
    return (Pointed(ctx.author, action.target, ctx.post_number, ctx.at),)


def _exploded(state: GameState, e: BoomdandyExploded) -> GameState:
    return BOOM.put(state, replace(BOOM.of(state), boomed=e.player))


def _started(state: GameState, e: CountdownStarted) -> GameState:
    return BOOM.put(state, replace(BOOM.of(state), countdown=Countdown(e.survivors, e.ends_at)))


def _pointed(state: GameState, e: Pointed) -> GameState:
    countdown = BOOM.of(state).countdown
    if countdown is None:  # a point is decided only while the countdown runs
        raise ValueError("a point with no countdown running")
    points = (*tuple(p for p in countdown.points if p[0] != e.player), (e.player, e.target))
    return BOOM.put(state, replace(BOOM.of(state), countdown=replace(countdown, points=points)))


def _ended(state: GameState, _e: CountdownEnded) -> GameState:
    return BOOM.put(state, Boom())


def _told_exploded(_state: GameState, event: BoomdandyExploded, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    return (to_storytellers("st_note", f"boom:{event.player}",
                            text=say("st.boomdandy", player=event.player)),)


def _told_started(state: GameState, event: CountdownStarted, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    dead = [p for p, cause, at in state.deaths_log if cause == BOOM_DEATH and at == event.at]
    return (to_thread("boom", f"boom-start:{iso(event.at)}", dead=dead,
                      survivors=event.survivors, deadline=event.ends_at, ended=False),)


def _told_ended(_state: GameState, event: CountdownEnded, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    told = [to_thread("boom", f"boom-end:{iso(event.at)}", victim=event.victim,
                      counts=event.counts, ended=True)]
    if event.victim is None:
        told.append(to_storytellers("st_note", f"boom-tie:{iso(event.at)}",
                                    text=say("st.pointing_tie")))
    return tuple(told)


FEATURE = Feature(
    "boomdandy",
    appliers={BoomdandyExploded: _exploded, CountdownStarted: _started, Pointed: _pointed,
              CountdownEnded: _ended},
    rules={Point: _point},
    staff_rules={StBoom: _boom},
    commands=(Command("boom", "!boom A B C", say("help.boom"), "!boom Alex Brianna Cameron",
                      _boom_words),),
    command_of={StBoom: "boom"},
    timers=(Timer("the Boomdandy's countdown ends", due, resolve),),
    notices={BoomdandyExploded: _told_exploded, CountdownStarted: _told_started,
             CountdownEnded: _told_ended},
    slots=(BOOM,),
)

__all__ = ["BOOM_DEATH", "BoomdandyExploded", "CountdownEnded", "CountdownStarted", "Point",
           "Pointed", "due", "exploded", "resolve"]
