"""Theory of operation: observers, who watch the grimoire and never play.

`!observer NAME --yes` (the Storytellers only; it shows the grimoire, so it asks a
confirmation) adds a forum user who is not seated, not a backup, not a Storyteller and not the
bot to the game's observers (`ObserverAdded`; refused with one line for anyone playing or
waiting to play). The shell binds the name to its user id as it binds a substitute's
(app/games/identities.py) and invites them into the observers' conversation (the observers, the
Storytellers and the bot), where they are welcomed with the grimoire as it stands and, at each
dawn, get its digest: each seat's character and state, the night's choices and what each
player learned. An observer has seen the grimoire: `is_observer` (state/observing.py) makes `!sub` refuse them
(deciding/staff.py), and they can never take a seat in this game. The Spy sees the grimoire too: each dawn, the same
table in its grimoire PM (`spy_sight`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from .deciding.rules import reject
from .reading.command_forms import Command
from .record import night_row, seat_rows
from .state.actions import Context
from .state.feature import Feature, Notice, to_observers, to_player
from .state.grimoire import is_malfunctioning, true_character
from .state.model import GameState, iso
from .state.names import Roster
from .state.observing import OBSERVERS, is_observer, observers_of
from .state.private_events import NightResolved
from .state.rejection import Refused, Rejection
from .state.staff_actions import StObserver
from .wording import say


@dataclass(frozen=True, slots=True)
class ObserverAdded:
    name: str
    at: datetime


def _parse(words: list[str], _roster: Roster) -> StObserver:
    if len(words) != 1 or not words[0].lstrip("@"):
        raise Refused("observer_name")
    return StObserver(words[0].lstrip("@"))


def _observe(state: GameState, action: StObserver, ctx: Context) -> tuple[ObserverAdded] | Rejection:
    name, setup = action.name, state.setup
    if setup.roster.resolve_exact(name) is not None:
        return reject(ctx, "observer_plays", name=name, player=setup.roster.resolve_exact(name))
    if name.casefold() in (b.casefold() for b in setup.backups):
        return reject(ctx, "observer_backup", name=name)
    if setup.is_storyteller(name) or name.casefold() == setup.bot_username.casefold():
        return reject(ctx, "observer_storyteller", name=name)
    if is_observer(state, name):
        return reject(ctx, "observer_already", name=name)
    return (ObserverAdded(name, ctx.at),)


def grimoire_digest(state: GameState) -> list[dict[str, Any]]:
    """Each seat as the grimoire has it now: character, alignment, alive, what it is shown."""
    return [{"seat": s["seat"], "player": s["player"], "alive": s["alive"], **s["final"]}
            for s in seat_rows(state, {})]


def _told_added(state: GameState, event: ObserverAdded, _batch: object) -> tuple[Notice, ...]:
    return (to_observers("observer_welcome", f"observer:{event.name}:{iso(event.at)}",
                         joined=event.name, observer=event.name, seats=grimoire_digest(state),
                         terms=state.setup.terms),)


def _told_dawn(state: GameState, event: NightResolved, _batch: object) -> tuple[Notice, ...]:
    if not observers_of(state):
        return ()
    night = next((n for n in state.past_nights if n.number == event.night), None)
    row = night_row(state, night) if night is not None else {"choices": [], "learned": []}
    return (to_observers("observer_digest", f"observers:dawn:{event.night}", night=event.night,
                         seats=grimoire_digest(state), choices=row["choices"],
                         learned=row["learned"], deaths=event.deaths, terms=state.setup.terms),)


def spy_sight(state: GameState, event: NightResolved) -> tuple[Notice, ...]:
    """The Spy sees the grimoire each night (its record's `sees_grimoire`): each living,
    working Spy gets its table at dawn in
    its grimoire PM (never the night's choices); a malfunctioning one gets what the
    Storytellers give it (characters/trouble_brewing.py's row asks them)."""
    spies = [s.name for s in state.seats if s.alive and (c := true_character(state, s.name))
             and c.spec.sees_grimoire and not is_malfunctioning(state, s.name)]
    return tuple(to_player(spy, "spy_grimoire", f"spy:{event.night}:{spy}", night=event.night,
                           seats=grimoire_digest(state), terms=state.setup.terms)
                 for spy in spies)


def _told_dawn_all(state: GameState, event: NightResolved, batch: object) -> tuple[Notice, ...]:
    return _told_dawn(state, event, batch) + spy_sight(state, event)


FEATURE = Feature(
    "observers",
    appliers={ObserverAdded: lambda state, e: OBSERVERS.put(state, (*OBSERVERS.of(state), e.name))},
    staff_rules={StObserver: _observe},
    commands=(Command("observer", "!observer NAME", say("help.observer"), "!observer Quinn --yes", _parse),),
    command_of={StObserver: "observer"},
    notices={ObserverAdded: _told_added, NightResolved: _told_dawn_all},
    slots=(OBSERVERS,),
)
