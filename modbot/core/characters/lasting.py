"""Theory of operation: a lasting effect ends with its cause, by death or by a change of character.

A lasting effect is a drunk or poisoned mark an ability keeps on a player beyond the night
(the Poisoner's ends at dusk by itself: night/flow.py). The grimoire's history
(`grimoire_log`) keeps each mark with its cause (`why`): the night's effects name the character
(`CAUSES`: `by.widow`, `by.lleech`, ...); a Storyteller's `!drunk X by Y` or
`!poison X by Y` names the player Y whose ability caused it and the character Y had then
(`by.ability`: the Sweetheart's drunk, chosen when she dies). An effect ends when its cause does:

- its cause changes character: the ability is gone, so is what it keeps up (seed 002,
  Sweetheart: "drunk for the rest of the game or until the Sweetheart player's character
  changes"; modbot holds every lasting effect to it: the Widow's poison, the Philosopher's
  drunk, the Vigormortis', the Lleech's and the Pukka's poison, a Storyteller's mark with a
  cause);
- its cause dies, for the abilities `ENDS_WITH_DEATH` lists (the almanac: the Widow's poison
  lasts "until the Widow dies"; of the Philosopher's drunk and the Vigormortis' poison the
  seeds say nothing, and modbot ends them with their cause too, a choice, docs/st-night.md);
  not the Sweetheart's, which begins with her death.

The end is an `EffectApplied` setting the mark back, its why the end's code, at the moment the
cause ended (by day too). A character changes by an effect at dawn (the Pit-Hag, the Barber,
the Snake Charmer, the Fang Gu, the star pass, the Huntsman) or by the Storytellers'
`!character`; the Scarlet Woman's promotion ends nothing (she keeps no lasting effect).
"""

from __future__ import annotations

from datetime import datetime

from ..state.events import Event, PlayerDied
from ..state.grimoire import character_id
from ..state.model import GameState, GrimoireChange
from ..state.night_model import Effect
from ..state.private_events import EffectApplied
from ..state.staff_events import BY_ABILITY, GrimoireChanged
from ..wording import Say, say

FIELDS = ("drunk", "poisoned")
CAUSES = {  # the night's lasting effects: the character causing them -> its why code
    "widow": "by.widow", "philosopher": "by.philosophers_choice", "vigormortis": "by.vigormortis",
    "lleech": "by.lleech", "pukka": "by.pukka",
}
MARKED_BY_STORYTELLERS = ("sweetheart",)  # its effect is the Storytellers' `!drunk X by Y`
ENDS_WITH_DEATH = {"widow": "by.widow_died", "philosopher": "by.philosopher_died",
                   "vigormortis": "by.vigormortis_died"}


def ended_by_death(state: GameState, event: PlayerDied) -> tuple[Event, ...]:
    """Whoever a dead character's lasting effect still holds is freed from the moment it dies."""
    character = character_id(state, event.player)
    if character not in ENDS_WITH_DEATH:
        return ()
    return _end(state, event.player, character, say(ENDS_WITH_DEATH[character]), event.at)


def ended_by_change(state: GameState, event: EffectApplied | GrimoireChanged) -> tuple[Event, ...]:
    """Whoever the lasting effects of a player's former character hold is freed once that
    player's character changes."""
    player, field = (event.effect.player, event.effect.field) if isinstance(event, EffectApplied) \
        else (event.player, event.field)
    change = _last_change(state, player, "character") if field == "character" else None
    if change is None or change.before in (None, change.after):
        return ()
    name = state.setup.private_script.name_of(str(change.before))
    return _end(state, player, str(change.before),
                say("by.character_changed", player=player, character=name), event.at)


def _last_change(state: GameState, player: str, field: str) -> GrimoireChange | None:
    return next((c for c in reversed(state.grimoire_log)
                 if c.player == player and c.field == field), None)


def _end(state: GameState, cause: str, character: str, why_ended: Say,
         at: datetime) -> tuple[Event, ...]:
    held = {(c.player, c.field) for c in state.grimoire_log
            if c.field in FIELDS and c.after is True and _caused_by(c, cause, character)}
    return tuple(EffectApplied(Effect(p, f, False, why_ended), at)
                 for p, f in sorted(held) if getattr(state.grimoire_of(p), f))


def _caused_by(change: GrimoireChange, player: str, character: str) -> bool:
    why = change.why
    if why is None:
        return False
    if why.code == BY_ABILITY:
        params = dict(why.params)
        return params.get("player") == player and params.get("character_id") == character
    return CAUSES.get(character) == why.code


__all__ = ["CAUSES", "ENDS_WITH_DEATH", "MARKED_BY_STORYTELLERS", "ended_by_change", "ended_by_death"]
