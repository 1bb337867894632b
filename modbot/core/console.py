"""Theory of operation: one Storyteller post of `!` commands, applied all or nothing.

1. Parse every `!` line. Any line that does not parse: nothing applies; the report lists why.
2. `!confirm` takes the author's pending commands (asked within the last 10 minutes of forum
   time) and runs them first.
3. A destructive command (kill, revive, end the day) without `--yes` is not run: the post's
   commands become pending, and the report says exactly what would happen.
4. Otherwise the commands run in document order on a scratch state; if one is refused, the
   scratch state is dropped (nothing applies) and the report lists the refusal.
The report (`CommandReport`) is data; the shell renders it for the ST.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Protocol, cast

from .command_line import help_text, line_of, parse_commands
from .deciding.staff import team_code
from .reading.command_forms import Accept, CommandLine, Confirm, Help, Log, Release, Status, Undo
from .registry import COMMAND_OF, COMMANDS, apply
from .state.actions import Context
from .state.events import Event, Executed, NightHeld
from .state.model import GameState
from .state.rejection import Rejection
from .state.staff_actions import (
    DESTRUCTIVE,
    StEndDay,
    StExecute,
    StExile,
    StKill,
    StObserver,
    StRevive,
    StSeat,
    StSub,
    StWin,
)
from .state.staff_events import ConfirmationRequested, ConfirmationSettled
from .wording import Say, say

CONFIRM_WITHIN = timedelta(minutes=10)
Said = Say | tuple[Say, ...]  # what to tell, written by the catalogue


class Acted(Protocol):
    """What carrying out one command gave (the engine's `Outcome`)."""

    @property
    def state(self) -> GameState: ...

    @property
    def events(self) -> tuple[Event, ...]: ...

    @property
    def rejections(self) -> tuple[Rejection, ...]: ...


ActStaff = Callable[[GameState, object, Context], Acted]  # the engine's act_staff


@dataclass(frozen=True, slots=True)
class CommandReport:
    by: str
    post_number: int | None
    applied: tuple[str, ...] = ()
    failed: tuple[tuple[str, Said], ...] = ()  # (line, why)
    to_confirm: tuple[tuple[str, Said], ...] = ()  # (line, what would happen)
    help: tuple[dict[str, Any], ...] = ()
    seats: tuple[str, ...] = ()  # the seat order, after the commands (for !seat)
    log: int | None = None  # the ST asked for the last N events (the shell keeps the history)
    status: bool = False  # the ST asked for the whole state
    undo: tuple[Any, bool] | None = None  # (the Undo, confirmed): the shell replays
    accept: int | None = None  # the post id of a held late post to count: the shell replays

    @property
    def says_anything(self) -> bool:
        """The report has something to tell (a query that answers itself leaves it empty)."""
        return bool(self.applied or self.failed or self.to_confirm or self.help or self.seats
                    or self.log is not None or self.status or self.undo or self.accept)


def run_commands(state: GameState, author: str, raw: str, ctx: Context,
                 act_staff: ActStaff) -> tuple[GameState, tuple[Event, ...], CommandReport | None]:
    """Return (state, events, report) for one ST post; report is None without commands."""
    lines = parse_commands(raw, state.setup.roster)
    if not lines:
        return state, (), None
    asked_log = next((line.action.count for line in lines if isinstance(line, CommandLine)
                      and isinstance(line.action, Log)), None)
    report: dict[str, Any] = dict(by=author, post_number=ctx.post_number, log=asked_log,
                  status=any(isinstance(line, CommandLine) and isinstance(line.action, Status)
                             for line in lines))
    help_lines = tuple(row for line in lines if isinstance(line, CommandLine)
                       and isinstance(line.action, Help) for row in help_text(line.action.topic))
    errors = tuple((line_of(line), line.said("command", omit=("line",))) for line in lines
                   if isinstance(line, Rejection))
    undos = [line for line in lines if isinstance(line, CommandLine) and isinstance(line.action, Undo)]
    if undos and len(lines) > 1:
        errors += ((undos[0].line, say("console.undo_alone")),)
    elif undos:
        report["undo"] = (cast(Undo, undos[0].action), undos[0].confirmed)
    accepts = [line for line in lines if isinstance(line, CommandLine) and isinstance(line.action, Accept)]
    if accepts and len(lines) > 1:
        errors += ((accepts[0].line, say("console.accept_alone")),)
    elif accepts:
        report["accept"] = cast(Accept, accepts[0].action).post_id
    errors += tuple((line.line, say("console.release_alone")) for line in lines
                    if isinstance(line, CommandLine) and isinstance(line.action, Release))
    if errors:
        return state, (), CommandReport(**report, failed=errors, help=help_lines)
    parsed = [line for line in lines if isinstance(line, CommandLine)]  # no error left
    commands = [line for line in parsed
                if not isinstance(line.action, (Help, Confirm, Log, Status, Undo, Accept))]
    events: list[Event] = []
    if any(isinstance(line.action, Confirm) for line in parsed):
        pending = next((p for p in state.pending if p.by == author), None)
        if pending is None or pending.expires_at < ctx.at:
            minutes = round(state.setup.window(CONFIRM_WITHIN).total_seconds() / 60)
            return state, (), CommandReport(**report, failed=(
                ("!confirm", say("console.nothing_to_confirm", minutes=minutes)),),
                                            help=help_lines)
        commands = [CommandLine(line, action, True)
                    for line, action in zip(pending.lines, pending.actions, strict=False)] + commands
        events.append(ConfirmationSettled(author, True, ctx.at))
    scratch = _apply_events(state, events)
    effects: list[tuple[Event, ...]] = []
    for command in commands:  # all or nothing, on a scratch state
        outcome = act_staff(scratch, command.action, ctx)
        if outcome.rejections:
            why = tuple(r.said() for r in outcome.rejections)
            return state, (), CommandReport(**report, failed=((command.line, why),),
                                            help=help_lines)
        scratch = outcome.state
        effects.append(outcome.events)
    if any(isinstance(c.action, DESTRUCTIVE) and not c.confirmed for c in commands):
        request = ConfirmationRequested(
            author, tuple(c.line for c in commands), tuple(c.action for c in commands),
            ctx.at + state.setup.window(CONFIRM_WITHIN), ctx.post_number, ctx.at)
        described = tuple((c.line, describe(state, c.action, done))
                          for c, done in zip(commands, effects, strict=False))
        return _apply_events(state, [request]), (request,), \
            CommandReport(**report, to_confirm=described, help=help_lines)
    events.extend(e for done in effects for e in done)
    seats = tuple(s.name for s in scratch.seats) if any(
        isinstance(c.action, StSeat) for c in commands) else ()
    return scratch, tuple(events), CommandReport(  # a query's own answer is its report
        **report, applied=tuple(c.line for c in commands
                                if not getattr(c.action, "answers_itself", False)),
        help=help_lines, seats=seats)


def lone_release(raw: str, state: GameState) -> tuple[Release, bool] | None:
    """The post is a lone `!retry qN` or `!discard qN` (with `--yes`: confirmed), which the
    shell carries out (its quarantine of inputs it could not handle): the release and whether
    it was confirmed; None for any other post."""
    lines = parse_commands(raw, state.setup.roster)
    if len(lines) != 1 or not isinstance(lines[0], CommandLine) \
            or not isinstance(lines[0].action, Release):
        return None
    return lines[0].action, lines[0].confirmed


def newcomers_named(raw: str, state: GameState) -> tuple[str, ...]:
    """The forum users a Storyteller's post would bring into the game: the new player of each
    `!sub OLD NEW`, each `!observer NAME` (so the shell can make sure, by their accounts, that
    the names are who they seem before the command runs: app/games/handling.py)."""
    lines = parse_commands(raw, state.setup.roster) if "!" in raw else []
    named = [line.action.new if isinstance(line.action, StSub) else line.action.name
             for line in lines if isinstance(line, CommandLine)
             and isinstance(line.action, (StSub, StObserver))]
    return tuple(dict.fromkeys(named))


def lone_status(raw: str, state: GameState) -> bool:
    """The post asks only for `!status` (what a Storyteller may ask of a held game)."""
    lines = parse_commands(raw, state.setup.roster)
    return bool(lines) and all(isinstance(line, CommandLine) and isinstance(line.action, Status)
                               for line in lines)


def _apply_events(state: GameState, events: Iterable[Event]) -> GameState:
    for event in events:
        state = apply(state, event)
    return state


def describe(state: GameState, action: object, effects: Sequence[Event]) -> Say:
    """What a command would do, from a dry run of it (`effects`: its events); other commands
    are described by their summary in the command table."""
    if isinstance(action, StKill):
        return say("confirm.kill", player=action.player)
    if isinstance(action, StRevive):
        return say("confirm.revive", player=action.player)
    held = next((e for e in effects if isinstance(e, NightHeld)), None)
    team = {"team": state.setup.terms.alignment(held.winner)} if held else {}
    if isinstance(action, StExecute):
        return say("confirm.execute_held" if held else "confirm.execute", player=action.player,
                   day=state.cycle, **team)
    if isinstance(action, StExile):
        return say("confirm.exile", player=action.player)
    if isinstance(action, StWin):
        code = team_code(state, action.winner)
        return say("confirm.win", winner=state.setup.terms.alignment(code) if code
                   else action.winner)
    if isinstance(action, StSub):
        return say("confirm.sub", old=action.old, new=action.new)
    if isinstance(action, StObserver):
        return say("confirm.observer", name=action.name)
    if isinstance(action, StEndDay):
        executed = next((e for e in effects if isinstance(e, Executed)), None)
        if executed is None:
            return say("confirm.end_day_held" if held else "confirm.end_day", day=state.cycle,
                       **team)
        return say("confirm.end_day_executing_held" if held else "confirm.end_day_executing",
                   day=state.cycle, player=executed.player, votes=executed.votes, **team)
    return COMMANDS[COMMAND_OF[type(action)]].summary

__all__ = ["CommandReport", "Rejection", "describe", "lone_release", "lone_status",
           "newcomers_named", "run_commands"]
