"""Theory of operation: the Judge's ruling (a Bad Moon Rising traveller).

"Once per game, if another player nominated, you may choose to force the current execution to
pass or fail." On a forum the Judge tells the Storytellers (a `/action` in its grimoire PM, or
in the thread), and they rule with `!judge pass NOMINEE` or `!judge fail NOMINEE`
(`ExecutionJudged`): the nomination is marked (`Nomination.judged`), and the day's count reads
it: a nomination forced to pass puts its nominee on the block whatever the votes, one forced to
fail never does (deciding/voting.py's `about_to_die`). Refused: by night, a nomination the
Judge made itself, a second ruling in the game, or while no sober and healthy Judge lives.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from ..deciding.rules import reject
from ..reading.command_forms import Command
from ..reading.commands import _name
from ..state.actions import Context
from ..state.events import Event
from ..state.feature import Feature
from ..state.grimoire import working_holders
from ..state.model import EXECUTION, GameState
from ..state.names import Roster
from ..state.rejection import Refused, Rejection
from ..wording import say

OUTCOMES = ("pass", "fail")


@dataclass(frozen=True, slots=True)
class StJudge:
    outcome: str  # pass | fail
    nominee: str


@dataclass(frozen=True, slots=True)
class ExecutionJudged:
    """The Judge forced today's nomination of `nominee` to pass or fail."""

    nominee: str
    outcome: str
    judge: str
    at: datetime


def _judge_of(state: GameState) -> str | None:
    return next(iter(working_holders(state, "judge")), None)


def _rule(state: GameState, action: StJudge, ctx: Context) -> Sequence[Event] | Rejection:
    if state.today is None:
        return reject(ctx, "wrong_phase", what="!judge", phase=state.phase.value)
    judge = _judge_of(state)
    if judge is None:
        return reject(ctx, "no_judge")
    if any(n.judged for d in state.days for n in d.nominations):
        return reject(ctx, "judge_used")
    nomination = state.current_day.nomination_of(action.nominee)
    if nomination is None:
        return reject(ctx, "not_nominated", nominee=action.nominee)
    if nomination.nominator == judge:
        return reject(ctx, "judge_own_nomination", judge=judge)
    return (ExecutionJudged(action.nominee, action.outcome, judge, ctx.at),)


def _judged(state: GameState, e: ExecutionJudged) -> GameState:
    day = state.current_day
    nomination = day.named_nomination(e.nominee, EXECUTION)
    return state.evolve(today=day.replace_nomination(replace(nomination, judged=e.outcome)))


def _words(words: list[str], roster: Roster) -> StJudge:
    if not words or words[0].casefold() not in OUTCOMES:
        raise Refused("judge_outcome")
    nominee, rest = _name(words[1:], roster)
    if rest:
        raise Refused("unexpected", text=" ".join(rest))
    return StJudge(words[0].casefold(), nominee)


FEATURE = Feature(
    "judge",
    appliers={ExecutionJudged: _judged},
    staff_rules={StJudge: _rule},
    commands=(Command("judge", "!judge pass|fail NOMINEE", say("help.judge"), "!judge fail Cal",
                      _words),),
    command_of={StJudge: "judge"},
)

__all__ = ["ExecutionJudged", "StJudge"]
