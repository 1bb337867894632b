"""Theory of operation: decide whether one player action is legal now, and what it causes.

`decide(state, action, ctx)` looks at the state at the forum time `ctx.at` (the engine has
already advanced the phases to that time) and returns either the events the action causes, or
a `Rejection` saying whose fault it is and why, in which case the state must not change. It
never changes state itself and never locks votes: the engine runs `settle` after each action.

Rules (BotF profile; see voting.py for the arithmetic): nominations only in the nomination
window; a living player nominates at most once a day; a player is nominated at most once a
day; travellers are exiled, not nominated. Votes go on any open nomination during the
nomination and voting windows (exile votes at any time of day) and may change until they lock.
Exile calls: any player, dead too, any time of day, once per traveller per day.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from ..state.actions import (
    AcceptWhisper,
    CallExile,
    Context,
    DeclineWhisper,
    Kill,
    Nominate,
    SkipNomination,
    Unvote,
    Vote,
    Whisper,
    WhisperStoryteller,
)
from ..state.events import (
    Event,
    Nominated,
    NominationSkipped,
    PlayerDied,
    StorytellerConsultRequested,
    VoteCast,
    VoteWithdrawn,
    WhisperAnswered,
    WhisperBroken,
    WhisperLimitExceeded,
    WhisperRequested,
)
from ..state.feature import Feature
from ..state.grimoire import storytellers_nominate, whispers_beside
from ..state.model import EXECUTION, EXILE, GameState, Nomination, Phase
from ..state.rejection import Rejection
from ..wording import Say, say
from .voting import NOTE_NO_TOKEN


def refusal(state: GameState, action: object, ctx: Context) -> Rejection | None:
    """Why no player action of `ctx.author` can be taken now (the registry's `decide` asks
    first), or None. A `Kill` (a death the engine was told of) is never refused here."""
    if isinstance(action, Kill):
        return None
    if not state.is_seated(ctx.author):
        return reject(ctx, "not_a_player")
    if state.winner is not None:
        return reject(ctx, "game_over", winner=state.winner)
    return None


def reject(ctx: Context, code: str, **details: Any) -> Rejection:
    return Rejection(code, details, ctx.author, ctx.at, ctx.post_number)


def _wrong_phase(state: GameState, ctx: Context, what: Say) -> Rejection:
    return reject(ctx, "wrong_phase", what=what, phase=state.phase_said)


def butcher_may_nominate(state: GameState, player: str) -> bool:
    """The Butcher (a traveller: its character is public), alive, in the voting window, before
    its second nomination of the day (seed 001: "after nominations have closed")."""
    character = state.setup.private_script.get(state.grimoire_of(player).character or "") \
        if state.setup.script else None
    return (character is not None and character.spec.nominates_after_close
            and state.phase is Phase.VOTING
            and state.seat(player).alive and state.seat(player).traveller
            and not any(n.by_butcher for n in state.current_day.nominations))


def _nominate(state: GameState, action: Nominate, ctx: Context) -> Sequence[Event] | Rejection:
    butcher = butcher_may_nominate(state, ctx.author)
    if state.phase is not Phase.NOMINATION and not butcher:
        return _wrong_phase(state, ctx, say("doing.nominating"))
    day, target = state.current_day, action.target
    if not state.seat(ctx.author).alive:
        return reject(ctx, "dead_cannot_nominate")
    bishop = storytellers_nominate(state)
    if bishop is not None:
        return reject(ctx, "storytellers_nominate", bishop=bishop)
    earlier = next((n for n in day.nominations if n.nominator == ctx.author), None)
    if earlier is not None and not butcher:
        return reject(ctx, "nominator_already_used", nominee=earlier.nominee)
    if state.seat(target).traveller:
        return reject(ctx, "traveller_cannot_be_nominated", nominee=target)
    if day.nomination_of(target) is not None:
        return reject(ctx, "already_nominated", nominee=target)
    order = state.setup.clock_order(target)
    return (Nominated(EXECUTION, ctx.author, target, ctx.post_number, ctx.at, order, butcher),)


def _call_exile(state: GameState, action: CallExile, ctx: Context) -> Sequence[Event] | Rejection:
    if not state.phase.is_day:
        return _wrong_phase(state, ctx, say("doing.calling_an_exile"))
    target = action.target
    if not state.seat(target).traveller:
        return reject(ctx, "not_a_traveller", nominee=target)
    if not state.seat(target).alive:
        return reject(ctx, "player_dead", nominee=target)
    if state.current_day.nomination_of(target, EXILE) is not None:
        return reject(ctx, "exile_already_called", nominee=target)
    order = state.setup.clock_order(target)
    return (Nominated(EXILE, ctx.author, target, ctx.post_number, ctx.at, order),)


def _find_votable(state: GameState, nominee: str, ctx: Context) -> Nomination | Rejection:
    day = state.today
    exile = day.nomination_of(nominee, EXILE) if day is not None else None
    nomination: Nomination | None
    if exile is not None and state.phase.is_day:
        nomination = exile
    elif state.phase not in (Phase.NOMINATION, Phase.VOTING):
        return _wrong_phase(state, ctx, say("doing.voting"))
    else:
        nomination = state.current_day.nomination_of(nominee)
    if nomination is None:
        return reject(ctx, "not_nominated", nominee=nominee)
    if not nomination.is_open:
        return reject(ctx, "nomination_closed", nominee=nominee)
    return nomination


def _vote(state: GameState, action: Vote, ctx: Context) -> Sequence[Event] | Rejection:
    nomination = _find_votable(state, action.nominee, ctx)
    if isinstance(nomination, Rejection):
        return nomination
    if nomination.is_locked(ctx.author):
        return _locked_rejection(nomination, ctx)
    current = nomination.cast.get(ctx.author)
    if current is not None and current.value == action.value:
        return ()
    return (VoteCast(nomination.kind, nomination.nominee, ctx.author, action.value,
                     ctx.post_number, ctx.at),)


def _unvote(state: GameState, action: Unvote, ctx: Context) -> Sequence[Event] | Rejection:
    if action.nominee is None:
        events = tuple(
            VoteWithdrawn(n.kind, n.nominee, ctx.author, ctx.post_number, ctx.at)
            for n in (state.current_day.open_nominations() if state.today else ())
            if ctx.author in n.cast
        )
        return events or reject(ctx, "nothing_to_withdraw")
    nomination = _find_votable(state, action.nominee, ctx)
    if isinstance(nomination, Rejection):
        return nomination
    if ctx.author not in nomination.cast:
        if nomination.is_locked(ctx.author):
            return _locked_rejection(nomination, ctx)
        return reject(ctx, "nothing_to_withdraw_on", nominee=action.nominee)
    return (VoteWithdrawn(nomination.kind, nomination.nominee, ctx.author, ctx.post_number,
                          ctx.at),)


def _skip(state: GameState, _action: SkipNomination, ctx: Context) -> Sequence[Event] | Rejection:
    if state.phase not in (Phase.DISCUSSION, Phase.NOMINATION):
        return _wrong_phase(state, ctx, say("doing.declining_to_nominate"))
    if state.current_day.has_nominated(ctx.author):
        earlier = next(n for n in state.current_day.nominations if n.nominator == ctx.author)
        return reject(ctx, "nominator_already_used", nominee=earlier.nominee)
    if ctx.author in state.current_day.skipped:
        return ()
    return (NominationSkipped(ctx.author, ctx.post_number, ctx.at),)


def _whisper(state: GameState, action: Whisper, ctx: Context) -> Sequence[Event] | Rejection:
    if not state.phase.is_day:
        return _wrong_phase(state, ctx, say("doing.declaring_a_whisper"))
    if ctx.author in action.with_:
        return reject(ctx, "self_whisper")
    matron = whispers_beside(state)
    far = [p for p in action.with_ if p not in _beside(state, ctx.author)] if matron else []
    if far:  # "players may not leave their seats to talk in private"
        return reject(ctx, "whisper_not_beside", matron=matron, players=tuple(far))
    requested = (WhisperRequested(ctx.author, action.with_, ctx.post_number, ctx.at),)
    limit = state.setup.whispers_per_day
    count = 1 + sum(1 for w in state.current_day.whispers if w.requester == ctx.author)
    if limit and count > limit:  # recorded all the same: the Storytellers judge
        return (*requested, WhisperLimitExceeded(ctx.author, count, limit, ctx.post_number, ctx.at))
    return requested


def _beside(state: GameState, player: str) -> tuple[str, ...]:
    """The seats either side of `player`'s."""
    names = [s.name for s in state.seats]
    i = names.index(player)
    return names[i - 1], names[(i + 1) % len(names)]


def _whisper_storyteller(state: GameState, _action: WhisperStoryteller, ctx: Context) -> Sequence[Event] | Rejection:
    if not state.phase.is_day:
        return _wrong_phase(state, ctx, say("doing.asking_for_a_storyteller_consult"))
    return (StorytellerConsultRequested(ctx.author, ctx.post_number, ctx.at),)


def _answer(state: GameState, action: AcceptWhisper | DeclineWhisper, ctx: Context,
            accepted: bool) -> Sequence[Event] | Rejection:
    if not state.phase.is_day:
        return _wrong_phase(state, ctx, say("doing.answering_a_whisper"))
    pending = [w for w in state.current_day.whispers if w.is_pending_for(ctx.author)]
    if action.from_ is not None:
        pending = [w for w in pending if w.requester == action.from_]
    requesters = tuple(dict.fromkeys(w.requester for w in pending))
    if not requesters:
        return reject(ctx, "no_pending_whisper",
                       from_=f" from {action.from_}" if action.from_ else "")
    if len(requesters) > 1:
        return reject(ctx, "ambiguous_whisper", candidates=tuple(requesters))
    return (WhisperAnswered(ctx.author, requesters[0], accepted, ctx.post_number, ctx.at),)


def _kill(state: GameState, action: Kill, ctx: Context) -> Sequence[Event] | Rejection:
    if not state.is_seated(action.player):
        return reject(ctx, "not_a_player")
    if not state.seat(action.player).alive:
        return reject(ctx, "player_dead", nominee=action.player)
    return (PlayerDied(action.player, action.cause, ctx.at),)


def _locked_rejection(nomination: Nomination, ctx: Context) -> Rejection:
    locked = next(v for v in nomination.locked if v.player == ctx.author)
    code = "no_vote_token" if locked.note == NOTE_NO_TOKEN else "vote_locked"
    return reject(ctx, code, nominee=nomination.nominee, vote=_word(locked.vote))


def _word(vote: str) -> str:
    return "execute" if vote == "yes" else "pardon"


def whispers_broken_by(state: GameState, author: str, post_number: int,
                       at: datetime) -> tuple[Event, ...]:
    """Speaking publicly (thread post `post_number`) ends a player's active whispers (not the
    post that accepted one)."""
    day = state.whisper_day()
    if day is None:
        return ()
    return tuple(
        WhisperBroken(w.requester, w.post_number, tuple(sorted(w.members)), author,
                      post_number, at)
        for w in day.whispers
        if w.is_active and author in w.members and w.active_since is not None
        and post_number > w.active_since)


FEATURE = Feature("votes and whispers", rules={
    Kill: _kill,
    Nominate: _nominate,
    CallExile: _call_exile,
    Vote: _vote,
    Unvote: _unvote,
    SkipNomination: _skip,
    Whisper: _whisper,
    WhisperStoryteller: _whisper_storyteller,
    AcceptWhisper: lambda s, a, c: _answer(s, a, c, True),
    DeclineWhisper: lambda s, a, c: _answer(s, a, c, False),
})
