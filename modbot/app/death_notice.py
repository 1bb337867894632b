"""A player who dies is told by PM, with how their vote works from now on.

Theory of operation: every `PlayerDied` the core emits (an execution, an exile, a night death
announced at dawn, an ability, the Storytellers' `!kill`) becomes one PM in the player's
grimoire conversation, keyed by the player and the moment, so a revived player who dies again
is told again and a restart never tells twice. Night deaths are emitted at dawn, with the
public announcement, never before.
"""

from __future__ import annotations

from ..core import GameState, PlayerDied, iso
from .render import render
from .views import date_tag


def death_notice(reactor, state: GameState, event) -> list:
    if not isinstance(event, PlayerDied):
        return []
    seat = state.seat(event.player)
    return [reactor.pm(event.player, f"died:{event.player}:{iso(event.at)}", render(
        "death_notice.md.j2", cause=event.cause, at=date_tag(event.at),
        traveller=bool(seat and seat.traveller), ghost_vote=bool(seat and seat.ghost_vote)))]
