"""Theory of operation: the seal at the deal, and the grimoire reveal at the end.

When the characters are dealt, the thread gets the seal: the commitment to the grimoire as
dealt (seal.py), nothing else. When the game is over (a Storyteller's `!win`), `!reveal`
publishes the game's record (record.py) in the thread, in parts that each fit a Discourse post:
the grimoire (each seat's character as dealt, every change since with its night or day and who
made it, the bluffs, the winner, and the seal's text and salt), the nights (their choices and
what each player learned, `NIGHTS_A_POST` to a post), the timeline of the days (nominations
with their votes and thresholds, executions, exiles, deaths, `DAYS_A_POST` to a post) and each
player's votes. With `reveal = "auto"` in the game file it comes with the game's end; with
`"off"`, never. Before the end it is refused: hidden information stays hidden.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from .deciding.rules import reject
from .reading.command_forms import Command
from .reading.commands import _no_arguments
from .record import game_record
from .seal import commitment, sealed_as_dealt
from .state.actions import Context
from .state.events import Event
from .state.feature import THREAD, Feature, Notice, to_thread
from .state.model import GameState
from .state.private_events import CharactersDealt
from .state.rejection import Rejection
from .state.staff_actions import StReveal
from .state.staff_events import GameEnded
from .wording import Say, say

NIGHTS_A_POST = 4  # at most, and fewer when they are long (`POST_BUDGET`)
DAYS_A_POST = 4
POST_BUDGET = 24_000  # estimated characters a part may hold (an upper estimate): Discourse takes 32,000
REVEAL_TEMPLATES = ("reveal_grimoire", "reveal_nights", "reveal_timeline", "reveal_votes")


@dataclass(frozen=True, slots=True)
class GrimoireRevealed:
    by: str | None  # the Storyteller who asked (None: at the game's end, `reveal = "auto"`)
    at: datetime


def _reveal(state: GameState, _action: StReveal, ctx: Context) -> Sequence[Event] | Rejection:
    if state.setup.reveal == "off":
        return reject(ctx, "reveal_off")
    if state.setup.script is None or not state.dealt:
        return reject(ctx, "reveal_no_grimoire")
    if state.winner is None:
        return reject(ctx, "reveal_not_over")
    if state.revealed:
        return reject(ctx, "reveal_done")
    return (GrimoireRevealed(ctx.author, ctx.at),)


def reveal_notices(state: GameState) -> tuple[Notice, ...]:
    """The reveal's posts, in order (each keyed by its part, so it is posted once)."""
    record = game_record(state)
    told = [to_thread("reveal_grimoire", "reveal:grimoire", record=record)]
    for part in packed(record["nights"], NIGHTS_A_POST):
        told.append(to_thread("reveal_nights", f"reveal:nights:{part[0]['number']}",
                              nights=part, game=record["game"]))
    for part in packed(record["days"], DAYS_A_POST):
        told.append(to_thread("reveal_timeline", f"reveal:timeline:{part[0]['number']}",
                              days=part, game=record["game"]))
    for number, part in enumerate(packed(record["votes"], len(record["votes"]))):
        told.append(to_thread("reveal_votes", "reveal:votes" + (f":{number + 1}" if number else ""),
                              votes=part, game=record["game"]))
    return tuple(told)


def packed(rows: list[Any], most: int) -> list[list[Any]]:
    """Rows in order, as few to a part as `most` and `POST_BUDGET` allow (a row bigger than
    the budget is a part of its own). The words are the shell's, so a row's size is estimated
    from its values: what a person wrote counts in full, a message a fixed allowance."""
    parts: list[list[Any]] = []
    size = 0
    for row in rows:
        weight = estimated_size(row)
        if not parts or len(parts[-1]) >= most or size + weight > POST_BUDGET:
            parts.append([])
            size = 0
        parts[-1].append(row)
        size += weight
    return parts


def estimated_size(value: object) -> int:
    """Characters a value may take once worded and laid out (an upper estimate)."""
    if isinstance(value, Say):
        words = sum(estimated_size(v) for _, v in value.params)
        return words + (0 if value.code == "free" else MESSAGE_ALLOWANCE)
    if isinstance(value, dict):
        return ROW_ALLOWANCE + sum(estimated_size(v) for v in value.values())
    if isinstance(value, list | tuple):
        return sum(estimated_size(v) for v in value)
    return len(str(value)) if isinstance(value, str) else 8


MESSAGE_ALLOWANCE = 160  # the catalogue's longest sentence a player learns, with a margin
ROW_ALLOWANCE = 12  # a table row's or a line's markup


def _told_revealed(state: GameState, _event: GrimoireRevealed, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    return reveal_notices(state)


def _told_ended(state: GameState, _event: GameEnded, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    """`reveal = "auto"`: the reveal comes with the game's end."""
    ready = state.setup.reveal == "auto" and state.setup.script is not None and state.dealt
    return reveal_notices(state) if ready else ()


def _told_sealed(state: GameState, _event: CharactersDealt, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    """The commitment, in the thread, as the characters go out (none without a salt)."""
    if not state.setup.seal_salt:
        return ()
    digest = commitment(state.setup.seal_salt, sealed_as_dealt(state))
    return (Notice(THREAD, "seal", "seal", {"commitment": digest,
                                            "reveal": state.setup.reveal}),)


FEATURE = Feature(
    "the seal and the reveal",
    appliers={GrimoireRevealed: lambda state, _e: state.evolve(revealed=True)},
    staff_rules={StReveal: _reveal},
    commands=(Command("reveal", "!reveal", say("help.reveal"), "!reveal --yes",
                      _no_arguments(StReveal())),),
    command_of={StReveal: "reveal"},
    notices={GrimoireRevealed: _told_revealed, GameEnded: _told_ended,
             CharactersDealt: _told_sealed},
)
