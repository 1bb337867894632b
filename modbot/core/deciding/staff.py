"""Theory of operation: the Storyteller's commands, as actions and as rules.

Storytellers have the final word. Their commands are actions like the players', decided by
the registry's `decide_staff(state, action, ctx)` into events or a `Rejection`; they bypass the players'
phase windows (an ST may record a late nomination or a vote sent by PM) but never the clock:
a vote recorded for a player still locks only when the hand reaches that seat.

Each action is one line of a command post; `commands.py` parses the lines and the engine
applies a post's commands all or nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import timedelta

from ..state.actions import Context
from ..state.events import Event, Exiled, Nominated, PlayerDied, VoteCast, VoteLocked
from ..state.feature import Feature
from ..state.grimoire import storytellers_nominate, true_character
from ..state.model import EXECUTION, GameState, Nomination, Phase
from ..state.observing import is_observer
from ..state.rejection import Rejection
from ..state.staff_actions import (
    StAlias,
    StCancelNomination,
    StEndDay,
    StEndVoting,
    StExecute,
    StExile,
    StExtend,
    StGhostVote,
    StGrimoire,
    StKill,
    StLock,
    StNextPhase,
    StNominate,
    StPause,
    StResume,
    StRevive,
    StSeat,
    StSetVote,
    StSub,
    StUnlock,
    StVote,
    StVoteCount,
    StWin,
)
from ..state.staff_events import (
    BY_ABILITY,
    AliasAdded,
    ClockPaused,
    ClockResumed,
    GameEnded,
    GhostVoteChanged,
    GrimoireChanged,
    NominationCancelled,
    PhaseExtended,
    PlayerRevived,
    PlayerSubstituted,
    SeatsReordered,
    VoteCorrected,
    VoteCountRequested,
    VotesUnlocked,
)
from ..wording import say
from .rules import reject
from .voting import is_decided, lock_at_hand


def _seated_alive(state: GameState, player: str, ctx: Context, alive: bool) -> Rejection | None:
    if not state.is_seated(player):
        return reject(ctx, "unknown_player", text=player)
    if state.seat(player).alive != alive:
        return reject(ctx, "player_dead" if alive else "player_alive", nominee=player)
    return None


def _kill(state: GameState, action: StKill, ctx: Context) -> Sequence[Event] | Rejection:
    problem = _seated_alive(state, action.player, ctx, alive=True)
    return problem or (PlayerDied(action.player, action.reason or "storyteller", ctx.at),)


def _revive(state: GameState, action: StRevive, ctx: Context) -> Sequence[Event] | Rejection:
    problem = _seated_alive(state, action.player, ctx, alive=False)
    return problem or (PlayerRevived(action.player, ctx.at),)


def _ghost_vote(state: GameState, action: StGhostVote, ctx: Context) -> Sequence[Event] | Rejection:
    if not state.is_seated(action.player):
        return reject(ctx, "unknown_player", text=action.player)
    return (GhostVoteChanged(action.player, action.give, ctx.at),)


def _nominate(state: GameState, action: StNominate, ctx: Context) -> Sequence[Event] | Rejection:
    if state.today is None:
        return reject(ctx, "wrong_phase", what=say("doing.nominating"), phase=state.phase_said)
    day = state.today
    nominator = action.nominator
    if nominator is None:  # `!nominate NOMINEE`: the Storyteller's own, while the Bishop works
        if storytellers_nominate(state) is None:
            return reject(ctx, "nominate_names_nominator")
        nominator = ctx.author
    elif any(n.nominator == nominator for n in day.nominations):
        return reject(ctx, "nominator_already_used", nominee=action.nominator)
    if day.nomination_of(action.nominee) is not None:
        return reject(ctx, "already_nominated", nominee=action.nominee)
    if state.seat(action.nominee).traveller:
        return reject(ctx, "traveller_cannot_be_nominated", nominee=action.nominee)
    order = state.setup.clock_order(action.nominee)
    return (Nominated(EXECUTION, nominator, action.nominee, ctx.post_number, ctx.at, order),)


def _vote(state: GameState, action: StVote, ctx: Context) -> Sequence[Event] | Rejection:
    day = state.today
    nomination = day.nomination_of(action.nominee) if day else None
    if nomination is None:
        return reject(ctx, "not_nominated", nominee=action.nominee)
    if not nomination.is_open:
        return reject(ctx, "nomination_closed", nominee=action.nominee)
    if nomination.is_locked(action.voter):
        return reject(ctx, "vote_locked_for", nominee=action.nominee, voter=action.voter)
    return (VoteCast(EXECUTION, action.nominee, action.voter, action.value, ctx.post_number,
                     ctx.at),)


def _cancel(state: GameState, action: StCancelNomination, ctx: Context) -> Sequence[Event] | Rejection:
    day = state.today
    nomination = day.nomination_of(action.nominee) if day else None
    if nomination is None:
        return reject(ctx, "not_nominated", nominee=action.nominee)
    refunds = tuple(v.player for v in nomination.locked if v.ghost_vote_spent)
    return (NominationCancelled(action.nominee, refunds, ctx.at),)


def _extend(state: GameState, action: StExtend, ctx: Context) -> Sequence[Event] | Rejection:
    if state.phase is Phase.PREGAME:
        return reject(ctx, "wrong_phase", what=say("doing.extending"), phase=state.phase_said)
    ends = state.phase_ends_at + timedelta(minutes=action.minutes)
    if ends <= ctx.at:
        return reject(ctx, "extend_into_past")
    return (PhaseExtended(state.phase, state.cycle, ends, ctx.at),)


def _now(state: GameState, ctx: Context) -> tuple[Event, ...] | Rejection:
    """End the current phase at the command's time (the engine then runs its end)."""
    if state.paused_at is not None:
        return reject(ctx, "paused")
    return (PhaseExtended(state.phase, state.cycle, ctx.at, ctx.at),)


def next_phase_rule(state: GameState, _action: object, ctx: Context) -> Sequence[Event] | Rejection:
    return _now(state, ctx)


def _end_day(state: GameState, _action: object, ctx: Context) -> Sequence[Event] | Rejection:
    if not state.phase.is_day:
        return reject(ctx, "wrong_phase", what=say("doing.ending_the_day"), phase=state.phase_said)
    return _now(state, ctx)  # the engine repeats this until the day is over


def _end_voting(state: GameState, action: StEndVoting, ctx: Context) -> Sequence[Event] | Rejection:
    if state.phase is not Phase.VOTING:
        return reject(ctx, "wrong_phase", what=say("doing.ending_the_voting"), phase=state.phase_said)
    if action.force and not action.reason:
        return reject(ctx, "force_needs_reason")
    if not is_decided(state) and not action.force:
        return reject(ctx, "not_decided")
    return _now(state, ctx)


def _execute(state: GameState, action: StExecute, ctx: Context) -> Sequence[Event] | Rejection:
    """Validated here; the engine ends the day with this player executed (dead or alive)."""
    if not state.phase.is_day:
        return reject(ctx, "wrong_phase", what=say("doing.executing"), phase=state.phase_said)
    if not state.is_seated(action.player):
        return reject(ctx, "unknown_player", text=action.player)
    if state.seat(action.player).traveller:
        return reject(ctx, "traveller_cannot_be_nominated", nominee=action.player)
    return ()


def _exile(state: GameState, action: StExile, ctx: Context) -> Sequence[Event] | Rejection:
    if not state.is_seated(action.player) or not state.seat(action.player).traveller:
        return reject(ctx, "not_a_traveller", nominee=action.player)
    problem = _seated_alive(state, action.player, ctx, alive=True)
    return problem or (Exiled(action.player, 0, ctx.at),
                       PlayerDied(action.player, "exile", ctx.at))


def _pause(state: GameState, _action: object, ctx: Context) -> Sequence[Event] | Rejection:
    if state.paused_at is not None:
        return reject(ctx, "already_paused")
    return (ClockPaused(ctx.at),)


def _resume(state: GameState, _action: object, ctx: Context) -> Sequence[Event] | Rejection:
    if state.paused_at is None:
        return reject(ctx, "not_paused")
    return (ClockResumed(ctx.at - state.paused_at, ctx.at),)


def grimoire_rule(state: GameState, action: StGrimoire, ctx: Context) -> Sequence[Event] | Rejection:
    if not state.is_seated(action.player):
        return reject(ctx, "unknown_player", text=action.player)
    if action.field == "heal":
        return (GrimoireChanged(action.player, "poisoned", False, ctx.at),
                GrimoireChanged(action.player, "drunk", False, ctx.at))
    if action.by is None:
        return (GrimoireChanged(action.player, action.field, action.value, ctx.at),)
    if not state.is_seated(action.by):
        return reject(ctx, "unknown_player", text=action.by)
    cause = true_character(state, action.by)
    why = say(BY_ABILITY, player=action.by, character=cause.name if cause else "?",
              character_id=cause.id if cause else None)
    return (GrimoireChanged(action.player, action.field, action.value, ctx.at, why),)


def _win(state: GameState, action: StWin, ctx: Context) -> Sequence[Event] | Rejection:
    if state.winner is not None:
        return reject(ctx, "game_over", winner=state.winner)
    team = team_code(state, action.winner)
    if team is None:
        terms = state.setup.terms
        return reject(ctx, "not_a_team", text=action.winner, good=terms.good, evil=terms.evil)
    return (GameEnded(team, action.reason, ctx.at),)


def team_code(state: GameState, word: str) -> str | None:
    """good or evil, from either word or the script's own (BotF: Loyal, Cultist)."""
    terms = state.setup.terms
    return {"good": "good", "evil": "evil", terms.good.casefold(): "good",
            terms.evil.casefold(): "evil"}.get(word.casefold())


def _open_nomination(state: GameState, nominee: str, ctx: Context) -> Nomination | Rejection:
    day = state.today
    nomination = day.nomination_of(nominee) if day else None
    if nomination is None:
        return reject(ctx, "not_nominated", nominee=nominee)
    return nomination


def _set_vote(state: GameState, action: StSetVote, ctx: Context) -> Sequence[Event] | Rejection:
    nomination = _open_nomination(state, action.nominee, ctx)
    if isinstance(nomination, Rejection):
        return nomination
    if not state.is_seated(action.voter):
        return reject(ctx, "unknown_player", text=action.voter)
    return (VoteCorrected(action.nominee, action.voter, action.value, ctx.at),)


def _lock(state: GameState, action: StLock, ctx: Context) -> Sequence[Event] | Rejection:
    nomination = _open_nomination(state, action.nominee, ctx)
    if isinstance(nomination, Rejection):
        return nomination
    if not nomination.is_open or nomination.hand != action.voter:
        return reject(ctx, "not_at_hand", voter=action.voter, hand=nomination.hand or "nobody")
    vote = lock_at_hand(state, nomination, ctx.at, end_of_day=True)
    if vote is None:  # the hand's seat locks nothing (it has no vote to give)
        return reject(ctx, "not_at_hand", voter=action.voter, hand=nomination.hand or "nobody")
    return (VoteLocked(EXECUTION, action.nominee, replace(
        vote, note=say("note.locked_by_st_too", note=vote.note) if vote.note
        else say("note.locked_by_st"))),)


def _unlock(state: GameState, action: StUnlock, ctx: Context) -> Sequence[Event] | Rejection:
    nomination = _open_nomination(state, action.nominee, ctx)
    if isinstance(nomination, Rejection):
        return nomination
    if not nomination.is_locked(action.voter):
        return reject(ctx, "not_locked", voter=action.voter, nominee=action.nominee)
    start = nomination.order.index(action.voter)
    refunds = tuple(v.player for v in nomination.locked[start:] if v.ghost_vote_spent)
    return (VotesUnlocked(action.nominee, action.voter, refunds, ctx.at),)


def _alias(state: GameState, action: StAlias, ctx: Context) -> Sequence[Event] | Rejection:
    taken = state.setup.roster.resolve_exact(action.alias)
    if taken is not None:
        return reject(ctx, "name_taken", name=action.alias, player=taken)
    return (AliasAdded(action.alias, action.player, ctx.at),)


def _seat(state: GameState, action: StSeat, ctx: Context) -> Sequence[Event] | Rejection:
    if not action.order:
        return ()  # showing the seats: the report does it
    if state.phase is not Phase.PREGAME:
        return reject(ctx, "seats_fixed")
    if sorted(action.order) != sorted(s.name for s in state.seats):
        return reject(ctx, "seats_must_match",
                      seats=tuple(s.name for s in state.seats))
    return (SeatsReordered(action.order, ctx.at),)


def _sub(state: GameState, action: StSub, ctx: Context) -> Sequence[Event] | Rejection:
    if state.setup.roster.resolve_exact(action.new) is not None:
        return reject(ctx, "name_taken", name=action.new,
                      player=state.setup.roster.resolve_exact(action.new))
    if state.setup.is_storyteller(action.new):
        return reject(ctx, "name_of_storyteller", name=action.new)
    if is_observer(state, action.new):
        return reject(ctx, "observer_sub", name=action.new)
    return (PlayerSubstituted(action.old, action.new, ctx.at),)


def _vote_count(state: GameState, _action: object, ctx: Context) -> Sequence[Event] | Rejection:
    return (VoteCountRequested(ctx.author, ctx.at),)


FEATURE = Feature("storytellers", staff_rules={
    StKill: _kill, StRevive: _revive, StGhostVote: _ghost_vote, StNominate: _nominate,
    StVote: _vote, StCancelNomination: _cancel, StExtend: _extend, StNextPhase: next_phase_rule,
    StEndDay: _end_day, StEndVoting: _end_voting, StVoteCount: _vote_count,
    StExecute: _execute, StExile: _exile, StPause: _pause, StResume: _resume,
    StGrimoire: grimoire_rule, StWin: _win, StSetVote: _set_vote, StLock: _lock, StUnlock: _unlock,
    StAlias: _alias, StSeat: _seat, StSub: _sub,
})
