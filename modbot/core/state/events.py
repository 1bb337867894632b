"""Theory of operation: what happened, in the past tense, and how each fact changes the state.

`rules` and `engine.advance` produce events; `registry.apply(state, event)` is the only function
that builds a new state from an old one, so the state is always the fold of its events. Each
event carries the forum time (`at`) it happened at and, where a post caused it, the post number.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, ClassVar, Protocol

from .actions import VoteValue
from .feature import Feature, unchanged
from .model import (
    EXECUTION,
    CastVote,
    DayState,
    Death,
    GameState,
    LockedVote,
    Nomination,
    NominationKind,
    Phase,
    WhisperRequest,
)


@dataclass(frozen=True, slots=True)
class PhaseChanged:
    phase: Phase
    cycle: int
    at: datetime
    ends_at: datetime


@dataclass(frozen=True, slots=True)
class DayEnded:
    day: int
    at: datetime
    executed: str | None
    living: int


@dataclass(frozen=True, slots=True)
class NightHeld:
    """The day ended as the game looks over: no night begins (nothing is announced) until the
    Storytellers decide: `!win` ends the game, `!phase next` begins night `night`."""

    night: int
    winner: str  # good | evil: who would win
    at: datetime


@dataclass(frozen=True, slots=True)
class Executed:
    player: str
    votes: int
    at: datetime


@dataclass(frozen=True, slots=True)
class ExecutionCalled:
    """A rule executes a player at once (the Virgin's Townsfolk nominator): the day ends with
    that execution (the engine's day end, as a Storyteller's `!execute`)."""

    player: str
    why: str  # the character whose ability calls it (its id)
    at: datetime


@dataclass(frozen=True, slots=True)
class PlayerDied:
    player: str
    cause: str  # execution | exile | storyteller | ...
    at: datetime


@dataclass(frozen=True, slots=True)
class Nominated:
    kind: NominationKind  # EXECUTION, or EXILE for an exile call
    nominator: str
    nominee: str
    post_number: int | None
    at: datetime
    order: tuple[str, ...]
    by_butcher: bool = False  # the Butcher's nomination after nominations closed


@dataclass(frozen=True, slots=True)
class VoteCast:
    kind: NominationKind
    nominee: str
    voter: str
    value: VoteValue
    post_number: int | None
    at: datetime


@dataclass(frozen=True, slots=True)
class VoteWithdrawn:
    kind: NominationKind
    nominee: str
    voter: str
    post_number: int | None
    at: datetime


@dataclass(frozen=True, slots=True)
class VoteLocked:
    kind: NominationKind
    nominee: str
    vote: LockedVote

    @property
    def at(self) -> datetime:
        return self.vote.locked_at


@dataclass(frozen=True, slots=True)
class NominationClosed:
    kind: NominationKind
    nominee: str
    at: datetime
    votes: int
    living: int
    threshold: int


@dataclass(frozen=True, slots=True)
class Exiled:
    player: str
    votes: int
    at: datetime


@dataclass(frozen=True, slots=True)
class NominationSkipped:
    player: str
    post_number: int | None
    at: datetime


@dataclass(frozen=True, slots=True)
class WhisperRequested:
    requester: str
    with_: tuple[str, ...]
    post_number: int | None
    at: datetime


@dataclass(frozen=True, slots=True)
class WhisperAnswered:
    player: str
    requester: str
    accepted: bool
    post_number: int | None
    at: datetime


@dataclass(frozen=True, slots=True)
class WhisperBroken:
    """A whisper ended: one of its players posted publicly after it was accepted."""

    requester: str
    request_post: int | None
    members: tuple[str, ...]
    by: str
    post_number: int | None
    at: datetime


@dataclass(frozen=True, slots=True)
class WhisperLimitExceeded:
    """A player declared more whispers today than the game allows (flagged to the STs)."""

    player: str
    count: int
    limit: int
    post_number: int | None
    at: datetime


@dataclass(frozen=True, slots=True)
class StorytellerConsultRequested:
    player: str
    post_number: int | None
    at: datetime


@dataclass(frozen=True, slots=True)
class UsualFormSuggested:
    """A player's post counted in a form that is not the usual one (a "!vote", which is the
    Storytellers' form): they are told the usual one."""

    player: str
    post_number: int | None
    form: str  # bang_vote
    at: datetime


class Event(Protocol):
    """Any event of any feature: a frozen value that names the forum time it happened at.
    The registry's `APPLIERS` has an applier for each event class; every one is a dataclass."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    @property
    def at(self) -> datetime: ...


def _today(state: GameState, day: DayState) -> GameState:
    return state.evolve(today=day)


def _phase_changed(state: GameState, e: PhaseChanged) -> GameState:
    today = DayState(e.cycle, e.at) if e.phase is Phase.DISCUSSION else state.today
    return state.evolve(phase=e.phase, cycle=e.cycle, phase_ends_at=e.ends_at, today=today,
                        night_held=False)


def _night_held(state: GameState, e: NightHeld) -> GameState:
    return state.evolve(phase=Phase.NIGHT, cycle=e.night, night_held=True)


def _day_ended(state: GameState, e: DayEnded) -> GameState:
    day = replace(state.current_day, ended_at=e.at, executed=e.executed, living_at_end=e.living)
    return state.evolve(today=None, past_days=(*state.past_days, day))


def _executed(state: GameState, e: Executed) -> GameState:
    return _today(state, replace(state.current_day, executed=e.player))


def _player_died(state: GameState, e: PlayerDied) -> GameState:
    state = state.with_seat(replace(state.seat(e.player), alive=False))
    state = state.evolve(deaths_log=(*state.deaths_log, (e.player, e.cause, e.at)))
    if state.today is None:
        return state
    return _today(state, replace(state.current_day, deaths=(*state.current_day.deaths,
                                                      Death(e.player, e.cause, e.at))))


def _nominated(state: GameState, e: Nominated) -> GameState:
    nomination = Nomination(e.kind, e.nominator, e.nominee, e.post_number, e.at, e.order,
                            by_butcher=e.by_butcher)
    day = state.current_day
    if e.kind == EXECUTION:
        return _today(state, replace(day, nominations=(*day.nominations, nomination)))
    return _today(state, replace(day, exiles=(*day.exiles, nomination)))


def _vote_cast(state: GameState, e: VoteCast) -> GameState:
    n = state.current_day.named_nomination(e.nominee, e.kind)
    cast = {**n.cast, e.voter: CastVote(e.value, e.post_number, e.at)}
    return _today(state, state.current_day.replace_nomination(replace(n, cast=cast)))


def _vote_withdrawn(state: GameState, e: VoteWithdrawn) -> GameState:
    n = state.current_day.named_nomination(e.nominee, e.kind)
    cast = {voter: v for voter, v in n.cast.items() if voter != e.voter}
    return _today(state, state.current_day.replace_nomination(replace(n, cast=cast)))


def _vote_locked(state: GameState, e: VoteLocked) -> GameState:
    n = state.current_day.named_nomination(e.nominee, e.kind)
    vote = e.vote
    cast = {voter: v for voter, v in n.cast.items() if voter != vote.player}
    day = state.current_day.replace_nomination(replace(n, locked=(*n.locked, vote), cast=cast))
    if vote.ghost_vote_spent:
        state = state.with_seat(replace(state.seat(vote.player), ghost_vote=False))
        day = replace(day, ghost_votes_spent=(*day.ghost_votes_spent, vote.player))
    return _today(state, day)


def _nomination_closed(state: GameState, e: NominationClosed) -> GameState:
    n = replace(
        state.current_day.named_nomination(e.nominee, e.kind),
        closed_at=e.at, living_at_close=e.living, threshold_at_close=e.threshold,
    )
    return _today(state, state.current_day.replace_nomination(n))


def _nomination_skipped(state: GameState, e: NominationSkipped) -> GameState:
    return _today(state, replace(state.current_day, skipped=(*state.current_day.skipped, e.player)))


def _whisper_requested(state: GameState, e: WhisperRequested) -> GameState:
    request = WhisperRequest(e.requester, e.with_, e.post_number, e.at)
    return _today(state, replace(state.current_day, whispers=(*state.current_day.whispers, request)))


def _whisper_answered(state: GameState, e: WhisperAnswered) -> GameState:
    whispers = list(state.current_day.whispers)
    for index in range(len(whispers) - 1, -1, -1):
        request = whispers[index]
        if request.requester == e.requester and request.is_pending_for(e.player):
            if e.accepted:
                since = request.active_since if request.active_since else e.post_number
                whispers[index] = replace(request, accepted=request.accepted | {e.player},
                                          active_since=since,
                                          active_at=request.active_at or e.at)
            else:
                whispers[index] = replace(request, declined=request.declined | {e.player})
            break
    return _today(state, replace(state.current_day, whispers=tuple(whispers)))


def _whisper_broken(state: GameState, e: WhisperBroken) -> GameState:
    """In today's whispers, or at night in those of the day just ended."""
    day = state.whisper_day()
    if day is None:  # a whisper broken before the first day: none was ever declared
        return state
    whispers = tuple(
        replace(w, broken_by=e.by, broken_at=e.at)
        if w.requester == e.requester and w.post_number == e.request_post else w
        for w in day.whispers)
    if state.today is not None:
        return _today(state, replace(day, whispers=whispers))
    return state.evolve(past_days=(*state.past_days[:-1], replace(day, whispers=whispers)))


def _consult_requested(state: GameState, e: StorytellerConsultRequested) -> GameState:
    return _today(state, replace(state.current_day, consults=(*state.current_day.consults, e.player)))


FEATURE = Feature("votes and whispers: events", appliers={
    PhaseChanged: _phase_changed,
    NightHeld: _night_held,
    DayEnded: _day_ended,
    Executed: _executed,
    PlayerDied: _player_died,
    Nominated: _nominated,
    VoteCast: _vote_cast,
    VoteWithdrawn: _vote_withdrawn,
    VoteLocked: _vote_locked,
    NominationClosed: _nomination_closed,
    Exiled: unchanged,  # the death that follows (PlayerDied) carries the change
    ExecutionCalled: unchanged,  # the engine ends the day with it (engine.py)
    NominationSkipped: _nomination_skipped,
    WhisperRequested: _whisper_requested,
    WhisperAnswered: _whisper_answered,
    StorytellerConsultRequested: _consult_requested,
    WhisperBroken: _whisper_broken,
    WhisperLimitExceeded: unchanged,
    UsualFormSuggested: unchanged,
})
