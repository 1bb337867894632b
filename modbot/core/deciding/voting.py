"""Theory of operation: the arithmetic of clockhand voting.

Thresholds: BotF needs more than half of the living players (floor(n/2)+1), the official
rules at least half (ceil(n/2)). Travellers count in n only under the official profile. An
exile needs more than half (official: at least half) of every player in the game, dead
included.

Locking (`lock_at_hand`): the hand points at the first unlocked seat of a nomination. If that
player has cast a vote, it locks with the value cast at that moment. A dead player's execute
vote counts only if their vote token is unspent when it locks, and locking spends it; a dead
player who cannot vote execute any more (token spent) is locked as pardon as soon as the hand
reaches them, so a voter who can only pardon never holds up the clock. At the end of the day
(`end_of_day=True`) every seat locks: uncast means pardon. Exile votes never touch tokens.

About to die: the nominee whose execute count is strictly higher than every other closed
nomination's that day, if it reached the threshold fixed when its last vote locked. A tie for
the highest count means nobody, and a later nomination must beat the tied count.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from ..state.grimoire import butler_master, vote_weight, votes_with_the_dead
from ..state.model import (
    EXILE,
    NO,
    YES,
    DayState,
    GameState,
    LockedVote,
    Nomination,
    Phase,
    Profile,
)
from ..state.vote_tokens import may_vote_yes
from ..wording import say

NOTE_NO_TOKEN_CAST = say("note.no_token_cast")  # why a locked vote differs from the cast one
NOTE_NO_TOKEN = say("note.no_token")
NOTE_BEGGAR = say("note.beggar")  # a living Beggar's yes without a vote token
NOTE_UNCAST = say("note.uncast")


def living_count(state: GameState) -> int:
    """n for the execution threshold: living players (travellers only if official)."""
    official = state.setup.profile is Profile.OFFICIAL
    return sum(1 for s in state.seats if s.alive and (official or not s.traveller))


def majority(profile: Profile, n: int) -> int:
    if profile is Profile.OFFICIAL:
        return max((n + 1) // 2, 1)
    return n // 2 + 1


def threshold_now(state: GameState, nomination: Nomination) -> int:
    """The execute votes this nomination needs, with the players as they are now."""
    if not nomination.is_open:
        return nomination.closed_threshold
    if nomination.kind != EXILE and votes_with_the_dead(state) is not None:
        return 1  # the Voudon: "a 50% majority isn't required" (the most votes still win)
    return majority(state.setup.profile, population(state, nomination))


def population(state: GameState, nomination: Nomination) -> int:
    if nomination.kind == EXILE:
        return len(state.seats)
    return living_count(state)


def lock_at_hand(
    state: GameState, nomination: Nomination, at: datetime, *, end_of_day: bool = False
) -> LockedVote | None:
    """The vote that locks at the clock hand now, or None while the hand must wait."""
    player = nomination.hand
    if player is None:
        return None
    cast = nomination.cast.get(player)
    seat = state.seat(player)
    voudon = votes_with_the_dead(state) if nomination.kind != EXILE else None
    if nomination.kind == EXILE or seat.alive:
        if cast is None:
            return LockedVote(player, NO, None, None, at, note=NOTE_UNCAST) if end_of_day else None
        if voudon not in (None, player):  # only the Voudon and the dead vote
            return LockedVote(player, NO, cast.value, cast.post_number, at,
                              note=say("note.voudon", voudon=voudon) if cast.value == YES else None)
        if cast.value == YES and nomination.kind != EXILE and not may_vote_yes(state, player):
            return LockedVote(player, NO, YES, cast.post_number, at, note=NOTE_BEGGAR)
        locked = LockedVote(player, cast.value, cast.value, cast.post_number, at)
        return _weighed(state, locked) if cast.value == YES else locked
    if cast is None:
        if (seat.ghost_vote or voudon) and not end_of_day:
            return None
        note = NOTE_UNCAST if seat.ghost_vote or voudon else NOTE_NO_TOKEN
        return LockedVote(player, NO, None, None, at, note=note)
    if cast.value == NO:
        return LockedVote(player, NO, NO, cast.post_number, at)
    if voudon is not None:  # the dead vote without spending their token
        return _weighed(state, LockedVote(player, YES, YES, cast.post_number, at))
    if seat.ghost_vote:
        return _weighed(state, LockedVote(player, YES, YES, cast.post_number, at,
                                          ghost_vote_spent=True))
    return LockedVote(player, NO, YES, cast.post_number, at, note=NOTE_NO_TOKEN_CAST)


def _weighed(state: GameState, vote: LockedVote) -> LockedVote:
    """A yes as the Bureaucrat's (3) or the Thief's (-1) choice makes it count, and a Butler's
    waits on its master's, said beside it."""
    weight, master = vote_weight(state, vote.player), butler_master(state, vote.player)
    if master is not None:
        vote = replace(vote, needs=master, note=say("note.butler", master=master))
    if weight == 1:
        return vote
    return replace(vote, weight=weight, note=say("note.weight", weight=weight))


def about_to_die(day: DayState) -> str | None:
    """Who would be executed if the day ended now (closed nominations only; the one the
    Judge forced to pass, whatever the votes; never one it forced to fail)."""
    forced = next((n.nominee for n in day.nominations if n.judged == "pass"), None)
    if forced is not None:
        return forced
    best: Nomination | None = None
    tied = False
    for n in day.nominations:
        if n.is_open or n.by_butcher or n.judged == "fail":
            continue
        if best is None or n.yes > best.yes:
            best, tied = n, False
        elif n.yes == best.yes:
            tied = True
    if best is None or tied or best.yes < best.closed_threshold:
        return None
    return best.nominee


def about_to_die_now(state: GameState, day: DayState) -> str | None:
    """Who is about to die as the count stands (the BotF rules: "more than half of the number
    of living players ... and the highest count of votes against any player that day"). Locked
    votes never go down, so an open nomination whose locked execute votes already reach its
    threshold, beat every closed count and every other open nomination's most possible count
    makes its nominee about to die while it is still open; otherwise the closed leader
    (`about_to_die`). Who is executed at the day's end is `about_to_die`'s, once all lock."""
    others = [n for n in day.nominations if n.is_open and not n.by_butcher and not n.judged]
    if any(n.judged == "pass" for n in day.nominations):
        return about_to_die(day)
    for n in others:
        if n.yes >= threshold_now(state, n) and n.yes > highest_closed(day) and \
                all(n.yes > max_possible(state, o) for o in others if o is not n):
            return n.nominee
    return about_to_die(day)


def leading_so_far(state: GameState, day: DayState) -> str | None:
    """The nominee ahead as the votes stand, while nobody is about to die yet (display only:
    the day's end decides): the one nomination with the most execute votes that reaches its
    threshold (an open one's as it stands), with votes still to lock somewhere."""
    if about_to_die_now(state, day) is not None:
        return None
    counted = [(n.yes, n.nominee) for n in day.nominations if not n.by_butcher and n.yes >=
               (threshold_now(state, n) if n.is_open else n.closed_threshold)]
    if not counted or not any(n.is_open for n in day.nominations):
        return None
    best = max(counted)
    return best[1] if [yes for yes, _ in counted].count(best[0]) == 1 else None


def highest_closed(day: DayState) -> int:
    return max((n.yes for n in day.nominations if not n.is_open and not n.by_butcher),
               default=0)


def _others(day: DayState, nominee: str) -> list[Nomination]:
    """Today's other nominations that compete with this nominee (not the Butcher's)."""
    return [n for n in day.nominations if n.nominee != nominee and not n.by_butcher]


def highest_other(day: DayState, nominee: str) -> int:
    """The highest execute count of any other nomination today (locked votes so far)."""
    return max((n.yes for n in _others(day, nominee)), default=0)


def leading_others(day: DayState, nominee: str) -> list[str]:
    """The other nominees with that highest count (none while it is 0)."""
    top = highest_other(day, nominee)
    return [n.nominee for n in _others(day, nominee) if n.yes == top] if top else []


def max_possible(state: GameState, nomination: Nomination) -> int:
    """Locked execute votes plus every unlocked voter who could still vote execute."""
    unlocked = [p for p in nomination.unlocked() if state.seat(p).can_vote_yes and
                (nomination.kind == EXILE or may_vote_yes(state, p))]  # the Beggar's token
    return nomination.yes + sum(max(0, vote_weight(state, p)) for p in unlocked) + \
        sum(max(0, nomination.waiting_on(p)) for p in unlocked)  # a Butler's, on its master


@dataclass(frozen=True, slots=True)
class Needs:
    to_execute: int
    to_tie: int | None  # None when a tie is not possible or not meaningful


def needs(state: GameState, nomination: Nomination) -> Needs:
    """Execute votes needed to put the nominee about to die, and to tie the leader."""
    other = highest_other(state.current_day, nomination.nominee)
    threshold = threshold_now(state, nomination)
    to_tie = other if other >= 1 else None
    return Needs(max(threshold, other + 1), to_tie)


def is_decided(state: GameState) -> bool:
    """True when no open nomination can change who is about to die (ST may end the day).

    Only once nominations are closed (voting phase). Either no open nomination can still tie
    or exceed the highest closed count, or no nomination at all can reach its threshold.
    """
    day = state.today
    if day is None or state.phase is not Phase.VOTING:
        return False
    open_noms = [n for n in day.nominations if n.is_open]
    if not open_noms:
        return True
    top = highest_closed(day)
    if top > 0 and all(max_possible(state, n) < top for n in open_noms):
        return True
    closed_can_win = any(
        not n.is_open and n.yes >= n.closed_threshold for n in day.nominations
    )
    return not closed_can_win and all(
        max_possible(state, n) < threshold_now(state, n) for n in open_noms
    )
