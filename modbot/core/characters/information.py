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

from dataclasses import replace

from ..night.choices import acting_character
from ..night.others_choose import barber_swap
from ..state.model import YES, GameState
from ..state.night_model import Effect, Info, NightChoice
from .effects import EFFECTS, godfather_kill, lunatic
from .grimoire import (
    alignment_of,
    character_names,
    is_evil,
    living_neighbours,
    players_of_team,
    true_character,
    yesterday,
)
from .public_abilities import juggler_correct


def compute(state: GameState, player: str, choice: NightChoice | None,
            deaths: tuple[str, ...] = (), character=None) -> Info:
    character = character or acting_character(state, player)
    if character is None:
        return Info()
    if true_character(state, player) is not None and \
            true_character(state, player).id == "lunatic" and character.team == "demon":
        return lunatic(state, player, choice)
    handler = _INFO.get(character.spec.info or "")
    return handler(state, player, choice, deaths) if handler else Info()


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def _seats(state: GameState) -> list[str]:
    return [s.name for s in state.seats]


def _target(choice: NightChoice | None) -> str | None:
    return choice.players[0] if choice and choice.players else None


# -- information ------------------------------------------------------------------------------

def _chef(state, _player, _choice, _deaths) -> Info:
    names = _seats(state)
    pairs = sum(1 for i, name in enumerate(names)
                if is_evil(state, name) and is_evil(state, names[(i + 1) % len(names)]))
    return Info(str(pairs), "There are {value} pair(s) of evil players sitting together.")


def _empath(state, player, _choice, deaths) -> Info:
    """Accurate at dawn: a neighbour killed tonight is skipped (seed 000)."""
    if deaths:
        state = replace(state, seats=tuple(replace(s, alive=s.alive and s.name not in deaths)
                                           for s in state.seats))
    evil = sum(1 for n in living_neighbours(state, player) if is_evil(state, n))
    return Info(str(evil), "{value} of your living neighbours are evil.")


def _clockmaker(state, _player, _choice, _deaths) -> Info:
    seats = [s.name for s in state.seats if not s.traveller]
    demons = [seats.index(p) for p in players_of_team(state, "demon", False) if p in seats]
    minions = [seats.index(p) for p in players_of_team(state, "minion", False) if p in seats]
    n = len(seats)  # a Minion babysitting Lil' Monsta is the Demon: not its own Minion
    distances = [min((d - m) % n, (m - d) % n) for d in demons for m in minions if m != d]
    if not distances:
        return Info(note="no Demon or no Minion in the grimoire: choose a number",
                    needs_result=True)
    steps = min(distances)
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
    return Info(note=f"show {shown} (the {name}) and another player", needs_result=True,
                result=f"One of {pair[0]} and {pair[1]} is the {name}.")


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
    shown = true_character(state, townsfolk[0])
    return Info(note=f"show an in-play Townsfolk; proposed: {shown.name} ({townsfolk[0]}); "
                "if you show another, record it with !mad", needs_result=True,
                result=f"The {shown.name} is in play.",
                effects=(Effect(player, "mad_as", shown.id, "the Pixie"),))


def _oracle(state, _player, _choice, _deaths) -> Info:
    dead_evil = sum(1 for s in state.seats if not s.alive and not s.traveller
                    and is_evil(state, s.name))
    return Info(str(dead_evil), "Dead players on the "
                f"{state.setup.script.terms.evil} team: {{value}}.")


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


def _godfather(state, player, choice, deaths) -> Info:
    if state.cycle != 1:
        return godfather_kill(state, player, choice, deaths)
    names = sorted(true_character(state, p).name
                   for p in players_of_team(state, "outsider", False))
    return Info(", ".join(names) or "none", "Outsiders in play: {value}.")


def _cerenovus(state, _player, choice, _deaths) -> Info:
    target = _target(choice)
    if target is None:
        return Info()
    name = character_names(state).get(choice.chosen_character, "?")
    return Info(note=f"{target} must be mad about being the {name} tomorrow (told at dawn)",
                tells=((target, f"You are mad that you are the {name}: if you do not act as "
                        f"the {name} tomorrow, you might be executed."),),
                effects=(Effect(target, "mad_as", choice.chosen_character, "the Cerenovus",
                                until_dusk=True),))


def _damsel(state, _player, _choice, _deaths) -> Info:
    if state.cycle != 1:
        return Info()
    minions = players_of_team(state, "minion")
    return Info(note="each Minion learns a Damsel is in play (told at dawn)",
                tells=tuple((m, "A Damsel is in play.") for m in minions))


def _mezepheles(_state, _player, _choice, _deaths) -> Info:
    return Info(note="choose the secret word", needs_result=True)


def _hostess(state, _player, choice, _deaths) -> Info:
    """Seed 001's Hostess: the day's choice, if the chosen player agrees tonight."""
    target = _target(choice)
    if target is None:
        return Info(note="no choice sent by day: nothing tonight")
    real = true_character(state, target)
    return Info(note=f"ask {target} whether they agree (!tell); if not, say so with !result; "
                "both might die (!dies)", needs_result=True,
                result=f"{target} is the {real.name if real else '?'}.")


def _sage(_state, player, _choice, deaths) -> Info:
    if player not in deaths:
        return Info(note="not killed by the Demon: nothing to learn")
    return Info(note="the Demon killed the Sage: show 2 players, one the Demon",
                needs_result=True)


def _juggler(state, player, _choice, _deaths) -> Info:
    if state.cycle != 2:
        return Info(note="learns only on the night after their first day")
    correct = juggler_correct(state, player)
    if correct is None:
        return Info(note="made no guesses on day 1: nothing to learn")
    return Info(str(correct), "{value} of your day-1 guesses were right.")


def _simple(note: str, needs_result: bool = False):
    def compute(state, _player, choice, _deaths) -> Info:
        target = ", ".join(choice.players) if choice and choice.players else "(no choice)"
        chosen = character_names(state).get(choice.chosen_character, "") if choice else ""
        return Info(note=note.format(target=target, chosen=chosen), needs_result=needs_result)
    return compute


_INFO = {
    **EFFECTS,
    "chef": _chef, "empath": _empath, "clockmaker": _clockmaker, "librarian": _librarian,
    "noble": _noble, "pixie": _pixie, "oracle": _oracle, "undertaker": _undertaker,
    "towncrier": _town_crier, "flowergirl": _flowergirl, "seamstress": _seamstress,
    "chambermaid": _chambermaid, "dreamer": _dreamer, "godfather": _godfather,
    "cerenovus": _cerenovus, "damsel": _damsel, "mezepheles": _mezepheles, "sage": _sage, "juggler": _juggler,
    "mathematician": _simple("how many abilities worked abnormally since dawn", True),
    "doppelganger": _simple("choose the opposing twin; each learns the other", True),
    "monk": _simple("{target} is safe from the Demon tonight"),
    "fearmonger": _simple("{target} is feared: if the Fearmonger nominates and executes them, "
                          "their team loses; announce a new choice"),
    "barber": barber_swap, "hostess": _hostess,
    "lilmonsta": _simple("the Minions choose the babysitter; a player might die"),
}

__all__ = ["Info", "compute"]
