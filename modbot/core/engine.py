"""Theory of operation: drive the game forward, one post or one moment at a time.

- `advance(state, now)` applies every time-triggered rule up to `now`: phase changes at their
  scheduled instants and, at the end of the voting window, the end of the day (remaining votes
  lock in clock order, uncast = pardon; the player about to die is executed; night begins).
- `settle(run, at)` runs the state-triggered rules to a fixed point, as h11 does: lock every
  vote the clock hand reaches, close nominations whose every vote is locked, resolve exiles,
  and end the day early in the voting window once every vote of the day is locked (a day
  with no nomination at all runs to its scheduled end).
- `act(state, action, ctx)` = decide, apply, settle. A rejection leaves the state unchanged.
- `handle_post(state, post)` = advance to the post's `created_at`, parse it, act on each
  action in document order; a Storyteller's post runs its `!` commands instead (console.py),
  each through `act_staff`, which also runs the phase ends a command causes.

Every function returns the new state and the events that produced it; the caller stores the
state (or the events) and never needs to replay history to handle the next post.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from .characters import public_abilities, triggers, wins
from .command_line import storyteller_lines_by
from .console import CommandReport, run_commands
from .day_end import begin_night, end_day, end_phase, settle
from .deciding import activity
from .deciding.rules import whispers_broken_by
from .night import commands as night_commands
from .night import flow as nightflow
from .night.private import handle_private
from .reading.parser import parse_post
from .reading.pm_lines import day_lines
from .reading.textclean import countable_text
from .registry import TIMERS, apply, decide, decide_staff
from .state.actions import Context
from .state.events import (
    DayEnded,
    Event,
    ExecutionCalled,
    UsualFormSuggested,
)
from .state.feature import Timer
from .state.model import GameState
from .state.rejection import Rejection
from .state.staff_actions import StEndDay, StExecute, StNextPhase
from .state.staff_events import PhaseExtended
from .wording import say


@dataclass(frozen=True, slots=True)
class Post:
    """A forum post as the core needs it: the one shape of a post or PM across the app and
    the core (the app makes it from the forum's `ForumPost`, stores it as an input row, and
    folds it back from that row); `post_id`, the forum's id, is the app's (the core reads
    none of it)."""

    post_number: int
    author: str
    created_at: datetime
    raw: str
    post_id: int | None = None


@dataclass(frozen=True, slots=True)
class Outcome:
    state: GameState
    events: tuple[Event, ...]
    rejections: tuple[Rejection, ...] = ()
    command: CommandReport | None = None  # a Storyteller's post of `!` commands
    carried_actions: bool = False  # a player's post asked for something (the edit sweep's test)
    ignored_commands: bool = False  # a player's post held `!` lines only a Storyteller may give


class _Run:
    """Accumulates events while applying them (local to one call: the core stays pure)."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.state = apply(self.state, event)
        self.events.append(event)
        for consequence in triggers.after(self.state, event):  # the Witch, the Scarlet Woman
            self.emit(consequence)


def advance(state: GameState, now: datetime) -> Outcome:
    return _with_wins(_advance(state, now), now)


def next_due(state: GameState) -> datetime | None:
    """The next moment a time-triggered rule applies (what `advance` would do first), or None
    while nothing waits on the clock (a night waiting for approval, a finished game)."""
    first = _first_due(state)
    return first[0] if first else None


def _phase_end_due(state: GameState) -> datetime | None:
    """The phase's end, unless a dealt night runs by its own milestones (night/flow.py) or a
    night waits for the Storytellers' decision on a win (no clock: `!phase next` or `!win`)."""
    if state.night_held or nightflow.is_managed(state):
        return None
    return state.phase_ends_at


PHASE_END = Timer("the phase ends", _phase_end_due, lambda _state, _at: ())  # see _run_due


def _first_due(state: GameState) -> tuple[datetime, Timer] | None:
    """The earliest time-triggered rule of the features' table, then the phase's end (a tie
    goes to the table's order), or None while paused, over, or waiting on no clock."""
    if state.paused_at is not None or state.winner is not None:
        return None
    first: tuple[datetime, Timer] | None = None
    for timer in (*TIMERS, PHASE_END):  # the features' timed rules, then the phase's end
        at = timer.due(state)
        if at is not None and (first is None or at < first[0]):  # a tie: the earlier entry
            first = (at, timer)
    return first


def _advance(state: GameState, now: datetime) -> Outcome:
    """Every time-triggered rule up to `now`, without the win check (the caller makes it
    once, after whatever else it handles)."""
    first = _first_due(state)
    if first is None or first[0] > now:
        return Outcome(state, ())  # the usual case between two posts: nothing due
    run = _Run(state)
    _run_due(run, now)
    return Outcome(run.state, tuple(run.events))


def _with_wins(outcome: Outcome, at: datetime) -> Outcome:
    """Tell the Storytellers when the game looks over (they confirm with !win). Checked once
    a whole post or moment has been handled, so deaths in one post count together."""
    ended = any(isinstance(e, DayEnded) for e in outcome.events)
    found = wins.check(outcome.state, at, day_ended=ended)
    if not found:
        return outcome  # the usual case: nothing owed, nothing rebuilt
    run = _Run(outcome.state)
    run.events = list(outcome.events)
    for event in found:
        run.emit(event)
    return Outcome(run.state, tuple(run.events), outcome.rejections, outcome.command,
                   outcome.carried_actions, outcome.ignored_commands)


def _run_due(run: _Run, now: datetime) -> None:
    """Every time-triggered rule up to `now`, the earliest first (one table: `_first_due`);
    stops at a night that waits for the Storytellers' approval."""
    while (first := _first_due(run.state)) is not None and first[0] <= now:
        at, timer = first
        if timer is PHASE_END:
            end_phase(run, at)  # the engine's own: the day's end runs through its rules
            continue
        for event in timer.fire(run.state, at):
            run.emit(event)


def act(state: GameState, action: object, ctx: Context) -> Outcome:
    """One player action: decide, apply, settle. A rejection leaves the state unchanged."""
    return _carry_out(state, decide(state, action, ctx), ctx)


def act_staff(state: GameState, action: object, ctx: Context) -> Outcome:
    """One Storyteller command: decide, apply, run any phase end it causes, settle."""
    return _carry_out(state, decide_staff(state, action, ctx), ctx,
                      lambda run: _staff_phase_ends(run, action, ctx.at))


def _carry_out(state: GameState, decided: Sequence[Event] | Rejection, ctx: Context,
               then: Callable[[_Run], None] | None = None) -> Outcome:
    if isinstance(decided, Rejection):
        return Outcome(state, (), (decided,))
    run = _Run(state)
    for event in decided:
        run.emit(event)
    if then is not None:
        then(run)
    _called_executions(run)
    settle(run, ctx.at)
    return Outcome(run.state, tuple(run.events))


def _called_executions(run: _Run) -> None:
    """An execution a rule called (the Virgin's): the day ends with it, as with `!execute`."""
    called = next((e for e in run.events if isinstance(e, ExecutionCalled)), None)
    if called is not None and run.state.phase.is_day:
        end_day(run, called.at, condemned=called.player)


def _staff_phase_ends(run: _Run, action: object, at: datetime) -> None:
    if isinstance(action, StNextPhase) and run.state.night_held:  # the STs go on: night
        begin_night(run, at)
    _run_due(run, at)  # an early end, an approved night (or a deadline now past)
    if isinstance(action, StExecute):
        end_day(run, at, condemned=action.player)
    if isinstance(action, StEndDay):
        while run.state.phase.is_day:
            run.emit(PhaseExtended(run.state.phase, run.state.cycle, at, at))
            end_phase(run, at)


def handle_post(state: GameState, post: Post) -> Outcome:
    """Advance to the post's time, then act on what it says: a player's actions, or a
    Storyteller's `!` commands (all or nothing). The bot's own posts do nothing."""
    return _with_wins(_handle_post(state, post), post.created_at)


def _handle_post(state: GameState, post: Post) -> Outcome:
    advanced = _advance(state, post.created_at)
    state, events = advanced.state, list(advanced.events)
    setup = state.setup
    if post.author.casefold() == setup.bot_username.casefold():
        return Outcome(state, tuple(events))
    if setup.is_storyteller(post.author):
        ctx = Context(post.author, post.created_at, post.post_number)
        state, done, report = run_commands(state, post.author, post.raw, ctx, act_staff)
        return Outcome(state, tuple(events) + done, (), report)
    parsed = parse_post(post.raw, setup.roster, state.open_nominees(), setup.storytellers,
                        count_spoilers=setup.count_spoilers, forms=setup.vote_forms,
                        bot=setup.bot_username)
    ctx = Context(post.author, post.created_at, post.post_number)
    rejections: list[Rejection] = []
    if not state.is_seated(post.author):
        if parsed.actions:
            rejections.append(Rejection("not_a_player", {}, post.author, post.created_at,
                                        post.post_number))
        return Outcome(state, tuple(events), tuple(rejections),
                       ignored_commands=storyteller_lines_by(post.raw, setup.roster))
    for r in parsed.rejections:
        candidates = r.params.get("candidates")
        rejections.append(r.placed(post.author, post.created_at, post.post_number,
                                   suggest=say("hint.did_you_mean", names=candidates)
                                   if candidates else "", open=len(state.open_nominees())))
    events.extend(UsualFormSuggested(post.author, post.post_number, form, post.created_at)
                  for form in parsed.hints if parsed.actions)
    posted = activity.PlayerPosted(post.author, post.post_number, post.created_at)
    state = apply(state, posted)
    events.append(posted)
    state = _act_all(state, parsed.actions, ctx, events, rejections)
    broken = whispers_broken_by(state, post.author, post.post_number, post.created_at) + public_abilities.secret_word_said(
        state, post.author, countable_text(post.raw), post.post_number, post.created_at) + \
        night_commands.silence_broken(state, post.author, post.post_number, post.created_at)
    for event in broken:
        state = apply(state, event)
    return Outcome(state, tuple(events) + broken, tuple(rejections),
                   carried_actions=bool(parsed.actions),
                   ignored_commands=storyteller_lines_by(post.raw, setup.roster))


def handle_pm(state: GameState, post: Post, participants: tuple[str, ...]) -> Outcome:
    """A private message to (or seen by) the bot: a Storyteller's commands, a player's night
    commands in their own channel, or a whisper between players to check. `participants`:
    the lower-case usernames of the conversation."""
    if state.setup.is_storyteller(post.author) or \
            post.author.casefold() == state.setup.bot_username.casefold():
        return handle_post(state, post)
    advanced = advance(state, post.created_at)
    if not advanced.state.is_seated(post.author):
        return advanced
    day, raw = day_lines(post.raw)
    state, events = advanced.state, advanced.events
    rejections: tuple[Rejection, ...] = ()
    if day.strip():  # `/vc`, `/away`, `/back` in the player's PM: as in the thread
        outcome = _day_commands(state, post, day)
        state, events, rejections = outcome.state, events + outcome.events, outcome.rejections
    if not raw.strip():
        return Outcome(state, events, rejections)
    private = handle_private(state, post.author, post.created_at, post.post_number,
                             raw, participants, apply, decide)
    return Outcome(private.state, events + private.events, rejections + private.rejections)


def _day_commands(state: GameState, post: Post, day: str) -> Outcome:
    """A PM's day commands, read with the thread's grammar (a bad one is answered)."""
    parsed = parse_post(day, state.setup.roster, bot=state.setup.bot_username)
    ctx = Context(post.author, post.created_at, post.post_number)
    events: list[Event] = []
    rejections = [r.placed(post.author, post.created_at, post.post_number)
                  for r in parsed.rejections]
    state = _act_all(state, parsed.actions, ctx, events, rejections)
    return Outcome(state, tuple(events), tuple(rejections))


def _act_all(state: GameState, actions: Iterable[object], ctx: Context, events: list[Event],
             rejections: list[Rejection]) -> GameState:
    """A post's actions in order, each on the state the one before left; their events and
    rejections added to `events` and `rejections`."""
    for action in actions:
        outcome = act(state, action, ctx)
        state = outcome.state
        events.extend(outcome.events)
        rejections.extend(outcome.rejections)
    return state
