"""Theory of operation: what each ability yields tonight, computed from the grimoire.

`compute(state, player, choice, deaths)` looks up the acting character's `info` key (from
data/actions.json) and returns an `Info`: the true answer where the grimoire decides it
(`value`, told to the player as `sentence`), or a note of what the Storyteller decides (with a
proposed `result` where one is reasonable), the deaths the ability proposes, and messages
for other players (`tells`: the Minions learning that a Damsel is in play, say). Nothing here
applies an effect: the night sheet shows it, the Storytellers edit and approve it.
Malfunction and the Vortox are handled by the sheet, which sees the whole answer.
"""

from __future__ import annotations

from dataclasses import dataclass

from .grimoire import (
    alignment_of, character_names, is_evil, is_malfunctioning, living_neighbours,
    players_of_team, true_character, yesterday,
)
from .model import YES, GameState
from .night import acting_character
from .night_model import Effect, NightChoice
from .private_events import night_of


@dataclass(frozen=True, slots=True)
class Info:
    value: str | None = None  # the true answer, when computable
    sentence: str = "{value}"  # what the player is told, with {value}
    note: str = ""  # what the Storyteller decides, or the effect to apply
    needs_result: bool = False
    death: str | None = None
    tells: tuple[tuple[str, str], ...] = ()  # (player, message) proposed for dawn
    result: str | None = None  # a proposed result when there is no computed value
    effects: tuple[Effect, ...] = ()  # grimoire changes proposed for dawn


def compute(state: GameState, player: str, choice: NightChoice | None,
            deaths: tuple[str, ...] = (), character=None) -> Info:
    character = character or acting_character(state, player)
    if character is None:
        return Info()
    if true_character(state, player) is not None and \
            true_character(state, player).id == "lunatic" and character.team == "demon":
        return _lunatic(state, player, choice)
    handler = _INFO.get(character.spec.info or "")
    return handler(state, player, choice, deaths) if handler else Info()


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def _seats(state: GameState) -> list[str]:
    return [s.name for s in state.seats]


def _target(choice: NightChoice | None) -> str | None:
    return choice.players[0] if choice and choice.players else None


# -- kills ------------------------------------------------------------------------------------

def _kill(state, player, choice, _deaths) -> Info:
    target = _target(choice)
    if target is None:
        return Info(note="no choice sent: choose a death or !nodeath")
    if is_malfunctioning(state, player):
        return Info(note=f"{state.setup.script.terms.malfunction}: the kill on {target} "
                    "fails unless you say otherwise (!dies)")
    if not state.seat(target).alive:
        return Info(note=f"{target} is already dead: no death")
    is_demon = true_character(state, player).team == "demon"
    safe = _protected_by(state, target) if is_demon else None
    if safe is not None:
        return Info(note=f"{target} is safe from the Demon ({safe}): no death")
    if target == player and true_character(state, player).id == "imp":
        return _star_pass(state, player)
    return Info(note=f"{target} dies", death=target)


def _protected_by(state: GameState, target: str) -> str | None:
    """Why the Demon cannot kill the target tonight: the Monk, the Innkeeper, the Soldier."""
    night = night_of(state, state.cycle)
    for choice in night.choices:
        character = true_character(state, choice.player)
        if character is None or character.id not in ("monk", "innkeeper") or \
                target not in choice.players or not state.seat(choice.player).alive or \
                is_malfunctioning(state, choice.player):
            continue
        return f"the {character.name}"
    real = true_character(state, target)
    if real is not None and real.id == "soldier" and not is_malfunctioning(state, target):
        return "the Soldier"
    return None


def _star_pass(state: GameState, imp: str) -> Info:
    """The Imp killed itself: a Minion becomes the Imp (the Scarlet Woman first)."""
    minions = players_of_team(state, "minion")
    alive = sum(1 for s in state.seats if s.alive and not s.traveller)
    scarlet = [m for m in minions if true_character(state, m).id == "scarletwoman"]
    heir = scarlet[0] if scarlet and alive >= 5 else (minions[0] if minions else None)
    if heir is None:
        return Info(note="the Imp killed itself with no Minion alive: it dies", death=imp)
    return Info(note=f"the Imp killed itself: it dies and {heir} becomes the Imp (told at "
                "dawn)", death=imp,
                effects=(Effect(heir, "character", "imp", "the Imp passed to a Minion"),),
                tells=((heir, "You are now the Imp."),))


def _lunatic(state, player, choice) -> Info:
    demons = players_of_team(state, "demon")
    target = _target(choice) or "nobody"
    return Info(note=f"the Lunatic's attack on {target} does nothing; the Demon learns it",
                tells=tuple((d, f"The Lunatic ({player}) chose {target} tonight.")
                            for d in demons))


def _pukka(state, player, choice, _deaths) -> Info:
    earlier = [n.choice_of(player) for n in state.past_nights if n.number == state.cycle - 1]
    victim = _target(earlier[0]) if earlier and earlier[0] else None
    target = _target(choice) or "nobody"
    if is_malfunctioning(state, player):
        return Info(note=f"{state.setup.script.terms.malfunction}: nobody is poisoned or dies")
    dies = victim if victim and state.seat(victim).alive else None
    effects = tuple(Effect(p, "poisoned", v, "the Pukka") for p, v in
                    ((target, True), (dies, False)) if p and p != "nobody")
    return Info(note=f"{target} is poisoned; " + (f"last night's {victim} dies"
                                                  if dies else "nobody dies"),
                death=dies, effects=effects)


def _lleech(state, player, choice, deaths) -> Info:
    if state.cycle == 1:
        host = _target(choice)
        return Info(note=f"{host or '(no choice)'} is the Lleech's host: poisoned; the Lleech "
                    "dies if and only if they die",
                    effects=(Effect(host, "poisoned", True, "the Lleech's host"),)
                    if host and not is_malfunctioning(state, player) else ())
    return _kill(state, player, choice, deaths)


def _gambler(state, player, choice, _deaths) -> Info:
    if choice is None or not choice.players or not choice.chosen_character:
        return Info()
    real = true_character(state, choice.players[0])
    if real is not None and real.id == choice.chosen_character:
        return Info(note="the guess is right: nothing happens")
    if is_malfunctioning(state, player):
        return Info(note="the guess is wrong, but the Gambler malfunctions: no death")
    return Info(note="the guess is wrong: the Gambler dies", death=player)


# -- information ------------------------------------------------------------------------------

def _chef(state, _player, _choice, _deaths) -> Info:
    names = _seats(state)
    pairs = sum(1 for i, name in enumerate(names)
                if is_evil(state, name) and is_evil(state, names[(i + 1) % len(names)]))
    return Info(str(pairs), "There are {value} pair(s) of evil players sitting together.")


def _empath(state, player, _choice, _deaths) -> Info:
    evil = sum(1 for n in living_neighbours(state, player) if is_evil(state, n))
    return Info(str(evil), "{value} of your living neighbours are evil.")


def _clockmaker(state, _player, _choice, _deaths) -> Info:
    seats = [s.name for s in state.seats if not s.traveller]
    demons = [seats.index(p) for p in players_of_team(state, "demon", False) if p in seats]
    minions = [seats.index(p) for p in players_of_team(state, "minion", False) if p in seats]
    if not demons or not minions:
        return Info(note="no Demon or no Minion in the grimoire: choose a number",
                    needs_result=True)
    n = len(seats)
    steps = min(min((d - m) % n, (m - d) % n) for d in demons for m in minions)
    return Info(str(steps), "The Demon is {value} step(s) from its nearest Minion.")


def _librarian(state, player, _choice, _deaths) -> Info:
    outsiders = [p for p in players_of_team(state, "outsider", False) if p != player]
    if not outsiders:
        return Info(note="no Outsiders in play", needs_result=True,
                    result="Zero Outsiders are in play.")
    shown = outsiders[0]
    wrong = next(n for n in _seats(state) if n not in (shown, player))
    pair = sorted((shown, wrong), key=_seats(state).index)
    name = true_character(state, shown).name
    return Info(note=f"show {shown} (the {name}) and another player", needs_result=True, result=f"One of {pair[0]} and {pair[1]} is the {name}.")


def _noble(state, player, _choice, _deaths) -> Info:
    others = [n for n in _seats(state) if n != player and not state.seat(n).traveller]
    evil = [n for n in others if is_evil(state, n)]
    good = [n for n in others if not is_evil(state, n)]
    if not evil or len(good) < 2:
        return Info(note="not enough players: choose three", needs_result=True)
    three = sorted([evil[0]] + good[:2], key=_seats(state).index)
    return Info(note=f"{evil[0]} is the evil one (proposed)", needs_result=True,
                result=f"Exactly one of {', '.join(three)} is evil.")


def _pixie(state, player, _choice, _deaths) -> Info:
    townsfolk = [p for p in players_of_team(state, "townsfolk", False) if p != player]
    if not townsfolk:
        return Info(note="no other Townsfolk in play", needs_result=True)
    name = true_character(state, townsfolk[0]).name
    return Info(note=f"show an in-play Townsfolk; proposed: {name} ({townsfolk[0]})",
                needs_result=True, result=f"The {name} is in play.")


def _oracle(state, _player, _choice, _deaths) -> Info:
    dead_evil = sum(1 for s in state.seats if not s.alive and not s.traveller
                    and is_evil(state, s.name))
    return Info(str(dead_evil), "{value} dead player(s) are "
                f"{state.setup.script.terms.evil}s.")


def _undertaker(state, _player, _choice, _deaths) -> Info:
    day = yesterday(state)
    if day is None or day.executed is None:
        return Info(note="nobody was executed today: the Undertaker learns nothing")
    real = true_character(state, day.executed)  # the Drunk shows as the Drunk
    return Info(real.name if real else "?", f"{day.executed} was the {{value}}.")


def _town_crier(state, _player, _choice, _deaths) -> Info:
    day = yesterday(state)
    minions = set(players_of_team(state, "minion", False))
    nominated = bool(day) and any(n.nominator in minions for n in day.nominations)
    return Info(_yes(nominated), "A Minion nominated today: {value}.")


def _flowergirl(state, _player, _choice, _deaths) -> Info:
    day = yesterday(state)
    demons = set(players_of_team(state, "demon", False))
    voted = bool(day) and any(v.player in demons and v.vote == YES
                              for n in day.nominations + day.exiles for v in n.locked)
    return Info(_yes(voted), "The Demon voted today: {value}.")


def _seamstress(state, _player, choice, _deaths) -> Info:
    if choice is None or len(choice.players) != 2:
        return Info()
    a, b = choice.players
    same = alignment_of(state, a) == alignment_of(state, b)
    return Info(_yes(same), f"{a} and {b} are the same alignment: {{value}}.")


def _chambermaid(state, _player, choice, deaths) -> Info:
    if choice is None or len(choice.players) != 2:
        return Info()
    order = state.setup.script.night_order(state.cycle)
    woke = sum(1 for p in choice.players if p not in deaths and state.seat(p).alive
               and (c := acting_character(state, p)) is not None and c.id in order)
    return Info(str(woke), f"Of {choice.players[0]} and {choice.players[1]}, {{value}} "
                "woke tonight due to their ability.")


def _dreamer(state, _player, choice, _deaths) -> Info:
    target = _target(choice)
    if target is None:
        return Info()
    real = true_character(state, target)
    return Info(note=f"show 1 good and 1 evil character for {target}; one must be the "
                f"{real.name if real else '(no character recorded)'}", needs_result=True)


def _godfather(state, _player, _choice, _deaths) -> Info:
    if state.cycle != 1:
        return Info(note="if an Outsider died today, the Godfather chooses a player who dies "
                    "(ask by !tell; add with !dies)")
    names = sorted(true_character(state, p).name
                   for p in players_of_team(state, "outsider", False))
    return Info(", ".join(names) or "none", "Outsiders in play: {value}.")


def _snake_charmer(state, player, choice, _deaths) -> Info:
    target = _target(choice)
    if target is None:
        return Info()
    character = true_character(state, target)
    if character is None or character.team != "demon":
        return Info(note=f"{target} is not the Demon: nothing happens")
    return Info(note=f"{target} is the Demon: swap characters and alignments with {player} "
                "(!character, !alignment); the new Snake Charmer malfunctions",
                result=f"You chose the Demon: you are now the {character.name} and "
                f"{state.setup.script.terms.evil}.", needs_result=True)


def _cerenovus(state, _player, choice, _deaths) -> Info:
    target = _target(choice)
    if target is None:
        return Info()
    name = character_names(state).get(choice.chosen_character, "?")
    return Info(note=f"{target} must be mad about being the {name} tomorrow (told at dawn)",
                tells=((target, f"You are mad that you are the {name}: if you do not act as "
                        f"the {name} tomorrow, you might be executed."),))


def _damsel(state, _player, _choice, _deaths) -> Info:
    if state.cycle != 1:
        return Info()
    minions = players_of_team(state, "minion")
    return Info(note="each Minion learns a Damsel is in play (told at dawn)",
                tells=tuple((m, "A Damsel is in play.") for m in minions))


def _widow(state, player, choice, _deaths) -> Info:
    good = [n for n in _seats(state) if not is_evil(state, n) and state.seat(n).alive]
    knows, target = (good[0] if good else None), _target(choice)
    poison = (Effect(target, "poisoned", True, "the Widow"),) \
        if target and not is_malfunctioning(state, player) else ()
    return Info(note=f"{target or '(no choice)'} is poisoned; send the Widow the grimoire "
                f"(!tell); proposed to learn a Widow is in play: {knows}",
                tells=((knows, "A Widow is in play."),) if knows else (), effects=poison)


def _poisoner(state, player, choice, _deaths) -> Info:
    target = _target(choice)
    if target is None:
        return Info(note="no choice sent")
    if is_malfunctioning(state, player):
        return Info(note=f"{state.setup.script.terms.malfunction}: {target} is not poisoned")
    return Info(note=f"{target} is poisoned tonight and tomorrow",
                effects=(Effect(target, "poisoned", True, "the Poisoner", until_dusk=True),))


def _mezepheles(_state, _player, _choice, _deaths) -> Info:
    return Info(note="choose the secret word", needs_result=True)


def _sage(_state, player, _choice, deaths) -> Info:
    if player not in deaths:
        return Info(note="not killed by the Demon: nothing to learn")
    return Info(note="the Demon killed the Sage: show 2 players, one the Demon",
                needs_result=True)


def _juggler(state, _player, _choice, _deaths) -> Info:
    if state.cycle != 2:
        return Info(note="learns only on the night after their first day")
    return Info(note="how many of the day-1 guesses were right", needs_result=True)


def _simple(note: str, needs_result: bool = False):
    def compute(state, _player, choice, _deaths) -> Info:
        target = ", ".join(choice.players) if choice and choice.players else "(no choice)"
        chosen = character_names(state).get(choice.chosen_character, "") if choice else ""
        return Info(note=note.format(target=target, chosen=chosen), needs_result=needs_result)
    return compute


_INFO = {
    "kill": _kill, "pukka": _pukka, "lleech": _lleech, "gambler": _gambler,
    "chef": _chef, "empath": _empath, "clockmaker": _clockmaker, "librarian": _librarian,
    "noble": _noble, "pixie": _pixie, "oracle": _oracle, "undertaker": _undertaker,
    "towncrier": _town_crier, "flowergirl": _flowergirl, "seamstress": _seamstress,
    "chambermaid": _chambermaid, "dreamer": _dreamer, "godfather": _godfather,
    "snakecharmer": _snake_charmer, "cerenovus": _cerenovus, "damsel": _damsel,
    "widow": _widow, "mezepheles": _mezepheles, "sage": _sage, "juggler": _juggler,
    "mathematician": _simple("how many abilities worked abnormally since dawn", True),
    "doppelganger": _simple("choose the opposing twin; each learns the other", True),
    "witch": _simple("{target} is cursed: if they nominate tomorrow, they die"),
    "pithag": _simple("{target} becomes the {chosen} if not in play (apply with !character); "
                      "if a Demon is made, tonight's deaths are arbitrary"),
    "philosopher": _simple("gains the {chosen} ability; if it is in play, that player "
                           "malfunctions"),
    "monk": _simple("{target} is safe from the Demon tonight"),
    "poisoner": _poisoner,
    "devilsadvocate": _simple("{target} does not die if executed tomorrow"),
    "fearmonger": _simple("{target} is feared: if the Fearmonger nominates and executes them, "
                          "their team loses; announce a new choice"),
    "innkeeper": _simple("{target} cannot die tonight; choose which one is drunk until dusk"),
    "huntsman": _simple("if {target} is the Damsel, they become a not-in-play Townsfolk"),
    "acrobat": _simple("the Acrobat dies if a good living neighbour is drunk or poisoned"),
    "lilmonsta": _simple("the Minions choose the babysitter; a player might die"),
}

__all__ = ["Info", "compute"]
