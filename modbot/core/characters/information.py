"""Theory of operation: what each ability yields tonight, computed from the grimoire.

Each function here is an information character's night rule, declared in `CHARACTERS` as its
`CharacterRules` (records.py merges them and asks them, `compute`). It returns an `Info`: the
true answer where the grimoire decides it (`value`, told to the player as `sentence`), or a
note of what the Storyteller decides (with a proposed `result` where one is reasonable), the
deaths the ability proposes, and messages for other players (`tells`: the Minions learning
that a Damsel is in play, say). Nothing here applies an effect: the night sheet shows it, the
Storytellers edit and approve it.
Malfunction and the Vortox are handled by the sheet, which sees the whole answer.
"""

from __future__ import annotations

from dataclasses import replace

from ..state.feature import CharacterRules, Information
from ..state.grimoire import (
    PIXIE_LEARNT,
    character_id,
    character_names,
    is_malfunctioning,
    jinxed,
    living_neighbours,
    players_of_team,
    yesterday,
)
from ..state.model import YES, GameState
from ..state.night_model import Effect, Info, NightChoice
from ..state.registration import (
    judged,
    reading_registration,
    registered_alignment,
    registered_character,
    registered_dealt,
    registered_of_team,
    registers_evil,
)
from ..wording import say
from .effects import godfather_kill
from .others_choose import barber_swap
from .public_abilities import juggler_correct
from .waking import woke_tonight

# Under a working Vortox, the false answer the Storytellers make up, in each character's terms
# (what the true answer is, what to show instead): night/rows.py words the row with it
VORTOX_FALSE = {
    "dreamer": "vortox_false.dreamer", "sage": "vortox_false.sage",
    "mathematician": "vortox_false.mathematician", "librarian": "vortox_false.librarian",
    "noble": "vortox_false.noble", "pixie": "vortox_false.pixie",
    "undertaker": "vortox_false.undertaker",
}


def yes_no(flag: bool) -> str:
    return "yes" if flag else "no"


def _seats(state: GameState) -> list[str]:
    return [s.name for s in state.seats]


def _target(choice: NightChoice | None) -> str | None:
    return choice.players[0] if choice and choice.players else None


# -- information ------------------------------------------------------------------------------

def _chef(state: GameState, _player: str, _choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
    names = _seats(state)
    pairs = sum(1 for i, name in enumerate(names)
                if registers_evil(state, name) and registers_evil(state, names[(i + 1) % len(names)]))
    return Info(str(pairs), say("result.chef"))


def _empath(state: GameState, player: str, _choice: NightChoice | None, deaths: tuple[str, ...]) -> Info:
    """Accurate at dawn: a neighbour killed tonight is skipped (seed 000)."""
    if deaths:
        state = state.evolve(seats=tuple(replace(s, alive=s.alive and s.name not in deaths)
                                         for s in state.seats))
    evil = sum(1 for n in living_neighbours(state, player) if registers_evil(state, n))
    return Info(str(evil), say("result.empath"))


def _clockmaker(state: GameState, _player: str, _choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
    seats = [s.name for s in state.seats if not s.traveller]
    demons = [seats.index(p) for p in registered_of_team(state, "demon", False) if p in seats]
    minions = [seats.index(p) for p in registered_of_team(state, "minion", False) if p in seats]
    n = len(seats)  # a Minion babysitting Lil' Monsta is the Demon: not its own Minion
    distances = [min((d - m) % n, (m - d) % n) for d in demons for m in minions if m != d]
    if not distances:
        return Info(note=say("info.clockmaker_no_pair"), needs_result=True)
    steps = min(distances)
    return Info(str(steps), say("result.clockmaker"))


def _librarian(state: GameState, player: str, _choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
    return shown_one_of(state, player, "outsider", Info(
        note=say("info.librarian_none"), needs_result=True, result=say("result.librarian_none")))


def shown_one_of(state: GameState, player: str, team: str, none: Info | None = None) -> Info:
    """Two players, one of them a named character of `team` (the Librarian's Outsider, the
    Washerwoman's Townsfolk, the Investigator's Minion); `none`: the row when there is none."""
    found = [p for p in registered_of_team(state, team, False) if p != player]
    if not found:
        return none or Info(note=say("info.one_of_none", team=team), needs_result=True)
    shown = found[0]
    wrong = next(n for n in _seats(state) if n not in (shown, player))
    pair = sorted((shown, wrong), key=_seats(state).index)
    name = registered_dealt(state, shown).name
    return Info(note=say("info.show_one_of", player=shown, character=name), needs_result=True,
                result=say("result.one_of", first=pair[0], second=pair[1], character=name))


def _shugenja(state: GameState, player: str, _choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
    """Clockwise is on in seat order; equally near both ways, the Storytellers pick."""
    names, me = _seats(state), _seats(state).index(player)
    evil = [i for i, n in enumerate(names) if n != player and registers_evil(state, n)]
    if not evil:
        return Info(note=say("info.one_of_none", team="evil"), needs_result=True)
    ahead = min((i - me) % len(names) for i in evil)
    behind = min((me - i) % len(names) for i in evil)
    if ahead == behind:
        return Info(note=say("info.shugenja_tie"), needs_result=True,
                    sentence=say("result.shugenja"))
    return Info("clockwise" if ahead < behind else "anticlockwise", say("result.shugenja"))


def _noble(state: GameState, player: str, _choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
    others = [n for n in _seats(state) if n != player and not state.seat(n).traveller]
    evil = [n for n in others if registers_evil(state, n)]
    good = [n for n in others if not registers_evil(state, n)]
    if not evil or len(good) < 2:
        return Info(note=say("info.noble_too_few"), needs_result=True)
    three = sorted([evil[0], *good[:2]], key=_seats(state).index)
    return Info(note=say("info.noble", player=evil[0]), needs_result=True,
                result=say("result.noble", players=three))


def _pixie(state: GameState, player: str, _choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
    townsfolk = [p for p in registered_of_team(state, "townsfolk", False) if p != player]
    if not townsfolk:
        return Info(note=say("info.pixie_none"), needs_result=True)
    learnt = townsfolk[0]
    shown = registered_dealt(state, learnt)
    marked = Effect(learnt, "reminders", (*state.grimoire_of(learnt).reminders, PIXIE_LEARNT),
                    say("by.pixie"))  # seed 003: the gain follows this player, not the character
    return Info(note=say("info.pixie", character=shown.name, player=learnt),
                needs_result=True, result=say("result.pixie", character=shown.name),
                effects=(Effect(player, "mad_as", shown.id, say("by.pixie")), marked))


def _oracle(state: GameState, _player: str, _choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
    dead_evil = sum(1 for s in state.seats if not s.alive and not s.traveller
                    and registers_evil(state, s.name))
    return Info(str(dead_evil), say("result.oracle", team=state.setup.private_script.terms.evil))


def _undertaker(state: GameState, _player: str, _choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
    day = yesterday(state)
    died = day.executed_and_died if day is not None else None
    if died is None:  # no execution, or one that killed nobody
        return Info(note=say("info.undertaker_none"))
    real = registered_character(state, died)  # the Drunk shows as the Drunk
    return Info(real.name if real else "?", say("result.undertaker", player=died))


def _town_crier(state: GameState, _player: str, _choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
    day = yesterday(state)
    minions = set(registered_of_team(state, "minion", False))
    nominated = day is not None and any(n.nominator in minions for n in day.nominations)
    return Info(yes_no(nominated), say("result.towncrier"))


def _flowergirl(state: GameState, _player: str, _choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
    day = yesterday(state)
    demons = set(registered_of_team(state, "demon", False))
    voted = day is not None and any(v.player in demons and v.vote == YES
                              for n in day.nominations + day.exiles for v in n.locked)
    return Info(yes_no(voted), say("result.flowergirl"))


def _seamstress(state: GameState, _player: str, choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
    if choice is None or len(choice.players) != 2:
        return Info()
    a, b = choice.players
    same = registered_alignment(state, a) == registered_alignment(state, b)
    return Info(yes_no(same), say("result.seamstress", first=a, second=b))


def _chambermaid(state: GameState, _player: str, choice: NightChoice | None, deaths: tuple[str, ...]) -> Info:
    if choice is None or len(choice.players) != 2:
        return Info()
    woke = sum(1 for p in choice.players if woke_tonight(state, p, deaths))
    return Info(str(woke), say("result.chambermaid", first=choice.players[0],
                               second=choice.players[1]))


def _dreamer(state: GameState, _player: str, choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
    target = _target(choice)
    if target is None:
        return Info()
    real = registered_character(state, target)
    return Info(note=say("info.dreamer", player=target, character=real.name) if real
                else say("info.dreamer_unknown", player=target), needs_result=True)


def _godfather(state: GameState, player: str, choice: NightChoice | None, deaths: tuple[str, ...]) -> Info:
    if state.cycle != 1:
        return godfather_kill(state, player, choice, deaths)
    names = sorted(c.name for p in registered_of_team(state, "outsider", False)
                   if (c := registered_character(state, p)) is not None)
    return judged(state, player, Info(", ".join(names) or "none", say("result.godfather")))


def _cerenovus(state: GameState, player: str, choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
    """A malfunctioning Cerenovus (made drunk by choosing the Goon, say) makes nobody mad:
    nobody is told, nothing is recorded (Oops All Evil's Goon: "the 1st player to choose you
    with their ability is drunk")."""
    target = _target(choice)
    if choice is None or target is None or choice.chosen_character is None:
        return Info()
    name = character_names(state).get(choice.chosen_character, "?")
    if is_malfunctioning(state, player):
        return Info(note=say("info.cerenovus_malfunctioning", player=target, character=name,
                             term=state.setup.private_script.terms.malfunction))
    return Info(note=say("info.cerenovus", player=target, character=name),
                tells=((target, say("tell.cerenovus", character=name, day=state.cycle)),),
                effects=(Effect(target, "mad_as", choice.chosen_character, say("by.cerenovus"),
                                until_dusk=True),))


def _damsel(state: GameState, _player: str, _choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
    if state.cycle != 1:
        return Info()
    minions = players_of_team(state, "minion")
    return Info(note=say("info.damsel"), tells=tuple((m, say("tell.damsel")) for m in minions))


def _mezepheles(_state: GameState, _player: str, _choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
    return Info(note=say("info.mezepheles"), needs_result=True)


def _agrees(unchosen: str, ask: str) -> Information:
    """The Hostess's (seed 001: chosen by day) and the official Harlot's (chosen tonight) step:
    the chosen player is asked to agree; if they do, their character, proposed."""
    def step(state: GameState, _player: str, choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
        target = _target(choice)
        if target is None:
            return Info(note=say(unchosen))
        real = registered_character(state, target)
        return Info(note=say(ask, player=target), needs_result=True,
                    result=say("result.is_the", player=target, character=real.name if real else "?"))
    return step


def _sage(_state: GameState, player: str, _choice: NightChoice | None, deaths: tuple[str, ...]) -> Info:
    if player not in deaths:
        return Info(note=say("info.sage_none"))
    return Info(note=say("info.sage"), needs_result=True)


def _juggler(state: GameState, player: str, _choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
    if state.cycle != 2:
        return Info(note=say("info.juggler_not_yet"))
    correct = juggler_correct(state, _eaten_juggler(state, player) or player)
    if correct is None:
        return Info(note=say("info.juggler_none"))
    return Info(str(correct), say("result.juggler"))


def _eaten_juggler(state: GameState, player: str) -> str | None:
    """The official Cannibal + Juggler jinx: a Cannibal with the Juggler's ability, the Juggler
    executed on day 1, learns how many of the Juggler's guesses were right."""
    if character_id(state, player) != "cannibal" or not jinxed(state, "cannibal", "juggler"):
        return None
    return next((s.name for s in state.seats if not s.alive
                 and character_id(state, s.name) == "juggler"
                 and any(d.number == 1 and d.executed_and_died == s.name
                         for d in state.past_days)), None)


def _mathematician(_state: GameState, _player: str, _choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
    """The Storytellers count; `!result Alex 2` reads as the Mathematician's sentence."""
    return Info(note=say("info.mathematician"), needs_result=True,
                sentence=say("result.mathematician"))


def _simple(code: str, needs_result: bool = False, unchosen: str | None = None) -> Information:
    """A note for the Storytellers with the choice's players (`target`) and character;
    `unchosen`: the note when no player was chosen."""
    def compute(state: GameState, _player: str, choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
        if unchosen is not None and not (choice and choice.players):
            return Info(note=say(unchosen), needs_result=needs_result)
        target = choice.players if choice and choice.players else say("info.no_choice")
        chosen = character_names(state).get(choice.chosen_character or "", "") if choice else ""
        return Info(note=say(code, target=target, chosen=chosen), needs_result=needs_result)
    return compute


CHARACTERS: tuple[CharacterRules, ...] = tuple(CharacterRules(cid, night=rule) for cid, rule in (
    *((cid, reading_registration(rule)) for cid, rule in (  # whose answers read players
        ("chef", _chef), ("empath", _empath), ("clockmaker", _clockmaker),
        ("librarian", _librarian), ("noble", _noble), ("pixie", _pixie), ("oracle", _oracle),
        ("undertaker", _undertaker), ("towncrier", _town_crier), ("flowergirl", _flowergirl),
        ("seamstress", _seamstress), ("dreamer", _dreamer), ("shugenja", _shugenja),
        ("hostess", _agrees("info.hostess_none", "info.hostess")),
        ("harlot", _agrees("info.no_choice_sent", "info.harlot")))),
    ("chambermaid", _chambermaid), ("godfather", _godfather),
    ("cerenovus", _cerenovus), ("damsel", _damsel), ("mezepheles", _mezepheles), ("sage", _sage),
    ("juggler", _juggler), ("mathematician", _mathematician),
    ("doppelganger", _simple("info.doppelganger", True)),
    ("monk", _simple("info.monk", unchosen="info.monk_none")),
    ("fearmonger", _simple("info.fearmonger", unchosen="info.fearmonger_none")),
    ("barber", barber_swap), ("lilmonsta", _simple("info.lilmonsta")),
))

__all__ = ["CHARACTERS", "VORTOX_FALSE", "Info", "shown_one_of", "yes_no"]
