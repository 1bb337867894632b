"""Theory of operation: who woke tonight to use their ability, one predicate for every rule.

Seed 003 (Chambermaid): "only detects characters who woke in order to use their ability".
Each `woke` part's docstring is its condition in words (the docs' table shows it).
`woke_tonight` says whether a player woke tonight so: the character they act as (a gained
ability, a Drunk's Townsfolk, the Lunatic's Demon) has a step in tonight's night order, its
catalogue record says that step wakes its player tonight (`wakes`, and not `asleep`: the
Acrobat's and the Sweetheart's steps are the Storytellers' own checks, the Barber's wakes the
Demon), its player can still act (alive and not killed tonight, or a Minion the Vigormortis
killed), its once-per-game ability is not spent, and its ability had something to do, where
its record's `woke` part says when (`CHARACTERS`): the Godfather only when an Outsider died
today (from night 2), the Undertaker only when an execution killed, the Juggler on night 2,
the Sage only when the Demon killed it tonight. A player killed tonight is taken as not woken
(the sheet does not keep at which step a death fell).
"""

from __future__ import annotations

from ..state.feature import CharacterRules
from ..state.grimoire import acting_character, keeps_ability, true_character, used_on, yesterday
from ..state.ids import GODFATHER, SAGE
from ..state.model import GameState


def outsider_died_today(state: GameState) -> bool:
    """Seed 002 (Godfather): "If 1 died today": any death of the day before tonight."""
    day = yesterday(state)
    return any((c := true_character(state, d.player)) is not None and c.team == "outsider"
               for d in (day.deaths if day else ()))


def _godfather(state: GameState, _player: str, _deaths: tuple[str, ...]) -> bool:
    """from night 2, only when an Outsider died today"""
    return state.cycle == 1 or outsider_died_today(state)


def _undertaker(state: GameState, _player: str, _deaths: tuple[str, ...]) -> bool:
    """only when an execution killed today"""
    day = yesterday(state)
    return day is not None and day.executed_and_died is not None


def _juggler(state: GameState, _player: str, _deaths: tuple[str, ...]) -> bool:
    """only on night 2, after its first day"""
    return state.cycle == 2


def _sage(_state: GameState, player: str, deaths: tuple[str, ...]) -> bool:
    """only when the Demon killed it tonight"""
    return player in deaths


CHARACTERS = (
    CharacterRules(GODFATHER, woke=_godfather), CharacterRules("undertaker", woke=_undertaker),
    CharacterRules("juggler", woke=_juggler), CharacterRules(SAGE, woke=_sage),
)
_WHEN = {record.id: record.woke for record in CHARACTERS}


def woke_tonight(state: GameState, player: str, deaths: tuple[str, ...]) -> bool:
    """Whether `player` woke tonight to use their ability (see the module's docstring)."""
    character = acting_character(state, player)
    if character is None or \
            character.id not in state.setup.private_script.night_order(state.cycle):
        return False
    spec, when = character.spec, _WHEN.get(character.id)
    if spec.asleep or not spec.wakes_on(state.cycle):
        return False
    if spec.once and used_on(state, player, character.id) is not None:
        return False
    if character.id != SAGE and not _can_act(state, player, deaths):
        return False
    return when(state, player, deaths) if when is not None else True


def _can_act(state: GameState, player: str, deaths: tuple[str, ...]) -> bool:
    return (state.seat(player).alive and player not in deaths) or keeps_ability(state, player)


__all__ = ["CHARACTERS", "outsider_died_today", "woke_tonight"]
