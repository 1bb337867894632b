"""The clock hand that stalls: one PM to the player it has waited on for `hand_nudge_hours`.

Theory of operation: the hand of an open nomination waits on one seat from the moment the seat
before it locked (or, for the first seat, from the nomination). When that wait reaches the game
file's `hand_nudge_hours` (default 6; 0 turns nudges off), the player gets one PM saying so and
how to vote. Each (nomination, player) is nudged at most once: the reactor remembers the keys
it has sent, and the tick that sent one is stored like an input, so a restart remembers too.
The vote count shows the same moment ("waiting since").
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from ..core import GameState, Nomination


@dataclass(frozen=True)
class Nudge:
    key: str
    player: str
    nominee: str
    kind: str
    since: datetime


def waiting_since(nomination: Nomination) -> datetime:
    """When the hand reached the seat it points at."""
    return nomination.locked[-1].locked_at if nomination.locked else nomination.at


def _key(day: int, nomination: Nomination, player: str | None) -> str:
    return f"nudge:{day}:{nomination.kind}:{nomination.nominee}:{player}"


def due_nudges(state: GameState, sent: set[str], at: datetime) -> list[Nudge]:
    hours = state.setup.hand_nudge_hours
    if not hours or state.today is None:
        return []
    out = []
    for nomination in state.today.open_nominations():
        player = nomination.hand
        since = waiting_since(nomination)
        key = _key(state.today.number, nomination, player)
        if player is not None and key not in sent and at - since >= timedelta(hours=hours):
            out.append(Nudge(key, player, nomination.nominee, nomination.kind, since))
    return out


def nudge_moment(state: GameState, sent: set[str]) -> datetime | None:
    """The earliest moment a nudge not yet sent becomes due (None: no nudge waits)."""
    hours = state.setup.hand_nudge_hours
    if not hours or state.today is None:
        return None
    moments = [waiting_since(n) + timedelta(hours=hours)
               for n in state.today.open_nominations() if n.hand is not None
               and _key(state.today.number, n, n.hand) not in sent]
    return min(moments, default=None)
