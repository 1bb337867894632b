"""Theory of operation: Trouble Brewing's Beggar and Scapegoat (travellers: their characters
are public, their alignments are not).

The Beggar "must use a vote token to vote; if a dead player gives theirs, it learns their
alignment". A player gives one with `/give BEGGAR` in the thread (`GiveToken`): a dead player
gives its ghost vote (spent: it cannot vote again) and the Beggar learns its alignment in its
grimoire PM; a living player gives once a day and keeps its own vote (modbot's reading: a
living player's token is not spent by voting). The thread is told who gave (a token handed
over is seen at the table). What the Beggar holds and uses is state/vote_tokens.py's, which
deciding/voting.py reads: a living Beggar's execute vote without a token counts as pardon.

The Scapegoat "might be executed instead" when a player of its alignment is executed: the
Storytellers' call, kept before the day ends as a reminder on the Scapegoat (`!reminder
PLAYER takes the execution`, `TAKES_EXECUTION`). When the votes execute a player of a living
Scapegoat's alignment, a Scapegoat with that reminder is executed instead (`instead_of`,
read by day_end.py: `ScapegoatExecuted`, told in the thread); without it the execution
stands and the Storytellers are told privately that the Scapegoat might have taken it. An
execution the Storytellers call themselves (`!execute`) is theirs as it stands.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from ..deciding.rules import reject
from ..state.actions import Context, GiveToken
from ..state.events import Event, Executed
from ..state.feature import Feature, Notice, to_player, to_storytellers, to_thread, unchanged
from ..state.grimoire import alignment_of, character_id
from ..state.ids import SCAPEGOAT
from ..state.model import GameState, iso
from ..state.rejection import Rejection
from ..state.vote_tokens import TOKENS_GIVEN, is_beggar

TAKES_EXECUTION = "takes the execution"  # the Storytellers' call, on the Scapegoat


@dataclass(frozen=True, slots=True)
class VoteTokenGiven:
    giver: str
    beggar: str
    dead: bool  # a dead giver's ghost vote is spent, and the Beggar learns its alignment
    day: int
    at: datetime


@dataclass(frozen=True, slots=True)
class ScapegoatExecuted:
    scapegoat: str
    instead_of: str
    at: datetime


def _give(state: GameState, action: GiveToken, ctx: Context) -> Sequence[Event] | Rejection:
    beggar, giver = action.target, ctx.author
    if not is_beggar(state, beggar) or not state.seat(beggar).alive:
        return reject(ctx, "give_not_beggar", player=beggar)
    if giver == beggar:
        return reject(ctx, "give_own")
    dead = not state.seat(giver).alive
    if dead and not state.seat(giver).ghost_vote:
        return reject(ctx, "give_no_token")
    if not dead and (beggar, giver, state.cycle) in TOKENS_GIVEN.of(state):
        return reject(ctx, "give_again")
    return (VoteTokenGiven(giver, beggar, dead, state.cycle, ctx.at),)


def _token_given(state: GameState, e: VoteTokenGiven) -> GameState:
    state = TOKENS_GIVEN.put(state, (*TOKENS_GIVEN.of(state), (e.beggar, e.giver, e.day)))
    return state.with_seat(replace(state.seat(e.giver), ghost_vote=False)) if e.dead else state


def _told_given(state: GameState, e: VoteTokenGiven, _batch: object) -> tuple[Notice, ...]:
    key = f"token:{e.giver}:{e.beggar}:{iso(e.at)}"
    public = to_thread("vote_token_given", key, giver=e.giver, beggar=e.beggar, dead=e.dead)
    if not e.dead:
        return (public,)
    learnt = to_player(e.beggar, "beggar_learns", f"{key}:learnt", giver=e.giver,
                       alignment=alignment_of(state, e.giver), terms=state.setup.terms)
    return (public, learnt)


def _scapegoats(state: GameState, condemned: str) -> list[str]:
    """The living Scapegoats of the condemned player's alignment (not the condemned)."""
    alignment = alignment_of(state, condemned)
    return [s.name for s in state.seats if s.alive and s.name != condemned and
            character_id(state, s.name) == SCAPEGOAT and alignment is not None and
            alignment_of(state, s.name) == alignment]


def instead_of(state: GameState, condemned: str) -> str | None:
    """The Scapegoat the Storytellers chose to take this execution, if any."""
    return next((g for g in _scapegoats(state, condemned)
                 if any(r.strip().casefold() == TAKES_EXECUTION
                        for r in state.grimoire_of(g).reminders)), None)


def _told_might(state: GameState, e: Executed, _batch: object) -> tuple[Notice, ...]:
    goats = _scapegoats(state, e.player)
    return tuple(to_storytellers("scapegoat_might", f"scapegoat:{e.player}:{iso(e.at)}:{g}",
                                 scapegoat=g, executed=e.player, reminder=TAKES_EXECUTION)
                 for g in goats)


def _told_taken(_state: GameState, e: ScapegoatExecuted, _batch: object) -> tuple[Notice, ...]:
    return (to_thread("scapegoat_executed", f"scapegoat-took:{e.scapegoat}:{iso(e.at)}",
                      scapegoat=e.scapegoat, instead_of=e.instead_of),)


FEATURE = Feature(
    "Trouble Brewing's Beggar and Scapegoat",
    appliers={VoteTokenGiven: _token_given, ScapegoatExecuted: unchanged},
    rules={GiveToken: _give},
    notices={VoteTokenGiven: _told_given, ScapegoatExecuted: _told_taken, Executed: _told_might},
    slots=(TOKENS_GIVEN,),
)

__all__ = ["FEATURE", "TAKES_EXECUTION", "ScapegoatExecuted", "VoteTokenGiven", "instead_of"]
