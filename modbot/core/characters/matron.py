"""Theory of operation: the Matron's seats (a Bad Moon Rising traveller).

"Each day, you may choose up to 3 sets of 2 players to swap seats. Players may not leave their
seats to talk in private." On a forum the Matron tells the Storytellers which two (a `/action`
in its grimoire PM, or in the thread), and they swap them with `!swap A B` (`SeatsSwapped`,
then the seating replaced as `!seat` does before the game: state/staff_events.py's
`SeatsReordered`): neighbours, the clock hand's order of later nominations and everything
read from the seating follow; a nomination already open keeps its order. At most three swaps a
day, by day, while a sober and healthy Matron lives; the thread is told the two and the
seating now. Talking in private is a whisper: while the Matron works, a whisper may only be
declared with a neighbour (its record's `whispers_beside`: deciding/rules.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from ..deciding.rules import reject
from ..reading.command_forms import Command
from ..reading.commands import _name
from ..state.actions import Context
from ..state.events import Event
from ..state.feature import Feature, Notice, to_thread
from ..state.grimoire import working_holders
from ..state.model import GameState, iso
from ..state.names import Roster
from ..state.rejection import Refused, Rejection
from ..state.slots import Slot
from ..state.staff_events import SeatsReordered
from ..wording import say

SWAPS_A_DAY = 3
SWAPS: Slot[tuple[tuple[int, str, str], ...]] = Slot("matron_swaps", ())  # (day, a, b)


@dataclass(frozen=True, slots=True)
class StSwap:
    first: str
    second: str


@dataclass(frozen=True, slots=True)
class SeatsSwapped:
    """The Matron's swap: `first` and `second` changed seats on day `day`."""

    first: str
    second: str
    day: int
    at: datetime


def _swap(state: GameState, action: StSwap, ctx: Context) -> Sequence[Event] | Rejection:
    if state.today is None:
        return reject(ctx, "wrong_phase", what="!swap", phase=state.phase.value)
    if not working_holders(state, "matron"):
        return reject(ctx, "no_matron")
    if action.first == action.second:
        return reject(ctx, "swap_twice", player=action.first)
    if sum(1 for day, _, _ in SWAPS.of(state) if day == state.cycle) >= SWAPS_A_DAY:
        return reject(ctx, "swaps_spent", swaps=SWAPS_A_DAY)
    order = [s.name for s in state.seats]
    i, j = order.index(action.first), order.index(action.second)
    order[i], order[j] = order[j], order[i]
    return (SeatsSwapped(action.first, action.second, state.cycle, ctx.at),
            SeatsReordered(tuple(order), ctx.at))


def _swapped(state: GameState, e: SeatsSwapped) -> GameState:
    return SWAPS.put(state, (*SWAPS.of(state), (e.day, e.first, e.second)))


def _told(state: GameState, event: SeatsSwapped, batch: Sequence[Event]) -> tuple[Notice, ...]:
    seating = next((e.order for e in batch if isinstance(e, SeatsReordered)),
                   tuple(s.name for s in state.seats))
    return (to_thread("seats_swapped", f"swap:{event.first}:{event.second}:{iso(event.at)}",
                      first=event.first, second=event.second, seating=list(seating)),)


def _words(words: list[str], roster: Roster) -> StSwap:
    first, rest = _name(words, roster)
    second, rest = _name(rest, roster)
    if rest:
        raise Refused("unexpected", text=" ".join(rest))
    return StSwap(first, second)


FEATURE = Feature(
    "matron",
    appliers={SeatsSwapped: _swapped},
    staff_rules={StSwap: _swap},
    commands=(Command("swap", "!swap PLAYER PLAYER", say("help.swap", swaps=SWAPS_A_DAY),
                      "!swap Alex Derek", _words),),
    command_of={StSwap: "swap"},
    notices={SeatsSwapped: _told},
    slots=(SWAPS,),
)

__all__ = ["SWAPS", "SeatsSwapped", "StSwap"]
