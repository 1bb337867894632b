"""Theory of operation: madness, which the Storytellers judge and the bot records and recalls.

Madness is recorded in the grimoire's `mad_as`: the Cerenovus' victim is mad about being the
chosen character "tomorrow" (an effect from dawn to the next dusk), the Pixie about being the
in-play Townsfolk it was shown (for the whole game; the player shown carries the reminder
"learnt by the Pixie", whom the gain follows); `!mad` records any other. The Mutant is
mad about not being an Outsider by its character alone.

Nothing happens by itself: whether a player broke madness is the Storytellers' judgement. The
bot reminds them: at each dawn (`noted`) a `MadnessNoted` lists who must be mad about what
today, with what may follow (`!execute`); when the player a Pixie learnt about dies
(`pixie_may_gain`), whatever they are by then, a `PixieMayGain` tells them the Pixie gains
the Townsfolk it learnt if it was mad (`!ability PIXIE CHARACTER`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from ..state.events import Event, PlayerDied
from ..state.feature import Feature, Notice, to_storytellers, unchanged
from ..state.grimoire import PIXIE_LEARNT, character_names, is_malfunctioning, true_character
from ..state.model import GameState, iso
from ..state.night_model import NightState
from ..wording import Say, say


@dataclass(frozen=True, slots=True)
class MadnessNoted:
    """Dawn: who must be mad about what today (sent to the Storytellers only)."""

    day: int
    lines: tuple[Say, ...]
    at: datetime


@dataclass(frozen=True, slots=True)
class PixieMayGain:
    """The character a Pixie is mad about died: the Storytellers judge the madness."""

    pixie: str
    character: str  # id
    died: str
    at: datetime


def noted(state: GameState, night: NightState, deaths: tuple[str, ...], at: datetime) -> list[Event]:
    """The MadnessNoted for the day that follows `night` (its effects about to apply)."""
    names = character_names(state)
    mad: dict[str, tuple[object, Say]] = {
        s.name: (state.grimoire_of(s.name).mad_as, say("madness.recorded"))
           for s in state.seats if state.grimoire_of(s.name).mad_as}
    for effect in night.effects:
        if effect.field == "mad_as":
            mad[effect.player] = (effect.value, say("madness.today", why=effect.why)
                                  if effect.until_dusk else effect.why)
    lines = [say("madness.mad", player=player, character=names.get(str(what or ""), what), why=why)
             for player, (what, why) in mad.items()
             if state.seat(player).alive and player not in deaths]
    lines += [say("madness.mutant", player=s.name) for s in state.seats
              if s.alive and s.name not in deaths and _is(state, s.name, "mutant")
              and not is_malfunctioning(state, s.name)]
    return [MadnessNoted(state.cycle, tuple(lines), at)] if lines else []


def pixie_may_gain(state: GameState, event: PlayerDied) -> tuple[Event, ...]:
    """Seed 003: "If the player the Pixie learns about changes character then dies, the Pixie
    gains the ability of the Townsfolk the Pixie learnt about": the player it learnt about
    carries the mark `PIXIE_LEARNT`, and their death offers the Townsfolk learnt (`mad_as`),
    whatever they are by then. Without a mark (a madness set by `!mad`), the death of a player
    who is that character does."""
    marked = [s.name for s in state.seats if PIXIE_LEARNT in state.grimoire_of(s.name).reminders]
    died = true_character(state, event.player)
    if (marked and event.player not in marked) or (not marked and died is None):
        return ()
    return tuple(PixieMayGain(s.name, str(entry.mad_as), event.player, event.at)
                 for s in state.seats
                 if s.alive and _is(state, s.name, "pixie")
                 and (entry := state.grimoire_of(s.name)).mad_as is not None
                 and entry.ability_of is None
                 and (marked or (died is not None and entry.mad_as == died.id)))


def _is(state: GameState, player: str, character_id: str) -> bool:
    real = true_character(state, player)
    return real is not None and real.id == character_id


def _told_madness(_state: GameState, event: MadnessNoted, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    return (to_storytellers("madness", f"madness:{event.day}", day=event.day,
                            lines=event.lines),)


def _told_pixie(state: GameState, event: PixieMayGain, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    name = state.setup.private_script.name_of(event.character)
    return (to_storytellers("pixie_may_gain", f"pixie:{event.pixie}:{iso(event.at)}",
                            pixie=event.pixie, died=event.died, name=name),)


FEATURE = Feature(
    "madness", appliers={MadnessNoted: unchanged, PixieMayGain: unchanged},
    notices={MadnessNoted: _told_madness, PixieMayGain: _told_pixie})

__all__ = ["MadnessNoted", "PixieMayGain", "noted", "pixie_may_gain"]
