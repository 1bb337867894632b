"""Theory of operation: what a player registers as to an ability (the Spy's and the Recluse's
"might register").

A character's catalogue record may say what it might register as otherwise (`registers`: the
Spy "good", "townsfolk", "outsider"; the Recluse "evil", "minion", "demon"; even once dead).
Registration is for abilities only: the public count, the thread and the win checks read what
players are (grimoire.py). Every information rule reads players through the helpers here, the
ability asking held in `ASKING` (characters/records.py's `compute` puts it on its own copy of
the state, as the night sheet puts `SHIELDED`). A player registers as what they are, unless
the Storytellers kept another answer: `!registers PLAYER as CHARACTER|good|evil [to
CHARACTER]` adds one to the grimoire's `registers_as` (for that ability, or without "to" for
every ability; `!registers PLAYER clear` forgets them). While a player who might register
otherwise has no kept answer for the ability asking, the ability's answer is a proposal the
Storytellers judge (`judged`): the night sheet's row says so and asks for the result, the true
answer offered. The kept answers are private: the grimoire's like the rest of it.
"""

from __future__ import annotations

from collections.abc import Callable

from ..wording import say
from .grimoire import alignment_of, players_of_team, true_character
from .model import GameState
from .night_model import Info, NightChoice
from .script import Character
from .slots import Slot

ASKING: Slot[str] = Slot("asking", "")  # the character whose ability asks (records.compute)
EVERY_ABILITY = ""
ALIGNMENTS = ("good", "evil")
CLEAR = "clear"  # `!registers PLAYER clear`: the kept answers forgotten


def kept_entry(value: str, ability: str | None) -> str:
    """How the grimoire keeps an answer: `imp`, or `evil to chef` for one ability."""
    return f"{value} to {ability}" if ability else value


def kept_parts(entry: str) -> tuple[str, str]:
    """A kept answer as (what, ability): `evil to chef` is ("evil", "chef"), `imp` ("imp", "")
    (`EVERY_ABILITY`)."""
    what, _, ability = entry.partition(" to ")
    return what, ability


def _kept(state: GameState, player: str) -> str | None:
    """The kept answer for the ability asking (its own first, then the one for every ability)."""
    answers = {ability: value for value, ability in
               map(kept_parts, state.grimoire_of(player).registers_as)}
    asking = ASKING.of(state)
    return answers.get(asking) if asking and asking in answers else answers.get(EVERY_ABILITY)


def _kept_character(state: GameState, player: str) -> Character | None:
    """The character a kept answer names (None: no answer, or one of an alignment only)."""
    answer, script = _kept(state, player), state.setup.script
    return script.get(answer) if script is not None and answer not in (None, *ALIGNMENTS) \
        else None


def registered_character(state: GameState, player: str) -> Character | None:
    """The character the player registers as to the ability asking (a kept answer that names a
    character, else the true one)."""
    return _kept_character(state, player) or true_character(state, player)


def registered_dealt(state: GameState, player: str) -> Character:
    """`registered_character` where the deal guarantees one (a player of a team)."""
    character = registered_character(state, player)
    if character is None:
        raise ValueError(f"{player} has no character dealt")
    return character


def registered_alignment(state: GameState, player: str) -> str | None:
    answer = _kept(state, player)
    if answer in ALIGNMENTS:
        return answer
    kept = _kept_character(state, player)
    if kept is not None:
        return "evil" if kept.is_evil else "good"
    return alignment_of(state, player)


def registers_evil(state: GameState, player: str) -> bool:
    return registered_alignment(state, player) == "evil"


def registered_of_team(state: GameState, team: str, alive: bool = True) -> list[str]:
    """`players_of_team` as the ability asking sees it: a kept character of another team moves
    its player out, one of this team moves its player in (in seat order)."""
    truly = set(players_of_team(state, team, alive))
    found = []
    for seat in state.seats:
        if alive and not seat.alive:
            continue
        kept = _kept_character(state, seat.name)
        if (kept.team == team) if kept is not None else seat.name in truly:
            found.append(seat.name)
    return found


def undecided(state: GameState, actor: str) -> list[str]:
    """The names of the characters in play (alive or dead, the actor's own excepted) that might
    register otherwise and have no kept answer for the ability asking."""
    names = []
    for seat in state.seats:
        character = true_character(state, seat.name)
        if seat.name != actor and character is not None and character.registers and \
                _kept(state, seat.name) is None and character.name not in names:
            names.append(character.name)
    return names


def judged(state: GameState, actor: str, info: Info) -> Info:
    """The answer, or, while someone might register otherwise undecided, a proposal the
    Storytellers judge (the true answer offered)."""
    names = undecided(state, actor)
    if not names:
        return info
    told = info.told()
    note = info.note if info.note is not None or told is None else \
        say("info.proposed", proposed=told)
    return Info(note=say("info.might_register", note=note, characters=names), needs_result=True,
                result=told, effects=info.effects, tells=info.tells, death=info.death)


Rule = Callable[[GameState, str, "NightChoice | None", tuple[str, ...]], Info]


def reading_registration(rule: Rule) -> Rule:
    """An information rule whose answer is judged while someone might register otherwise."""
    def judged_rule(state: GameState, player: str, choice: NightChoice | None,
                    deaths: tuple[str, ...]) -> Info:
        return judged(state, player, rule(state, player, choice, deaths))
    judged_rule.__name__ = rule.__name__
    return judged_rule


__all__ = ["ASKING", "CLEAR", "judged", "kept_entry", "kept_parts", "reading_registration",
           "registered_alignment", "registered_character", "registered_dealt", "registered_of_team",
           "registers_evil", "undecided"]
