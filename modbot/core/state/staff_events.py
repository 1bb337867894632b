"""Theory of operation: the Storyteller's events, and how each changes the state.

Kept apart from events.py (the game's own events) to keep both small; `FEATURE` hands its
appliers to the registry, whose `apply` folds every event.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields, is_dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from ..state.model import Seat
from ..wording import Say, say
from .actions import VoteValue
from .events import _today
from .feature import Feature, unchanged
from .grimoire import BABYSITTER
from .model import EXECUTION, CastVote, GameState, Phase


@dataclass(frozen=True, slots=True)
class PlayerRevived:
    player: str
    at: datetime


@dataclass(frozen=True, slots=True)
class GhostVoteChanged:
    player: str
    has_token: bool
    at: datetime


@dataclass(frozen=True, slots=True)
class NominationCancelled:
    nominee: str
    tokens_refunded: tuple[str, ...]
    at: datetime


@dataclass(frozen=True, slots=True)
class PhaseExtended:
    """The current phase's deadline moved (to `at` itself: the phase ends now)."""

    phase: Phase
    cycle: int
    ends_at: datetime
    at: datetime


@dataclass(frozen=True, slots=True)
class ClockPaused:
    at: datetime


@dataclass(frozen=True, slots=True)
class ClockResumed:
    shift: timedelta  # every deadline moves by the length of the pause
    at: datetime


BY_ABILITY = "by.ability"  # a Storyteller's mark with its cause (`!drunk X by Y`): Y's ability


@dataclass(frozen=True, slots=True)
class GrimoireChanged:
    player: str
    field: str  # character | alignment | poisoned | drunk | mad_as | reminders
    value: object  # the new value; for reminders, the reminder added
    at: datetime
    why: Say | None = None  # the ability that caused it (`!drunk X by Y`: by.ability)


@dataclass(frozen=True, slots=True)
class GameEnded:
    winner: str
    reason: str
    at: datetime


@dataclass(frozen=True, slots=True)
class VoteCorrected:
    """The Storyteller set a vote's value, locked or not (a correction)."""

    nominee: str
    voter: str
    value: VoteValue
    at: datetime


@dataclass(frozen=True, slots=True)
class VotesUnlocked:
    """Locks from `voter` on (clock order) are undone and those votes must be cast again."""

    nominee: str
    voter: str
    tokens_refunded: tuple[str, ...]
    at: datetime


@dataclass(frozen=True, slots=True)
class VoteCountRequested:
    by: str
    at: datetime


@dataclass(frozen=True, slots=True)
class ConfirmationRequested:
    by: str
    lines: tuple[str, ...]
    actions: tuple[Any, ...]  # the actions of `lines` (read again from them when folded)
    expires_at: datetime
    post_number: int | None
    at: datetime


@dataclass(frozen=True, slots=True)
class ConfirmationSettled:
    by: str
    confirmed: bool
    at: datetime


def _player_revived(state: GameState, e: PlayerRevived) -> GameState:
    return state.with_seat(replace(state.seat(e.player), alive=True))


def _ghost_vote_changed(state: GameState, e: GhostVoteChanged) -> GameState:
    return state.with_seat(replace(state.seat(e.player), ghost_vote=e.has_token))


def _nomination_cancelled(state: GameState, e: NominationCancelled) -> GameState:
    for player in e.tokens_refunded:
        state = state.with_seat(replace(state.seat(player), ghost_vote=True))
    day = state.current_day
    spent = list(day.ghost_votes_spent)
    for player in e.tokens_refunded:
        spent.remove(player)
    day = replace(day, nominations=tuple(n for n in day.nominations if n.nominee != e.nominee),
                  ghost_votes_spent=tuple(spent))
    return _today(state, day)


def _phase_extended(state: GameState, e: PhaseExtended) -> GameState:
    return state.evolve(phase_ends_at=e.ends_at)


def _confirmation_requested(state: GameState, e: ConfirmationRequested) -> GameState:
    others = tuple(p for p in state.pending if p.by != e.by)
    return state.evolve(pending=(*others, e))


def _confirmation_settled(state: GameState, e: ConfirmationSettled) -> GameState:
    return state.evolve(pending=tuple(p for p in state.pending if p.by != e.by))


def _clock_paused(state: GameState, e: ClockPaused) -> GameState:
    return state.evolve(paused_at=e.at)


def _clock_resumed(state: GameState, e: ClockResumed) -> GameState:
    return state.evolve(paused_at=None, phase_ends_at=state.phase_ends_at + e.shift)


def _grimoire_changed(state: GameState, e: GrimoireChanged) -> GameState:
    reminders = state.grimoire_of(e.player).reminders
    if e.field != "reminders":
        return state.with_entry(e.player, **{e.field: e.value})
    if str(e.value).strip().casefold() != BABYSITTER:
        return state.with_entry(e.player, reminders=(*reminders, e.value))
    # Lil' Monsta's token moves to one holder
    state = state.evolve(grimoire=tuple(
        (p, replace(g, reminders=tuple(r for r in g.reminders if r != BABYSITTER)))
        for p, g in state.grimoire))
    kept = tuple(r for r in reminders if r not in (BABYSITTER, e.value))
    return state.with_entry(e.player, reminders=(*kept, BABYSITTER))


def _game_ended(state: GameState, e: GameEnded) -> GameState:
    return state.evolve(winner=e.winner, winner_reason=e.reason)


def _vote_corrected(state: GameState, e: VoteCorrected) -> GameState:
    n = state.current_day.named_nomination(e.nominee, EXECUTION)
    if n.is_locked(e.voter):
        locked = tuple(replace(v, vote=e.value, note=say("note.set_by_st"))
                       if v.player == e.voter else v for v in n.locked)
        return _today(state, state.current_day.replace_nomination(replace(n, locked=locked)))
    cast = {**n.cast, e.voter: CastVote(e.value, None, e.at)}
    return _today(state, state.current_day.replace_nomination(replace(n, cast=cast)))


def _votes_unlocked(state: GameState, e: VotesUnlocked) -> GameState:
    n = state.current_day.named_nomination(e.nominee, EXECUTION)
    keep = n.order.index(e.voter)
    freed = {v.player for v in n.locked[keep:]}
    n = replace(n, locked=n.locked[:keep], closed_at=None, living_at_close=None,
                threshold_at_close=None,
                cast={p: v for p, v in n.cast.items() if p not in freed})
    for player in e.tokens_refunded:
        state = state.with_seat(replace(state.seat(player), ghost_vote=True))
    spent = list(state.current_day.ghost_votes_spent)
    for player in e.tokens_refunded:
        spent.remove(player)
    day = replace(state.current_day.replace_nomination(n), ghost_votes_spent=tuple(spent))
    return _today(state, day)


@dataclass(frozen=True, slots=True)
class AliasAdded:
    alias: str
    player: str
    at: datetime


@dataclass(frozen=True, slots=True)
class SeatsReordered:
    order: tuple[str, ...]
    at: datetime


@dataclass(frozen=True, slots=True)
class PlayerSubstituted:
    """NEW takes OLD's seat: character, votes and history; OLD stays an alias of the seat."""

    old: str
    new: str
    at: datetime


@dataclass(frozen=True, slots=True)
class UserRenamed:
    """The forum user called OLD is now called NEW (the shell knows them by user id): a seat,
    a Storyteller, and every mention of the name in the game follow; OLD stays an alias of a
    seat, so votes that name either count."""

    old: str
    new: str
    at: datetime


@dataclass(frozen=True, slots=True)
class AliasLapsed:
    """Another forum user now goes by ALIAS, a name PLAYER's seat answered to (kept from a
    rename, or given by `!alias`): the current holder of a name wins, so it names them, and
    no longer the seat."""

    alias: str
    player: str
    at: datetime


def _with_setup_seats(state: GameState, seats: Sequence[Seat]) -> GameState:
    """Replace the seating (the setup's roster and seat index are recomputed from it)."""
    live = {s.name: s for s in state.seats}
    setup = replace(state.setup, seats=tuple(seats))
    return state.evolve(setup=setup, seats=tuple(
        replace(live[s.name], aliases=s.aliases) for s in setup.seats))


def _alias_added(state: GameState, e: AliasAdded) -> GameState:
    seats = [replace(s, aliases=(*s.aliases, e.alias)) if s.name == e.player else s
             for s in state.setup.seats]
    return _with_setup_seats(state, seats)


def _alias_lapsed(state: GameState, e: AliasLapsed) -> GameState:
    seats = [replace(s, aliases=tuple(a for a in s.aliases if a.lower() != e.alias.lower()))
             if s.name == e.player else s for s in state.setup.seats]
    return _with_setup_seats(state, seats)


def _seats_reordered(state: GameState, e: SeatsReordered) -> GameState:
    by_name = {s.name: s for s in state.setup.seats}
    return _with_setup_seats(state, [by_name[name] for name in e.order])


def _player_substituted(state: GameState, e: PlayerSubstituted) -> GameState:
    """NEW takes the seat; each name keeps its own forum account (`setup.user_ids`: the
    substitute is not the replaced player's account, as a rename would be), and the game keeps
    who held the seat when (`substitutions`, as they were: an earlier holder stays named)."""
    renamed = _renamed(state, e.old, e.new)
    renamed = renamed.evolve(setup=replace(renamed.setup, user_ids=state.setup.user_ids),
                             substitutions=(*state.substitutions, (e.old, e.new, e.at)))
    seats = [replace(s, aliases=(*s.aliases, e.old)) if s.name == e.new else s
             for s in renamed.setup.seats]
    return _with_setup_seats(renamed, seats)


def _user_renamed(state: GameState, e: UserRenamed) -> GameState:
    """The seat (or Storyteller's place) follows its account's new name; the old name stays
    an alias of that seat; the new name stops being an alias of any other seat (the name is
    this account's now)."""
    renamed = _renamed(state, e.old, e.new)
    new = e.new.casefold()
    seats = [replace(s, aliases=(*s.aliases, e.old)) if s.name == e.new else
             replace(s, aliases=tuple(a for a in s.aliases if a.casefold() != new))
             for s in renamed.setup.seats]
    return _with_setup_seats(renamed, seats)


def _renamed(value: Any, old: str, new: str) -> Any:
    """`value` with every string equal to `old` replaced by `new`, through dataclasses,
    tuples, frozensets and dicts (the whole game state: seats, votes, days, pending)."""
    if isinstance(value, str):
        return new if value == old else value
    if isinstance(value, tuple):
        return tuple(_renamed(v, old, new) for v in value)
    if isinstance(value, frozenset):
        return frozenset(_renamed(v, old, new) for v in value)
    if isinstance(value, dict):
        return {_renamed(k, old, new): _renamed(v, old, new) for k, v in value.items()}
    if is_dataclass(value) and not isinstance(value, type):
        changes = {f.name: _renamed(getattr(value, f.name), old, new)
                   for f in fields(value) if f.init}
        return replace(value, **changes)
    return value


FEATURE = Feature("storytellers: events", appliers={
    AliasAdded: _alias_added,
    AliasLapsed: _alias_lapsed,
    SeatsReordered: _seats_reordered,
    PlayerSubstituted: _player_substituted,
    UserRenamed: _user_renamed,
    PlayerRevived: _player_revived,
    GhostVoteChanged: _ghost_vote_changed,
    NominationCancelled: _nomination_cancelled,
    PhaseExtended: _phase_extended,
    VoteCountRequested: unchanged,
    ConfirmationRequested: _confirmation_requested,
    ConfirmationSettled: _confirmation_settled,
    ClockPaused: _clock_paused,
    ClockResumed: _clock_resumed,
    GrimoireChanged: _grimoire_changed,
    GameEnded: _game_ended,
    VoteCorrected: _vote_corrected,
    VotesUnlocked: _votes_unlocked,
})

__all__ = [
    "BY_ABILITY",
    "AliasAdded",
    "AliasLapsed",
    "ClockPaused",
    "ClockResumed",
    "ConfirmationRequested",
    "ConfirmationSettled",
    "GameEnded",
    "GhostVoteChanged",
    "GrimoireChanged",
    "NominationCancelled",
    "PhaseExtended",
    "PlayerRevived",
    "PlayerSubstituted",
    "SeatsReordered",
    "UserRenamed",
    "VoteCorrected",
    "VoteCountRequested",
    "VotesUnlocked",
]
