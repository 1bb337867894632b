"""Theory of operation: the game's state as frozen values.

`GameSetup` (game_setup.py) is what the game file says and never changes during play (profile,
schedule, storytellers, seat order). `GameState` is everything that does: each seat's life and vote
token, the current phase and its deadline, today's `DayState` and the finished days.

A `Nomination` (also used for exile calls, `kind="exile"`) carries its clock order, the votes
cast but not yet locked, and the locked votes in clock order; the clock hand is simply
`order[len(locked)]`. States are replaced, never mutated (`dataclasses.replace`), so any old
state can be kept, compared or replayed against.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from datetime import datetime
from enum import StrEnum
from operator import attrgetter
from typing import Any

from ..wording import Say
from .actions import NO, YES, VoteValue
from .game_setup import GameSetup, GrimoireEntry, Phase, PhaseLengths, Profile, Seat
from .night_model import NightState, WhisperLedger


class NominationKind(StrEnum):
    """What a nomination is for (stored as its value: "execution", "exile")."""

    EXECUTION = "execution"
    EXILE = "exile"  # a call for a traveller's exile


EXECUTION, EXILE = NominationKind.EXECUTION, NominationKind.EXILE


def iso(at: datetime | None) -> str | None:
    """A time as the forum writes it (UTC with Z), or None."""
    return None if at is None else at.isoformat().replace("+00:00", "Z")


@dataclass(frozen=True, slots=True)
class CastVote:
    value: VoteValue
    post_number: int | None
    at: datetime


@dataclass(frozen=True, slots=True)
class LockedVote:
    player: str
    vote: VoteValue  # the value that counts
    cast: VoteValue | None  # what the player had cast (None: nothing, counted as pardon)
    post_number: int | None  # the post that cast it
    locked_at: datetime
    ghost_vote_spent: bool = False
    note: Say | None = None  # why the counted vote differs from the cast one
    weight: int = 1  # what a yes counts: the Bureaucrat's player 3, the Thief's -1
    needs: str | None = None  # the Butler's master: this yes counts once theirs locks yes


@dataclass(frozen=True, slots=True)
class Nomination:
    kind: NominationKind
    nominator: str
    nominee: str
    post_number: int | None
    at: datetime
    order: tuple[str, ...]
    locked: tuple[LockedVote, ...] = ()
    cast: dict[str, CastVote] = field(default_factory=dict)  # copied on write, never mutated
    closed_at: datetime | None = None
    living_at_close: int | None = None
    threshold_at_close: int | None = None
    by_butcher: bool = False  # the Butcher's second nomination: resolved on its own
    judged: str | None = None  # the Judge forced it: "pass" or "fail", whatever the votes

    @property
    def closed_threshold(self) -> int:
        """The threshold it closed with (a closed nomination always has one)."""
        if self.threshold_at_close is None:
            raise ValueError(f"the nomination of {self.nominee} has not closed")
        return self.threshold_at_close

    @property
    def is_open(self) -> bool:
        return self.closed_at is None

    @property
    def hand(self) -> str | None:
        """The seat the clock hand points at (the next to lock), None when all locked."""
        return self.order[len(self.locked)] if len(self.locked) < len(self.order) else None

    @property
    def yes(self) -> int:
        """The locked execute votes, each as its weight; a Butler's yes only once its master's
        vote on this nomination locked yes."""
        agreed = {v.player for v in self.locked if v.vote == YES}
        return sum(v.weight for v in self.locked
                   if v.vote == YES and (v.needs is None or v.needs in agreed))

    def waiting_on(self, master: str) -> int:
        """The Butlers' locked yes votes that wait on `master`'s vote, as their weights."""
        return sum(v.weight for v in self.locked if v.vote == YES and v.needs == master)

    def is_locked(self, player: str) -> bool:
        return self.order.index(player) < len(self.locked)

    def unlocked(self) -> tuple[str, ...]:
        return self.order[len(self.locked):]


@dataclass(frozen=True, slots=True)
class WhisperRequest:
    requester: str
    with_: tuple[str, ...]
    post_number: int | None
    at: datetime
    accepted: frozenset[str] = frozenset()
    declined: frozenset[str] = frozenset()
    active_since: int | None = None  # the post that first accepted it
    active_at: datetime | None = None  # and its time
    broken_by: str | None = None  # who posted publicly afterwards
    broken_at: datetime | None = None

    def is_pending_for(self, player: str) -> bool:
        return player in self.with_ and player not in self.accepted | self.declined

    @property
    def is_active(self) -> bool:
        return bool(self.accepted) and self.broken_by is None

    def was_active_at(self, at: datetime) -> bool:
        return self.active_at is not None and self.active_at <= at and \
            (self.broken_at is None or at < self.broken_at)

    @property
    def members(self) -> frozenset[str]:
        return self.accepted | {self.requester}


@dataclass(frozen=True, slots=True)
class Death:
    player: str
    cause: str
    at: datetime


@dataclass(frozen=True, slots=True)
class DayState:
    number: int
    started_at: datetime
    nominations: tuple[Nomination, ...] = ()
    exiles: tuple[Nomination, ...] = ()
    skipped: tuple[str, ...] = ()
    whispers: tuple[WhisperRequest, ...] = ()
    consults: tuple[str, ...] = ()
    deaths: tuple[Death, ...] = ()
    ghost_votes_spent: tuple[str, ...] = ()
    ended_at: datetime | None = None
    executed: str | None = None
    living_at_end: int | None = None
    nudged: tuple[str, ...] = ()  # "kind:nominee:player": hands reminded (deciding/hand_nudge.py)

    @property
    def executed_and_died(self) -> str | None:
        """The executed player, if the execution killed them (seed 000, Undertaker: "or the
        execution does not cause a death (in which case the Undertaker learns nothing)"): a
        Devil's Advocate's save is an execution, not a death."""
        died = any(d.player == self.executed and d.cause == "execution" for d in self.deaths)
        return self.executed if died else None

    def nomination_of(self, nominee: str, kind: NominationKind = EXECUTION) -> Nomination | None:
        pool = self.nominations if kind == EXECUTION else self.exiles
        for nomination in pool:
            if nomination.nominee == nominee:
                return nomination
        return None

    def named_nomination(self, nominee: str, kind: NominationKind = EXECUTION) -> Nomination:
        """The nomination an event or a rule names (it was decided on it, so it exists)."""
        found = self.nomination_of(nominee, kind)
        if found is None:
            raise ValueError(f"no {kind} nomination of {nominee} today")
        return found

    def has_nominated(self, player: str) -> bool:
        return any(n.nominator == player for n in self.nominations)

    def open_nominations(self) -> tuple[Nomination, ...]:
        return tuple(n for n in self.nominations + self.exiles if n.is_open)

    def replace_nomination(self, new: Nomination) -> DayState:
        if new.kind == EXECUTION:
            return replace(self, nominations=_swap(self.nominations, new))
        return replace(self, exiles=_swap(self.exiles, new))


def _swap(pool: tuple[Nomination, ...], new: Nomination) -> tuple[Nomination, ...]:
    return tuple(new if n.nominee == new.nominee else n for n in pool)


@dataclass(frozen=True, slots=True)
class GrimoireChange:
    player: str
    field: str
    before: Any
    after: Any
    at: datetime | None  # the event's moment (None for an event without one)
    cycle: int  # the night or day it happened in
    night: bool  # at night (else by day)
    cause: str  # the event's type name
    by_storytellers: bool  # a Storyteller's command (else the game's rules)
    why: Say | None = None  # an ability's effect: who or what caused it (`by.*`)


@dataclass(frozen=True, slots=True)
class GameState:
    setup: GameSetup
    seats: tuple[Seat, ...]
    phase: Phase
    cycle: int  # the number of the current (or last) night/day; 0 in pregame
    phase_ends_at: datetime
    today: DayState | None = None
    past_days: tuple[DayState, ...] = ()
    # ConfirmationRequested events awaiting an ST's !confirm (staff_events.py imports this module)
    pending: tuple[Any, ...] = ()
    paused_at: datetime | None = None  # the clock is stopped (deadlines wait) since then
    night_held: bool = False  # the day's end looks like a win: no night until the STs decide
    grimoire: tuple[tuple[str, GrimoireEntry], ...] = ()  # (player, entry), private
    winner: str | None = None  # "good" or "evil" once the Storyteller ended the game
    winner_reason: str = ""
    dealt: bool = False  # characters were sent to the players
    night: NightState | None = None  # the current (or last unresolved) night
    past_nights: tuple[NightState, ...] = ()  # resolved NightStates
    ledger: WhisperLedger | None = None  # None until the first whisper PM
    bluffs: tuple[str, ...] = ()  # character ids the Demon learns (private)
    # (grimoire, bluffs) drawn by !setup propose
    proposed_setup: tuple[tuple[tuple[str, GrimoireEntry], ...], Any] | None = None
    deaths_log: tuple[tuple[str, str, datetime], ...] = ()  # (player, cause, at) for every death, day or night
    # the grimoire as it was when the characters were dealt
    dealt_grimoire: tuple[tuple[str, GrimoireEntry], ...] = ()
    dealt_bluffs: tuple[str, ...] = ()
    # the sealed grimoire's canonical text, frozen as the characters are dealt (registry.py):
    # the reveal publishes exactly this, so a rename or a `!sub` since never changes the hash
    sealed: str = ""
    grimoire_log: tuple[GrimoireChange, ...] = ()  # GrimoireChange values since the deal (record.py)
    revealed: bool = False  # the grimoire reveal was posted (reveal.py)
    substitutions: tuple[tuple[str, str, datetime], ...] = ()  # (old, new, at): who gave a seat to whom, when (`!sub`)
    # each feature's own state, by its slot's name (state/slots.py): (name, frozen value)
    slots: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def from_setup(cls, setup: GameSetup) -> GameState:
        return cls(setup, setup.seats, Phase.PREGAME, 0, setup.first_night_starts,
                   grimoire=setup.grimoire, bluffs=setup.bluffs)

    def evolve(self, **changes: Any) -> GameState:
        """The state with these fields changed: `dataclasses.replace`, in half the time (the
        engine evolves a state at least once a post, and a state has some forty fields)."""
        values = list(_STATE_VALUES(self))
        for name, value in changes.items():
            values[_STATE_INDEX[name]] = value
        return GameState(*values)

    def grimoire_of(self, player: str) -> GrimoireEntry:
        return dict(self.grimoire).get(player, GrimoireEntry())

    @property
    def current_day(self) -> DayState:
        """Today, where the phase guarantees a day (the appliers of a day's events)."""
        if self.today is None:
            raise ValueError("there is no day under way")
        return self.today

    def with_entry(self, player: str, **changes: Any) -> GameState:
        """The state with these fields of `player`'s grimoire entry changed (the entry moves
        to the end of the grimoire, as the latest written)."""
        entry = replace(self.grimoire_of(player), **changes)
        others = tuple((p, g) for p, g in self.grimoire if p != player)
        return self.evolve(grimoire=(*others, (player, entry)))

    @property
    def days(self) -> tuple[DayState, ...]:
        """Every day so far: the finished ones, then today's."""
        return (*self.past_days, *((self.today,) if self.today is not None else ()))

    def whisper_day(self) -> DayState | None:
        """The day whose whispers hold now: today, or at night the day just ended."""
        return self.today or (self.past_days[-1] if self.past_days else None)

    def seat(self, name: str) -> Seat:
        return self.seats[self.setup.seat_index[name]]

    def with_seat(self, new: Seat) -> GameState:
        index = self.setup.seat_index[new.name]
        return self.evolve(seats=(*self.seats[:index], new, *self.seats[index + 1:]))

    def is_seated(self, name: str) -> bool:
        return name in self.setup.seat_index

    @property
    def phase_said(self) -> Say:
        """The phase, to be written in a message ("day 1 nomination")."""
        if self.phase is Phase.PREGAME:
            return Say("phase.pregame")
        return Say(f"phase.{self.phase.value}", (("n", self.cycle),))

    @property
    def phase_label(self) -> str:
        """The phase as data (the report's `phase`), not words for people."""
        if self.phase is Phase.PREGAME:
            return "pregame"
        if self.phase is Phase.NIGHT:
            return f"night {self.cycle}"
        return f"day {self.cycle} {self.phase.value}"

    def open_nominees(self) -> tuple[str, ...]:
        if self.today is None:
            return ()
        return tuple(n.nominee for n in self.today.open_nominations())


_STATE_INDEX = {f.name: i for i, f in enumerate(fields(GameState))}
_STATE_VALUES = attrgetter(*_STATE_INDEX)

__all__ = [
    "EXECUTION", "EXILE", "NO", "YES", "CastVote", "DayState", "Death", "GameSetup",
    "GameState", "GrimoireChange", "GrimoireEntry", "LockedVote", "Nomination", "Phase", "PhaseLengths", "Profile", "Seat",
    "WhisperRequest",
]
