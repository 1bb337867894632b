"""Theory of operation: who is told what of the game's own events (a `Feature` of notices).

Each character's notices live with the character (boomdandy.py, wins.py, ...), the night's in
night/notices.py and the deal's in night/deal_notices.py; here are the day's and the game's:
the phase posts, the vote count's marks (a count now, a count carried in another post, the
day's final count, votes changed), deaths (the public line for a death by ability, a
Storyteller's `!kill` or `!revive` echoed where it was posted, the PM to the player who
died), the whisper notes (a whisper broken, the daily digest, a consult, too many whispers),
a vote in an unusual form, a token used up, and the game's end.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from .characters.public_roles import public_roles
from .characters.triggers import ABILITY_DEATH
from .deciding.count_facts import count_facts
from .deciding.voting import NOTE_NO_TOKEN_CAST
from .state.events import (
    DayEnded,
    Event,
    ExecutionCalled,
    Nominated,
    NominationClosed,
    PhaseChanged,
    PlayerDied,
    StorytellerConsultRequested,
    UsualFormSuggested,
    VoteCast,
    VoteLocked,
    VoteWithdrawn,
    WhisperBroken,
    WhisperLimitExceeded,
)
from .state.feature import CARRIED, CHANGED, COUNT, DAY_END, THREAD, Feature, Notice, to_player, to_storytellers, to_thread
from .state.model import GameState, Phase, iso
from .state.private_events import NightResolved
from .state.staff_events import (
    GameEnded,
    NominationCancelled,
    PlayerRevived,
    VoteCorrected,
    VoteCountRequested,
    VotesUnlocked,
)

CHANGED_VOTES = Notice(THREAD, "", "", count=CHANGED)  # no message: a count is owed


# -- the phases -------------------------------------------------------------------------------

def _phase(state: GameState, event: PhaseChanged, batch: Sequence[Event]) -> tuple[Notice, ...]:
    key = f"{event.phase.value}:{event.cycle}"
    told: list[Notice] = []
    if event.phase is Phase.NIGHT and event.cycle > 1 and \
            not any(isinstance(e, DayEnded) for e in batch):  # after a held night (NightHeld)
        told.append(to_thread("night_begins", key, cycle=event.cycle, starts=event.at,
                              deadline=event.ends_at, lock=_lock(state, event)))
    if event.phase is Phase.NIGHT and event.cycle == 1:
        told.append(to_thread("phase_night", key, cycle=1, private=state.setup.script is not None,
                              roles=public_roles(state), bot=state.setup.bot_username,
                              starts=event.at, deadline=event.ends_at, lock=_lock(state, event)))
    elif event.phase is Phase.DISCUSSION:
        dawn = next((e.deaths for e in batch if isinstance(e, NightResolved)), None)
        told.append(to_thread("phase_discussion", key, cycle=event.cycle, starts=event.at,
                              deadline=event.ends_at, deaths=dawn))
    elif event.phase is Phase.NOMINATION:
        told.append(to_thread("phase_nomination", key, cycle=event.cycle, starts=event.at,
                              deadline=event.ends_at))
    elif event.phase is Phase.VOTING:  # (a day may open and end in one batch: no post)
        ends = any(isinstance(e, DayEnded) for e in batch)
        told.append(Notice(THREAD, "phase_voting" if state.today and not ends else "", key,
                           count=CARRIED,
                           at=event.at, view={"voting_ends": event.ends_at,
                                              "count": count_facts(state, at=event.at)}))
    if event.phase in (Phase.NIGHT, Phase.DISCUSSION):  # closed at night, if the file says so
        closed = "closed" if event.phase is Phase.NIGHT else "open"
        told.append(Notice(THREAD, "", f"status:{key}", topic=closed))
    return tuple(told)


def _lock(state: GameState, night: PhaseChanged) -> datetime:
    return night.ends_at - timedelta(hours=state.setup.lengths.night_action_lock)


def _day_ended(state: GameState, event: DayEnded, batch: Sequence[Event]) -> tuple[Notice, ...]:
    """The day's final count, with the night it opens; then the Storytellers' whisper digest."""
    night = next((e for e in batch[batch.index(event):] if isinstance(e, PhaseChanged)), None)
    view: dict[str, Any] = {"cycle": night.cycle, "starts": night.at, "deadline": night.ends_at,
                            "lock": _lock(state, night)} \
        if night is not None else {"cycle": None}  # held: the Storytellers decide (NightHeld)
    view["count"] = count_facts(state, event.day, event.at)
    view["by_ability"] = any(isinstance(e, ExecutionCalled) for e in batch)  # the Virgin's
    final = Notice(THREAD, "day_end", f"end:{event.day}", count=DAY_END, at=event.at,
                   day=event.day, view=view)
    return (final, *_digest(state, event))


def _digest(state: GameState, event: DayEnded) -> tuple[Notice, ...]:
    day = next((d for d in state.past_days if d.number == event.day), None)
    ledger = state.ledger
    counts = ledger.count(event.day) if ledger else {}
    flags = [f for f in (ledger.flags if ledger else ()) if f.day == event.day]
    if day is None or not (day.whispers or counts or flags or day.consults):
        return ()
    return (to_storytellers("whisper_digest", f"whisper-digest:{event.day}", day=day,
                            counts=counts, flags=flags),)


# -- the vote count ---------------------------------------------------------------------------

def _count(state: GameState, reason: str, at: datetime) -> Notice:
    """A vote count of its own, carrying its facts (count_facts: the numbers it shows)."""
    return Notice(THREAD, "votecount", reason, count=COUNT, at=at,
                  view={"count": count_facts(state, at=at)})


def _nominated(state: GameState, event: Nominated, batch: Sequence[Event]) -> tuple[Notice, ...]:
    """A count as a nomination opens, unless the day ends with it (the Virgin's nominator
    executed at once: the day's post counts)."""
    if any(isinstance(e, DayEnded) for e in batch):
        return ()
    return (_count(state, f"open:{event.kind}:{event.nominee}", event.at),)


def _closed(state: GameState, event: NominationClosed, batch: Sequence[Event]) -> tuple[Notice, ...]:
    """A count as a nomination closes, unless the day ends with it (the day's post counts)."""
    if any(isinstance(e, DayEnded) for e in batch):
        return ()
    return (_count(state, f"closed:{event.kind}:{event.nominee}", event.at),)


def _requested(state: GameState, event: VoteCountRequested, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    return (_count(state, "requested", event.at),) if state.today else ()


def _cancelled(state: GameState, event: NominationCancelled, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    return (_count(state, "cancelled", event.at),) if state.today else ()


def _changed(_state: GameState, _event: Event, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    return (CHANGED_VOTES,)


def _locked(state: GameState, event: VoteLocked, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    """Votes changed; a dead voter whose execute vote counted as a pardon (no token) is told."""
    if event.vote.note != NOTE_NO_TOKEN_CAST:
        return (CHANGED_VOTES,)
    day = state.current_day.number if state.today else state.cycle
    return (CHANGED_VOTES, to_player(
        event.vote.player, "token_note", f"token:{day}:{event.nominee}:{event.vote.player}",
        nominee=event.nominee, note=event.vote.note))


# -- deaths and the end -----------------------------------------------------------------------

def _died(state: GameState, event: PlayerDied, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    """A death by ability is announced (never explained); one by a Storyteller's command is
    echoed where the command was posted; the player is told how their vote works now."""
    told: list[Notice] = []
    if event.cause == ABILITY_DEATH:
        told.append(to_thread("public_life", f"died:{event.player}:{iso(event.at)}",
                              player=event.player, alive=False))
    if event.cause not in ("execution", "exile"):  # those have posts of their own
        told.append(_echo(event.player, alive=False))
    seat = state.seat(event.player)
    told.append(to_player(event.player, "death_notice", f"died:{event.player}:{iso(event.at)}",
                          cause=event.cause, at=event.at,
                          traveller=bool(seat and seat.traveller),
                          ghost_vote=bool(seat and seat.ghost_vote)))
    return tuple(told)


def _revived(_state: GameState, event: PlayerRevived, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    return (_echo(event.player, alive=True),)


def _echo(player: str, *, alive: bool) -> Notice:
    return Notice(THREAD, "public_life", f"life:{player}", {"player": player, "alive": alive},
                  echo=True)


def _game_over(state: GameState, event: GameEnded, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    """The end, with the winning team in the script's words (BotF: the Loyal, the Cultists)."""
    return (to_thread("game_over", "game-over", winner=event.winner,
                      team=state.setup.terms.alignment(event.winner), reason=event.reason,
                      at=event.at),)


# -- whispers and forms -----------------------------------------------------------------------

def _whisper_broken(_state: GameState, event: WhisperBroken, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    return tuple(to_player(member, "whisper_broken",
                           f"whisper-broken:{event.requester}:{event.request_post}:{member}",
                           by=event.by, post_number=event.post_number,
                           others=[m for m in event.members if m != member])
                 for member in event.members)


def _form(_state: GameState, event: UsualFormSuggested, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    return (to_player(event.player, "form_hint", f"form:{event.post_number}:{event.form}",
                      post_number=event.post_number, form=event.form),)


def _whisper_limit(_state: GameState, event: WhisperLimitExceeded, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    return (to_storytellers("whisper_limit", f"whisper-limit:{event.player}:{event.post_number}",
                            player=event.player, count=event.count, limit=event.limit,
                            post_number=event.post_number),)


def _consult(_state: GameState, event: StorytellerConsultRequested, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    return (to_storytellers("consult", f"consult:{event.player}:{event.post_number}",
                            player=event.player, post_number=event.post_number),)


FEATURE = Feature(
    "the day's and the game's notices",
    notices={PhaseChanged: _phase, DayEnded: _day_ended, Nominated: _nominated,
             NominationClosed: _closed, VoteCountRequested: _requested,
             NominationCancelled: _cancelled, VoteCast: _changed, VoteWithdrawn: _changed,
             VoteCorrected: _changed, VotesUnlocked: _changed, VoteLocked: _locked,
             PlayerDied: _died, PlayerRevived: _revived, GameEnded: _game_over,
             WhisperBroken: _whisper_broken, UsualFormSuggested: _form,
             WhisperLimitExceeded: _whisper_limit, StorytellerConsultRequested: _consult},
)

__all__ = ["FEATURE"]
