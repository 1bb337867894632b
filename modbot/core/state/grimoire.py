"""Theory of operation: questions asked of the grimoire (pure reads of the state).

Who is really what (`true_character`, not what they are shown), their alignment (recorded,
or their character's team), who malfunctions (drunk, poisoned, or shown another character),
who is on a team, who sits next to whom among the living, and yesterday's day.
"""

from __future__ import annotations

from collections.abc import Callable

from ..wording import Say, say
from .model import DayState, GameState
from .night_model import NightState
from .script import Character
from .slots import Slot

# while tonight's sheet is built, from the Monk's step on: the players safe from the Demon's
# poison too (night/sheet.py sets it on the sheet's own copy of the state: never kept)
SHIELDED: Slot[tuple[str, ...]] = Slot("shielded", ())


def true_character(state: GameState, player: str) -> Character | None:
    script, entry = state.setup.script, state.grimoire_of(player)
    return (script.get(entry.character) or script.find(entry.character)) \
        if script and entry.character else None


def alignment_of(state: GameState, player: str) -> str | None:
    entry = state.grimoire_of(player)
    if entry.alignment:
        return entry.alignment
    character = true_character(state, player)
    return "good" if character and character.is_good else \
        "evil" if character and character.is_evil else None


def is_evil(state: GameState, player: str) -> bool:
    return alignment_of(state, player) == "evil"


def is_malfunctioning(state: GameState, player: str) -> bool:
    """Drunk, poisoned, shown another character, the Puzzlemaster's drunk, a neighbour a
    working No Dashii poisons, or poisoned by an official jinx (the Damsel's)."""
    if _impaired(state, player) or is_puzzled(state, player):
        return True
    character = true_character(state, player)
    if character is not None and _jinx_poisoned(state, character):
        return True
    return character is not None and player in neighbours_poisoned(state)


def _last_night_by_day(state: GameState) -> NightState | None:
    """By day, the night that led to it (whose choices shape today's votes)."""
    return state.past_nights[-1] if state.past_nights and state.phase.is_day else None


def vote_weight(state: GameState, voter: str) -> int:
    """What the voter's yes counts today: Trouble Brewing's Bureaucrat made it 3 and its Thief
    made it negative, by last night's choice (the traveller working, as it stands now)."""
    night = _last_night_by_day(state)
    weight = 1
    for choice in night.choices if night is not None else ():
        chooser = true_character(state, choice.player)
        if chooser is None or not chooser.spec.weighs_vote or \
                choice.character != chooser.id or voter not in choice.players or \
                is_malfunctioning(state, choice.player):
            continue
        weight *= chooser.spec.weighs_vote
    return weight


def _working(state: GameState, holds: Callable[[Character], bool]) -> list[str]:
    """The living players whose true character `holds`, neither drunk nor poisoned."""
    return [s.name for s in state.seats if s.alive
            and (c := true_character(state, s.name)) is not None and holds(c)
            and not is_malfunctioning(state, s.name)]


def working_holders(state: GameState, character_id: str) -> list[str]:
    """The living players who truly hold `character_id`, neither drunk nor poisoned."""
    return _working(state, lambda c: c.id == character_id)


def whispers_beside(state: GameState) -> str | None:
    """Bad Moon Rising's Matron, living and working: "players may not leave their seats to
    talk in private": a whisper only with a neighbour (its name; None)."""
    return next(iter(_working(state, lambda c: c.spec.whispers_beside)), None)


def votes_with_the_dead(state: GameState) -> str | None:
    """Bad Moon Rising's Voudon, living and working: only it and the dead vote, the dead
    without spending a vote token, and no majority of half is needed (its name; None)."""
    return next(iter(_working(state, lambda c: c.spec.votes_with_the_dead)), None)


def storytellers_nominate(state: GameState) -> str | None:
    """Bad Moon Rising's Bishop, living and working: only the Storytellers nominate (its
    name; None)."""
    return next(iter(_working(state, lambda c: c.spec.storytellers_nominate)), None)


def butler_master(state: GameState, voter: str) -> str | None:
    """Trouble Brewing's Butler: the master it chose last night, whose vote its own waits on
    today (None: not a working Butler, or no master chosen)."""
    night = _last_night_by_day(state)
    butler = true_character(state, voter)
    if night is None or butler is None or not butler.spec.votes_with_master or \
            is_malfunctioning(state, voter):
        return None
    choice = night.choice_of(voter)
    return choice.players[0] if choice is not None and choice.character == butler.id and \
        choice.players else None


def jinxed(state: GameState, first: str, second: str) -> bool:
    """An official jinx between the two characters is on this game's script (a host's
    script: data/jinxes.json); a seed's script has its own rulings instead."""
    return state.setup.script is not None and state.setup.script.jinxed(first, second)


def _jinx_poisoned(state: GameState, character: Character) -> bool:
    """The official Widow + Damsel and Spy + Damsel jinxes (the record's
    `poisoned_by_jinxed`): "the Damsel is poisoned while the Widow (the Spy) is in play, or
    once it has been"."""
    return any(jinxed(state, other, character.id) and ever_in_play(state, other)
               for other in character.spec.poisoned_by_jinxed)


def ever_in_play(state: GameState, character: str) -> bool:
    """Some player holds the character now, was dealt it, or held it since the deal."""
    return any(e.character == character for _, e in state.setup.grimoire) or \
        any(state.grimoire_of(s.name).character == character for s in state.seats) or \
        any(c.field == "character" and character in (c.before, c.after)
            for c in state.grimoire_log)


def soldier_shield(state: GameState, target: str) -> Say | None:
    """Who keeps the Demon's ability off a working Soldier: its kill and its poison (seed 000,
    Soldier: "protected from all other harmful effects of the Demon's ability")."""
    real = true_character(state, target)
    if real is not None and real.spec.safe_from_demon and not is_malfunctioning(state, target):
        return say("by.character", character=real.name)
    return None


def _impaired(state: GameState, player: str) -> bool:
    entry = state.grimoire_of(player)
    return entry.poisoned or entry.drunk or bool(entry.thinks and entry.thinks != entry.character)


PUZZLED = "puzzled"  # the reminder on the Puzzlemaster's drunk (`!reminder PLAYER puzzled`)
KEEPS_ABILITY = "keeps its ability"  # a Minion the Vigormortis killed (`!reminder` to set it)
LIVES_ON = "lives on"  # the Zombuul after its first death: it registers as dead and lives on
PIXIE_LEARNT = "learnt by the Pixie"  # the player whose Townsfolk the Pixie was shown
RED_HERRING = "red herring"  # the good player who reads as a Demon to the Fortune Teller


def keeps_ability(state: GameState, player: str) -> bool:
    """A dead Minion the Vigormortis killed: "Minions you kill keep their ability" (the BotF
    rules). The rules do not say when that ends; modbot's choice: while a Vigormortis lives
    and works (docs/st-night.md)."""
    reminders = state.grimoire_of(player).reminders
    if LIVES_ON in reminders:  # the Zombuul, registering as dead (characters/undying.py)
        return True
    if KEEPS_ABILITY not in reminders:
        return False
    return any(state.seat(p).alive and not is_malfunctioning(state, p)
               for p in players_of_team(state, "demon")
               if (c := true_character(state, p)) is not None and c.spec.kills_keep_ability)


def is_puzzled(state: GameState, player: str) -> bool:
    """The Puzzlemaster's drunk, while a Puzzlemaster (even a dead one) is sober and healthy
    (seed 002: "When the Puzzlemaster is drunk or poisoned, that player is sober")."""
    reminders = state.grimoire_of(player).reminders
    return any((c := true_character(state, s.name)) is not None and c.spec.drunk_reminder
               and c.spec.drunk_reminder in reminders and not _impaired(state, s.name)
               for s in state.seats)


def neighbours_poisoned(state: GameState) -> set[str]:
    """The closest players of its type (`poisons_neighbours`: the No Dashii's Townsfolk) on
    each side of each living, working poisoner, but one safe from the Demon not otherwise
    drunk or poisoned: "the Soldier's protection also prevents all other harmful effects of
    the Demon's ability, such as poisoning" (the almanac), so it stays sober and the Demon's
    kill on it fails (it is still the neighbour: the poison does not move on)."""
    names, out = [s.name for s in state.seats], set()
    for index, name in enumerate(names):
        character = true_character(state, name)
        if character is None or not character.spec.poisons_neighbours or \
                not state.seat(name).alive or _impaired(state, name):
            continue
        team = character.spec.poisons_neighbours
        # the Monk's choice, from the Monk's step on, is safe from the Demon's poison too
        # (the almanac, Monk): it stays the neighbour, sober (night/sheet.py sets `SHIELDED`)
        for step in (-1, 1):
            for distance in range(1, len(names)):
                other = names[(index + step * distance) % len(names)]
                found = true_character(state, other)
                if found is not None and found.team == team:
                    if (not found.spec.safe_from_demon or _impaired(state, other)) and \
                            other not in SHIELDED.of(state):
                        out.add(other)
                    break
    return out


def dealt_character(state: GameState, player: str) -> Character:
    """The player's true character, where the deal guarantees one (a player of a team, a
    night's actor)."""
    real = true_character(state, player)
    if real is None:
        raise ValueError(f"{player} has no character dealt")
    return real


def character_id(state: GameState, player: str) -> str | None:
    """The id of the player's true character (None: none dealt)."""
    real = true_character(state, player)
    return real.id if real is not None else None


def players_of_team(state: GameState, team: str, alive: bool = True) -> list[str]:
    """The players of a character type; Lil' Monsta's babysitter registers as the Demon."""
    found = [s.name for s in state.seats
             if (s.alive or not alive or LIVES_ON in state.grimoire_of(s.name).reminders)
             and (c := true_character(state, s.name)) is not None and c.team == team]
    sitter = babysitter(state) if team == "demon" else None
    if sitter is not None and sitter not in found and (state.seat(sitter).alive or not alive):
        found.append(sitter)
    return found


BABYSITTER = "babysitter"  # the reminder on Lil' Monsta's holder; one player holds it
# beside it: the Scarlet Woman holds Lil' Monsta for the rest of the game (the official jinx)
SITS_FOR_GOOD = "babysits Lil' Monsta for good"


def babysitter(state: GameState) -> str | None:
    """Who holds Lil' Monsta ("is the Demon"), alive or dead; None before the first choice."""
    if not state.setup.lil_monsta:
        return None
    return next((s.name for s in state.seats
                 if BABYSITTER in state.grimoire_of(s.name).reminders), None)


def living_residents(state: GameState) -> list[str]:
    """The living players who are not travellers (who count for abilities and wins)."""
    return [s.name for s in state.seats if s.alive and not s.traveller]


def is_in_play(state: GameState, character_id: str) -> bool:
    """A player holds it; or no player does and the game file says it is in play (Lil'
    Monsta's `lil_monsta`: the record's `unseated`)."""
    script = state.setup.script
    held = script.get(character_id) if script is not None else None
    if state.setup.lil_monsta and held is not None and held.spec.unseated:
        return True
    return any(state.grimoire_of(s.name).character == character_id for s in state.seats)


def living_neighbours(state: GameState, player: str) -> tuple[str, ...]:
    """The nearest living player on each side (the Empath's neighbours)."""
    names = [s.name for s in state.seats]
    index, found = names.index(player), []
    for step in (-1, 1):
        for distance in range(1, len(names)):
            other = names[(index + step * distance) % len(names)]
            if other == player:
                break
            if state.seat(other).alive:
                found.append(other)
                break
    return tuple(dict.fromkeys(found))


def used_on(state: GameState, player: str, character: str) -> int | None:
    """The night `player` used `character`'s once-per-game ability, or None: not yet."""
    for night in state.past_nights:
        choice = night.choice_of(player)
        if choice and choice.character == character and not choice.passed and not choice.text:
            return night.number
    return None


def yesterday(state: GameState) -> DayState | None:
    """The day that ended before tonight."""
    last = state.past_days[-1] if state.past_days else None
    return last if last is not None and last.number == state.cycle - 1 else None


def character_names(state: GameState) -> dict[str, str]:
    return state.setup.private_script.names


__all__ = [
    "BABYSITTER",
    "KEEPS_ABILITY",
    "LIVES_ON",
    "PIXIE_LEARNT",
    "PUZZLED",
    "RED_HERRING",
    "SITS_FOR_GOOD",
    "alignment_of",
    "babysitter",
    "butler_master",
    "character_id",
    "character_names",
    "dealt_character",
    "ever_in_play",
    "is_evil",
    "is_in_play",
    "is_malfunctioning",
    "is_puzzled",
    "jinxed",
    "keeps_ability",
    "living_neighbours",
    "living_residents",
    "neighbours_poisoned",
    "players_of_team",
    "soldier_shield",
    "true_character",
    "used_on",
    "vote_weight",
    "yesterday",
]


def acting_character(state: GameState, player: str) -> Character | None:
    """The ability the player uses: one gained (the Philosopher's, the Cannibal's), else what
    they believe they are (a Drunk's Townsfolk), as a script Character."""
    script = state.setup.script
    entry = state.grimoire_of(player)
    chosen = entry.ability_of or entry.thinks or entry.character
    return script.get(chosen) or script.find(chosen or "") if script and chosen else None
