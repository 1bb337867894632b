"""Theory of operation: who takes over when a Demon dies (the Scarlet Woman), or when Lil'
Monsta's babysitter dies under the official jinx (the Scarlet Woman babysits for good).

`scarlet_woman` is the Scarlet Woman's trigger on a death (triggers.py asks it in its order);
`scarlet_woman_heir` answers the night sheet's question "does this death, just marked, make her
the Demon?". The promotion's applier and its words are triggers.py's.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ..state.events import Event, PlayerDied
from ..state.grimoire import (
    BABYSITTER,
    SITS_FOR_GOOD,
    babysitter,
    character_id,
    is_evil,
    is_malfunctioning,
    jinxed,
    living_residents,
    players_of_team,
    true_character,
)
from ..state.ids import LIL_MONSTA
from ..state.model import GameState
from ..state.night_model import Effect
from ..state.private_events import EffectApplied
from ..state.script import Character
from ..wording import say


@dataclass(frozen=True, slots=True)
class ScarletWomanPromoted:
    player: str
    character: str  # the Demon's character id
    at: datetime


def scarlet_woman(state: GameState, event: PlayerDied) -> tuple[Event, ...]:
    """With one evil team: when the last Demon dies. With several (seed 002): an evil Scarlet
    Woman when the last Demon of her team dies, a good one when any Demon dies. Lil' Monsta's
    babysitter dying: see `_scarlet_woman_sits`."""
    sits = _scarlet_woman_sits(state, event)
    if sits:
        return sits
    demon = true_character(state, event.player)
    if demon is None or demon.team != "demon":
        return ()
    living = len(living_residents(state)) + 1  # before the death
    women = [p for p in players_of_team(state, "minion")
             if character_id(state, p) == "scarletwoman" and not is_malfunctioning(state, p)
             and _her_demon_died(state, p, event.player)]
    if not women or living < 5:
        return ()
    return (ScarletWomanPromoted(women[0], demon.id, event.at),)


def _scarlet_woman_sits(state: GameState, event: PlayerDied) -> tuple[Event, ...]:
    """The official Lil' Monsta + Scarlet Woman jinx: should Lil' Monsta die (its babysitter)
    while five or more players live, a working Scarlet Woman babysits it from then on."""
    if not jinxed(state, LIL_MONSTA, "scarletwoman") or babysitter(state) != event.player \
            or len(living_residents(state)) + 1 < 5:  # counted before the death
        return ()
    women = [p for p in players_of_team(state, "minion") if p != event.player
             and character_id(state, p) == "scarletwoman" and not is_malfunctioning(state, p)]
    if not women:
        return ()
    why, dead = say("by.scarlet_woman_sits"), state.grimoire_of(event.player).reminders
    return (EffectApplied(Effect(event.player, "reminders",
                                 tuple(r for r in dead if r != BABYSITTER), why), event.at),
            EffectApplied(Effect(women[0], "reminders", (
                *state.grimoire_of(women[0]).reminders, BABYSITTER, SITS_FOR_GOOD), why),
                event.at))


def scarlet_woman_heir(state: GameState, dead: str) -> tuple[str, Character] | None:
    """(the Scarlet Woman, the Demon character she becomes) if the death of `dead`, just
    marked, makes her the Demon (as at dawn), else None."""
    promoted = [e for e in scarlet_woman(state, PlayerDied(dead, "night", state.phase_ends_at))
                if isinstance(e, ScarletWomanPromoted)]
    demon = true_character(state, dead)
    return (promoted[0].player, demon) if promoted and demon is not None else None


def _her_demon_died(state: GameState, woman: str, dead: str) -> bool:
    demons = players_of_team(state, "demon")
    if not state.setup.private_script.terms.evil_teams:
        return not demons  # no other Demon still lives
    if not is_evil(state, woman):
        return True
    team = state.grimoire_of(woman).evil_team
    return state.grimoire_of(dead).evil_team == team and \
        not any(state.grimoire_of(d).evil_team == team for d in demons)


__all__ = ["ScarletWomanPromoted", "scarlet_woman", "scarlet_woman_heir"]
