"""Theory of operation: players kept active; a count when a player asks for one.

Each seat's last post in the game thread is remembered (`PlayerPosted`, which the engine emits
for every seated author; bookkeeping the shell neither tells nor lists): a post also clears
the seat's prods. Quiet time counts day
phases only (dawn to dusk: a night or a pause in between adds nothing), from the seat's last
post, or from the start of the game for a seat that never posted. When a living seat has been
quiet for the game file's `prod_hours` (default 24; 0 turns prods off; a seat away with
`/away` counts from its return, away.py), a timed rule (in the engine's one table) emits
`PlayerProdded`: one PM to the player. After twice that,
`QuietPlayerReported`: the Storytellers are told, with the next backup who is not seated
proposed for `!sub`. `!prods` lists every living seat by how long it has been quiet.

`/vc` (in the thread, or in the player's own PM) asks for the vote count now: at most one such
count a game every `ASK_GAP` of forum time; sooner, or with no day under way, the player is
answered why not. The shell, which posts every count, also gives none less than `ASK_GAP`
after the last count it posted of any kind (app/posting/reactions.py), and answers each player at
most once between two counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import ClassVar

from ..reading.command_forms import Command
from ..reading.commands import _no_arguments
from ..state.actions import AskForCount, Context
from ..state.events import Event
from ..state.feature import COUNT, THREAD, Feature, Notice, Timer, to_player, to_storytellers, unchanged
from ..state.memo import last_answer
from ..state.model import GameState, iso
from ..state.rejection import Rejection
from ..state.slots import Slot
from ..wording import say
from .away import AWAY, after_return
from .count_facts import count_facts
from .rules import reject

BOOKKEEPING = frozenset({"PlayerPosted"})  # events the shell neither tells nor lists in !log
ASK_GAP = timedelta(minutes=10)  # between two counts players ask for
PRODDED, REPORTED = 1, 2


@dataclass(frozen=True, slots=True)
class Activity:
    """Who posted when, who was prodded, when a count was last asked for."""

    last_posted: tuple[tuple[str, datetime], ...] = ()  # (seat, its last thread post's time)
    prodded: tuple[tuple[str, int], ...] = ()  # (seat, 1: prodded, 2: Storytellers told)
    count_asked_at: datetime | None = None  # the last count a player asked for (/vc)


ACTIVITY = Slot("activity", Activity())


@dataclass(frozen=True, slots=True)
class StProds:
    """`!prods`: who is quiet (its answer is the table itself: no "Done" before it)."""

    answers_itself: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class PlayerPosted:
    """A seat posted in the game thread (bookkeeping: the prods' clock, never told)."""

    player: str
    post_number: int
    at: datetime


@dataclass(frozen=True, slots=True)
class CountAsked:
    player: str
    at: datetime


@dataclass(frozen=True, slots=True)
class PlayerProdded:
    player: str
    since: datetime | None  # the seat's last thread post (None: never posted)
    at: datetime


@dataclass(frozen=True, slots=True)
class QuietPlayerReported:
    player: str
    since: datetime | None
    backup: str | None  # the next backup not seated, proposed for `!sub`
    at: datetime


@dataclass(frozen=True, slots=True)
class ProdsListed:
    quiet: tuple[tuple[str, int, int], ...]  # (seat, whole hours of day quiet, prod level)
    backup: str | None
    at: datetime


# -- reading a post -----------------------------------------------------------------------------

def _posted(state: GameState, event: PlayerPosted) -> GameState:
    """A seat posted in the game thread: its quiet time starts again (applied after every
    post, so the prods' list is rebuilt only when it names the seat)."""
    player, held = event.player, ACTIVITY.of(state)
    last = (*[p for p in held.last_posted if p[0] != player], (player, event.at))
    prodded = held.prodded
    if any(p[0] == player for p in prodded):
        prodded = tuple(p for p in prodded if p[0] != player)
    return ACTIVITY.put(state, replace(held, last_posted=last, prodded=prodded))


# -- quiet time -----------------------------------------------------------------------------------

def last_post(state: GameState, player: str) -> datetime | None:
    return dict(ACTIVITY.of(state).last_posted).get(player)


def day_time_between(state: GameState, since: datetime, until: datetime) -> timedelta:
    """How much of [since, until] fell in day phases (dawn to dusk)."""
    total = timedelta(0)
    for day in (*state.past_days, state.today):
        if day is None:
            continue
        start, end = max(day.started_at, since), min(day.ended_at or until, until)
        if end > start:
            total += end - start
    return total


def _since(state: GameState, player: str) -> datetime:
    """Quiet since the seat's last post, the game's start, or its return from `/away`."""
    return after_return(state, player, last_post(state, player) or state.setup.first_night_starts)


def _level(state: GameState, player: str) -> int:
    return dict(ACTIVITY.of(state).prodded).get(player, 0)


def _due_at(state: GameState, since: datetime, level: int) -> datetime | None:
    """When a seat quiet `since` reaches `level` × `prod_hours` of quiet, if that falls today."""
    day = state.today
    if day is None:
        return None
    if since >= day.started_at:  # quiet since a post today (most seats, most of the time)
        return since + timedelta(hours=state.setup.prod_hours * level)
    start = day.started_at
    before_today = day_time_between(state, since, start)
    remaining = timedelta(hours=state.setup.prod_hours * level) - before_today
    return start + max(remaining, timedelta(0))


def _waiting(state: GameState) -> list[tuple[datetime, str, int]]:
    """(when due, seat, level) of each living seat's next prod, earliest first."""
    out = [(at, player, level) for player, since, level in _quiet(state)
           if (at := _due_at(state, since, level)) is not None]
    return sorted(out)


def _quiet(state: GameState) -> list[tuple[str, datetime, int]]:
    """(seat, quiet since, its next prod's level) of each living seat still to be prodded,
    while prods are on and it is day."""
    if not state.setup.prod_hours or state.today is None:
        return []
    held = ACTIVITY.of(state)
    posted, prodded = dict(held.last_posted), dict(held.prodded)  # once, not once a seat
    out = []
    for seat in state.seats:
        level = prodded.get(seat.name, 0) + 1
        if seat.alive and level <= REPORTED:
            since = posted.get(seat.name) or state.setup.first_night_starts
            out.append((seat.name, after_return(state, seat.name, since) if AWAY.of(state) else since, level))
    return out


def due(state: GameState) -> datetime | None:
    """The earliest prod due: a seat quiet longer is due no later, so for each level only the
    seat quiet longest counts (asked after every post: the seats waiting at each level are
    remembered while no seat dies or is prodded, and one pass over the last posts finds each
    level's longest quiet)."""
    times = [at for level, seats in _waiting_by_level(state)
             if (at := _due_at(state, _longest_quiet(state, seats), level)) is not None]
    return min(times, default=None)


@last_answer(lambda state: (state.setup, state.seats, ACTIVITY.of(state).prodded, state.today is None,
                            AWAY.of(state)))
def _waiting_by_level(state: GameState) -> tuple[tuple[int, frozenset[str]], ...]:
    """(level, the living seats whose next prod is of that level), while prods are on and it is day."""
    levels: dict[int, set[str]] = {}
    for seat, _since, level in _quiet(state):
        levels.setdefault(level, set()).add(seat)
    return tuple((level, frozenset(seats)) for level, seats in levels.items())


def _longest_quiet(state: GameState, seats: frozenset[str]) -> datetime:
    """The earliest 'quiet since' among `seats` (a seat that never posted: the game's start;
    one back from `/away`: its return)."""
    if AWAY.of(state):
        return min(_since(state, seat) for seat in seats)
    posted = [at for player, at in ACTIVITY.of(state).last_posted if player in seats]
    if len(posted) < len(seats):  # a seat that never posted is quiet since the game's start
        posted.append(state.setup.first_night_starts)
    return min(posted)


def next_backup(state: GameState) -> str | None:
    """The first backup who does not hold a seat."""
    return next((b for b in state.setup.backups if not state.is_seated(b)), None)


def fire(state: GameState, at: datetime) -> list[Event]:
    events: list[Event] = []
    for when, player, level in _waiting(state):
        if when > at:
            break
        since = last_post(state, player)
        events.append(PlayerProdded(player, since, at) if level == PRODDED else
                      QuietPlayerReported(player, since, next_backup(state), at))
    return events


def _prodded(state: GameState, player: str, level: int) -> GameState:
    held = ACTIVITY.of(state)
    return ACTIVITY.put(state, replace(held, prodded=(*tuple(p for p in held.prodded if p[0] != player),
                                                      (player, level))))


# -- /vc and !prods -----------------------------------------------------------------------------

def _ask(state: GameState, _action: AskForCount, ctx: Context) -> Sequence[Event] | Rejection:
    if state.today is None:
        return reject(ctx, "vc_no_day")
    last = ACTIVITY.of(state).count_asked_at
    if last is not None and ctx.at - last < ASK_GAP:
        return reject(ctx, "vc_too_soon", at=last, next=last + ASK_GAP)
    return (CountAsked(ctx.author, ctx.at),)


def _prods(state: GameState, _action: StProds, ctx: Context) -> Sequence[Event] | Rejection:
    quiet = sorted(((s.name, int(day_time_between(state, _since(state, s.name), ctx.at)
                                 .total_seconds() // 3600), _level(state, s.name))
                    for s in state.seats if s.alive), key=lambda q: (-q[1], q[0]))
    return (ProdsListed(tuple(quiet), next_backup(state), ctx.at),)


# -- who is told what -----------------------------------------------------------------------------

def _told_asked(state: GameState, event: CountAsked, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    return (Notice(THREAD, "votecount", f"asked:{iso(event.at)}", count=COUNT, at=event.at,
                   view={"count": count_facts(state, at=event.at), "asker": event.player}),)


def _told_prodded(state: GameState, event: PlayerProdded, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    return (to_player(event.player, "prod", f"prod:{event.player}:{iso(event.at)}",
                      hours=state.setup.prod_hours, since=event.since,
                      bot=state.setup.bot_username),)


def _told_reported(state: GameState, event: QuietPlayerReported, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    hours = state.setup.prod_hours * REPORTED
    text = say("st.quiet_backup", player=event.player, hours=hours, backup=event.backup) \
        if event.backup else say("st.quiet", player=event.player, hours=hours)
    return (to_storytellers("st_note", f"quiet:{event.player}:{iso(event.at)}", text=text),)


def _told_listed(state: GameState, event: ProdsListed, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    quiet = [{"player": p, "hours": h, "level": level} for p, h, level in event.quiet]
    return (to_storytellers("st_prods", f"prods:{iso(event.at)}", quiet=quiet,
                            backup=event.backup, hours=state.setup.prod_hours),)


FEATURE = Feature(
    "players kept active",
    appliers={
        PlayerPosted: _posted,
        CountAsked: lambda state, e: ACTIVITY.put(state, replace(ACTIVITY.of(state), count_asked_at=e.at)),
        PlayerProdded: lambda state, e: _prodded(state, e.player, PRODDED),
        QuietPlayerReported: lambda state, e: _prodded(state, e.player, REPORTED),
        ProdsListed: unchanged,
    },
    rules={AskForCount: _ask},
    staff_rules={StProds: _prods},
    commands=(Command("prods", "!prods", say("help.prods"), "!prods", _no_arguments(StProds())),),
    command_of={StProds: "prods"},
    timers=(Timer("a quiet player's prod", due, fire),),
    notices={CountAsked: _told_asked, PlayerProdded: _told_prodded,
             QuietPlayerReported: _told_reported, ProdsListed: _told_listed},
    slots=(ACTIVITY,),
)
