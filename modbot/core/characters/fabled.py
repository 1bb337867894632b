"""Theory of operation: the once-per-game Fabled of seed 001 (Fibbin, the Revolutionary, the
Fiddler), which the Storytellers run and the bot keeps track of.

Fibbin ("once per game, 1 good player might get incorrect information") and the Revolutionary
("once per game, one of them registers falsely") are the Storytellers' choices: while unused,
each night sheet recalls them in a first entry (`sheet_entries`); the Storytellers give the
false answer with `!result` and mark the power spent with `!used NAME`.

The Fiddler: "once per game, at night, the Demon secretly chooses a player of an opposing
alignment; all players then vote which of these two wins the game." The Demon's `/fiddle X`
(characters/helpers.py) is shown on the night sheet, checked against the true alignments, with the
command that opens the vote: `!fiddle DEMON X` announces the two players in the thread (never
which is the Demon) and every player (dead ones too; not travellers) posts `/fiddle NAME`, the
latest counting, for `FIDDLE_VOTE`. At the end the counts are posted and the Storytellers are
told who wins: the team of the player with more votes; a tie goes to good (seed 001: "In the
event of a tie, Loyals win"). As with every win, only `!win` announces it.
`FEATURE` hands its commands, rules and events to the registry.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from ..deciding.rules import reject
from ..reading.command_forms import Command
from ..reading.commands import _name
from ..state.actions import Context, Fiddle
from ..state.events import Event
from ..state.feature import Feature, Notice, Timer, to_thread
from ..state.grimoire import alignment_of, players_of_team
from ..state.ids import HELLS_LIBRARIAN
from ..state.model import GameState, iso
from ..state.names import Roster
from ..state.night_model import SheetEntry
from ..state.private_events import night_of
from ..state.public_model import FiddleVote
from ..state.rejection import Refused, Rejection
from ..state.slots import Slot
from ..wording import say
from . import fabled_notes
from .wins import WinDetected

FIDDLE_VOTE = timedelta(hours=24)
ONCE = ("fibbin", "revolutionary", "fiddler")


@dataclass(frozen=True, slots=True)
class FabledState:
    """The Fabled's part of the game's state."""

    used: tuple[str, ...] = ()  # once-per-game Fabled spent
    fiddle: FiddleVote | None = None  # the Fiddler's vote under way


FABLED = Slot("fabled", FabledState())



@dataclass(frozen=True, slots=True)
class StUsed:
    fabled: str


@dataclass(frozen=True, slots=True)
class StFiddle:
    players: tuple[str, str]


@dataclass(frozen=True, slots=True)
class FabledUsed:
    fabled: str
    by: str
    at: datetime


@dataclass(frozen=True, slots=True)
class FiddleOpened:
    players: tuple[str, str]
    ends_at: datetime
    at: datetime


@dataclass(frozen=True, slots=True)
class FiddleVoted:
    player: str
    target: str
    post_number: int | None
    at: datetime


@dataclass(frozen=True, slots=True)
class FiddleEnded:
    counts: tuple[tuple[str, int], ...]
    chosen: str | None  # None: a tie
    at: datetime


# -- the night sheet ----------------------------------------------------------------------------

def silence_may_be_called(state: GameState) -> bool:
    """The Hell's Librarian is in play: the Storytellers may call a silence (`!silence`)."""
    return HELLS_LIBRARIAN in state.setup.fabled


def sheet_entries(state: GameState) -> list[SheetEntry]:
    """Reminders of the unused once-per-game Fabled, the Demon's /fiddle, and the rules of the
    official Fabled the Storytellers run (fabled_notes.py)."""
    unused = [f for f in state.setup.fabled if f in ONCE and f not in FABLED.of(state).used]
    out = []
    if "fibbin" in unused:
        out.append(SheetEntry("fibbin", None, "Fibbin", suggestion=say("sheet.fibbin")))
    if "revolutionary" in unused:
        pair = state.setup.revolutionary or say("sheet.revolutionary_unset")
        out.append(SheetEntry("revolutionary", None, "Revolutionary",
                              suggestion=say("sheet.revolutionary", pair=pair)))
    if "fiddler" in unused:
        out += _fiddler_entry(state)
    return out + fabled_notes.entries(state)  # the official Fabled the Storytellers run


def _fiddler_entry(state: GameState) -> list[SheetEntry]:
    demons = players_of_team(state, "demon")
    chosen = [c for c in night_of(state, state.cycle).helping("fiddler") if c.player in demons]
    if not chosen:
        return []
    demon, target = chosen[-1].player, chosen[-1].players[0]
    if alignment_of(state, target) == alignment_of(state, demon):
        text = say("sheet.fiddler_same", player=target)
    else:
        text = say("sheet.fiddler", player=target, demon=demon)
    return [SheetEntry("fiddler", demon, "Fiddler", say("choice.players", players=(target,)), (),
                       text)]


# -- the vote ---------------------------------------------------------------------------------

def due(state: GameState) -> datetime | None:
    fiddle = FABLED.of(state).fiddle
    return fiddle.ends_at if fiddle is not None else None


def _vote_due(state: GameState) -> datetime | None:
    """The vote's end, while it falls within the phase (the phase's end comes first)."""
    ends = due(state)
    return ends if ends is not None and ends <= state.phase_ends_at else None


def resolve(state: GameState, at: datetime) -> list[Event]:
    vote = _running(state)
    counts = {p: sum(1 for _, t in vote.votes if t == p) for p in vote.players}
    first, second = vote.players
    chosen = None if counts[first] == counts[second] else \
        (first if counts[first] > counts[second] else second)
    events: list[Event] = [FiddleEnded(tuple(counts.items()), chosen, at)]
    if chosen is None:
        events.append(WinDetected("good", say("win.fiddler_tie"),
                                  at))
    else:
        winner = alignment_of(state, chosen) or "good"
        events.append(WinDetected(winner, say("win.fiddler", player=chosen), at))
    return events


def _used_words(words: list[str], _roster: Roster) -> StUsed:
    if len(words) != 1:
        raise Refused("used_fabled")
    return StUsed(words[0].casefold().replace("'", ""))


def _fiddle_words(words: list[str], roster: Roster) -> StFiddle:
    first, rest = _name(words, roster)
    second, rest = _name(rest, roster)
    if rest:
        raise Refused("unexpected", text=" ".join(rest))
    return StFiddle((first, second))


def _used(state: GameState, action: StUsed, ctx: Context) -> Sequence[Event] | Rejection:
    if action.fabled not in ONCE or action.fabled not in state.setup.fabled:
        return reject(ctx, "not_once_fabled", text=action.fabled,
                      fabled=tuple(state.setup.fabled) or say("count.nothing"))
    if action.fabled in FABLED.of(state).used:
        return reject(ctx, "fabled_used", name=action.fabled.capitalize())
    return (FabledUsed(action.fabled, ctx.author, ctx.at),)


def _open(state: GameState, action: StFiddle, ctx: Context) -> Sequence[Event] | Rejection:
    if "fiddler" not in state.setup.fabled:
        return reject(ctx, "not_once_fabled", text="Fiddler",
                      fabled=tuple(state.setup.fabled) or say("count.nothing"))
    if "fiddler" in FABLED.of(state).used or FABLED.of(state).fiddle is not None:
        return reject(ctx, "fabled_used", name="Fiddler")
    first, second = action.players
    if first == second or state.seat(first).traveller or state.seat(second).traveller:
        return reject(ctx, "fiddle_players")
    return (FabledUsed("fiddler", ctx.author, ctx.at),
            FiddleOpened(action.players, ctx.at + state.setup.window(FIDDLE_VOTE), ctx.at))


def _vote(state: GameState, action: Fiddle, ctx: Context) -> Sequence[Event] | Rejection:
    vote = FABLED.of(state).fiddle
    if vote is None or ctx.at >= vote.ends_at or state.seat(ctx.author).traveller:
        return reject(ctx, "no_fiddle")
    if action.target not in vote.players:
        return reject(ctx, "fiddle_between", players=tuple(vote.players))
    return (FiddleVoted(ctx.author, action.target, ctx.post_number, ctx.at),)


def _applied_used(state: GameState, e: FabledUsed) -> GameState:
    held = FABLED.of(state)
    return FABLED.put(state, replace(held, used=(*held.used, e.fabled)))


def _applied_opened(state: GameState, e: FiddleOpened) -> GameState:
    return FABLED.put(state, replace(FABLED.of(state), fiddle=FiddleVote(e.players, e.ends_at)))


def _applied_voted(state: GameState, e: FiddleVoted) -> GameState:
    vote = _running(state)
    votes = (*tuple(v for v in vote.votes if v[0] != e.player), (e.player, e.target))
    return FABLED.put(state, replace(FABLED.of(state), fiddle=replace(vote, votes=votes)))


def _running(state: GameState) -> FiddleVote:
    """The Fiddler's vote, where its timer or a vote on it guarantees one runs."""
    fiddle = FABLED.of(state).fiddle
    if fiddle is None:
        raise ValueError("the Fiddler's vote is not running")
    return fiddle


def _applied_ended(state: GameState, _e: FiddleEnded) -> GameState:
    return FABLED.put(state, replace(FABLED.of(state), fiddle=None))


def _told_opened(_state: GameState, event: FiddleOpened, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    return (to_thread("fiddle", f"fiddle-start:{iso(event.at)}", players=event.players,
                      ended=False, deadline=event.ends_at),)


def _told_ended(_state: GameState, event: FiddleEnded, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    return (to_thread("fiddle", f"fiddle-end:{iso(event.at)}", counts=event.counts,
                      ended=True),)


FEATURE = Feature(
    "fabled",
    appliers={FabledUsed: _applied_used, FiddleOpened: _applied_opened,
              FiddleVoted: _applied_voted, FiddleEnded: _applied_ended},
    rules={Fiddle: _vote},
    staff_rules={StUsed: _used, StFiddle: _open},
    commands=(
        Command("used", "!used FABLED", say("help.used"), "!used Fibbin",
                _used_words),
        Command("fiddle", "!fiddle DEMON PLAYER",
                say("help.fiddle", hours=round(FIDDLE_VOTE.total_seconds() / 3600)),
                "!fiddle Ellen Alex", _fiddle_words),
    ),
    command_of={StUsed: "used", StFiddle: "fiddle"},
    timers=(Timer("the Fiddler's vote ends", _vote_due, resolve),),
    notices={FiddleOpened: _told_opened, FiddleEnded: _told_ended},
    slots=(FABLED,),
)

__all__ = ["FIDDLE_VOTE", "FabledUsed", "Fiddle", "FiddleEnded", "FiddleOpened", "FiddleVoted",
           "due", "resolve", "sheet_entries"]
