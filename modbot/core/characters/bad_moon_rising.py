"""Theory of operation: Bad Moon Rising's characters beyond the seeds' (their night rules).

Each function is its character's night step, as information.py and effects.py write theirs
(`(state, player, choice, deaths) -> Info`): the Storytellers see the note and the proposed
effects on the night sheet, may change the result (`!result`) or drop an effect (`!effect N
off`), and their approval applies them at dawn.
- The Sailor: "each night, chooses a living player: the Sailor or that player is drunk until
  dusk" (proposed: the chosen player; the Storytellers may drop it and `!drunk` the Sailor).
  That it cannot die is its record's `cannot_die` (undying.py).
- The Grandmother: "on the first night, learns a good player and their character": proposed,
  the first other player in seat order who registers good, shown as the character they
  register as, and marked as her grandchild (undying.py: she dies when the Demon kills them).
The Tea Lady and the Fool have no step: their records' `cannot_die` is their whole rule.
"""

from __future__ import annotations

from ..state.feature import CharacterRules
from ..state.grimoire import is_malfunctioning
from ..state.model import GameState
from ..state.night_model import Effect, Info, NightChoice
from ..state.registration import reading_registration, registered_dealt, registers_evil
from ..wording import say
from .undying import GRANDCHILD


def _sailor(state: GameState, player: str, choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
    target = choice.players[0] if choice and choice.players else None
    if target is None:
        return Info(note=say("info.no_choice_sent"))
    if is_malfunctioning(state, player):
        return Info(note=say("info.sailor_malfunctions", player=target))
    return Info(note=say("info.sailor", player=target),
                effects=(Effect(target, "drunk", True, say("by.sailor"), until_dusk=True),))


def _grandmother(state: GameState, player: str, _choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
    good = [s.name for s in state.seats
            if s.name != player and not s.traveller and not registers_evil(state, s.name)]
    if not good:
        return Info(note=say("info.grandmother_none"), needs_result=True)
    grandchild = good[0]
    shown = registered_dealt(state, grandchild)
    marked = Effect(grandchild, "reminders", (*state.grimoire_of(grandchild).reminders, GRANDCHILD),
                    say("by.grandmother"))
    return Info(note=say("info.grandmother", player=grandchild, character=shown.name),
                needs_result=True,
                result=say("result.grandmother", player=grandchild, character=shown.name),
                effects=(marked,))


CHARACTERS: tuple[CharacterRules, ...] = (
    CharacterRules("sailor", night=_sailor),
    CharacterRules("grandmother", night=reading_registration(_grandmother)),
)

__all__ = ["CHARACTERS"]
