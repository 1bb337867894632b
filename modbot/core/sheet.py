"""Theory of operation: the night sheet, built from the grimoire when choices lock.

`build_sheet(state)` walks the script's night order (first night and other nights differ) and
makes one `SheetEntry` per player acting at each step: their choice, their status (dead,
malfunctioning, mad, really another character), and a suggestion. Where the rules make the
answer computable from the grimoire (Clockmaker, Oracle, Town Crier, Flowergirl, Seamstress),
the suggestion is the true answer and becomes the player's default result; a malfunctioning
player gets "ST decides" with the true answer shown; under a working Vortox, Townsfolk get a
false answer. A Demon's kill of a living player becomes a proposed death. Everything else is
"ST decides" with what there is to decide. The Storytellers edit and approve it (commands).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .model import YES, GameState
from .night import acting_character, used_on
from .night_model import NightChoice, SheetEntry
from .private_events import night_of
from .script import SPECIAL_STEPS, Character


@dataclass(frozen=True, slots=True)
class Info:
    value: str | None = None  # the true answer, when computable
    sentence: str = "{value}"  # what the player is told, with {value}
    note: str = ""  # what the Storyteller decides, or the effect to apply
    needs_result: bool = False
    death: str | None = None
    tell: tuple[str, str] | None = None  # (player, message) proposed to send at dawn
    result: str | None = None  # a proposed result when there is no computed value


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


def is_malfunctioning(state: GameState, player: str) -> bool:
    entry = state.grimoire_of(player)
    return entry.poisoned or entry.drunk or bool(entry.thinks and entry.thinks != entry.character)


def players_of_team(state: GameState, team: str, alive: bool = True) -> list[str]:
    return [s.name for s in state.seats if (s.alive or not alive)
            and (c := true_character(state, s.name)) is not None and c.team == team]


def build_sheet(state: GameState):
    """(sheet, deaths, results, tells) for the current night."""
    night = night_of(state, state.cycle)
    order = state.setup.script.night_order(state.cycle)
    killed_at: dict[str, int] = {}  # who dies tonight, and at which step of the order
    for choice in night.choices:
        death = _info(state, choice.player, choice).death
        if death and choice.character in order:
            killed_at.setdefault(death, order.index(choice.character))
    deaths = tuple(killed_at)
    entries, results, tells, listed = [], [], [], set()
    for index, step in enumerate(order):
        if step in SPECIAL_STEPS:
            if state.cycle == 1:
                entries.append(_special(state, step))
            continue
        for seat in state.seats:
            character = acting_character(state, seat.name)
            if character is None or character.id != step:
                continue
            listed.add(seat.name)
            if killed_at.get(seat.name, index) < index:
                entries.append(SheetEntry(step, seat.name, character.name, "",
                                          _status(state, seat.name),
                                          "killed earlier tonight: does not act"))
                continue
            entry, result, tell = _entry(state, seat.name, character, night.choice_of(seat.name),
                                         deaths)
            entries.append(entry)
            results.extend([(seat.name, result)] if result else [])
            tells.extend([tell] if tell else [])
    for choice in night.choices:  # requests outside the night order (free text, day abilities)
        if choice.player not in listed:
            entries.append(SheetEntry("other", choice.player, _name(state, choice.player),
                                      choice.describe(), _status(state, choice.player),
                                      "ST decides: a request outside the night order"))
    return tuple(entries), deaths, tuple(results), tuple(tells)


def _name(state: GameState, player: str) -> str:
    character = acting_character(state, player)
    return character.name if character else "(no character)"


def _special(state: GameState, step: str) -> SheetEntry:
    terms = state.setup.script.terms
    evil = [f"{p} ({true_character(state, p).team})" for p in
            players_of_team(state, "minion", False) + players_of_team(state, "demon", False)]
    if step == "minioninfo":
        text = f"the starting {terms.evil}s learned each other: {', '.join(evil) or 'none'}"
    else:
        names = [state.setup.script.get(b).name for b in state.setup.bluffs
                 if state.setup.script.get(b)]
        text = f"the Demon learned its bluffs: {', '.join(names) or 'none set'}"
    return SheetEntry(step, None, SPECIAL_STEPS[step], "", (), f"done: {text} (sent with "
                      "the characters)")


def _status(state: GameState, player: str) -> tuple[str, ...]:
    entry, out = state.grimoire_of(player), []
    if not state.seat(player).alive:
        out.append("dead")
    if is_malfunctioning(state, player):
        out.append(state.setup.script.terms.malfunction)
    if entry.mad_as:
        out.append(f"mad as {entry.mad_as}")
    if entry.thinks and entry.thinks != entry.character:
        real = true_character(state, player)
        out.append(f"is really the {real.name if real else entry.character}")
    return tuple(out)


def _entry(state: GameState, player: str, character: Character, choice: NightChoice | None,
           deaths: tuple[str, ...]):
    spec = character.spec
    shown = choice.describe(_names(state)) if choice else (
        "no choice sent" if spec.wakes_on(state.cycle) and spec.chooses
        and state.seat(player).alive else "")
    base = SheetEntry(character.id, player, character.name, shown, _status(state, player))
    if not state.seat(player).alive:
        return replace(base, suggestion="dead: does not act"), None, None
    used = used_on(state, player, character.id) if spec.once else None
    if used is not None and choice is None:
        return replace(base, choice="", suggestion=f"used its once-per-game ability on "
                       f"night {used}"), None, None
    info = _info(state, player, choice, character, deaths)
    if info.value is None:
        if info.needs_result:
            suggestion = f"ST decides: {info.note}"
        else:
            suggestion = info.note or (f"ST decides: {spec.st}" if spec.st else "nothing to do")
        return replace(base, suggestion=suggestion, needs_result=info.needs_result), \
            info.result, info.tell
    sentence = info.sentence.format(value=info.value)
    if is_malfunctioning(state, player):
        text = f"ST decides ({state.setup.script.terms.malfunction}); true answer: {sentence}"
        return replace(base, suggestion=text, needs_result=True), None, info.tell
    if character.team == "townsfolk" and _vortox_works(state):
        false = info.sentence.format(value=_falsify(info.value))
        text = f"false under the Vortox: {false} (true: {sentence})"
        return replace(base, suggestion=text, needs_result=True), false, info.tell
    return replace(base, suggestion=sentence, needs_result=True), sentence, info.tell


def _names(state: GameState) -> dict[str, str]:
    return {c.id: c.name for c in state.setup.script.characters}


def _vortox_works(state: GameState) -> bool:
    return any(not is_malfunctioning(state, p) for p in players_of_team(state, "demon")
               if true_character(state, p).id == "vortox")


def _falsify(value: str) -> str:
    if value in ("yes", "no"):
        return "no" if value == "yes" else "yes"
    return str(int(value) + 1 if int(value) == 0 else int(value) - 1)


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


# -- what each ability yields -----------------------------------------------------------------

def _info(state: GameState, player: str, choice: NightChoice | None,
          character: Character | None = None, deaths: tuple[str, ...] = ()) -> Info:
    character = character or acting_character(state, player)
    if character is None:
        return Info()
    compute = _INFO.get(character.spec.info or "")
    return compute(state, player, choice, deaths) if compute else Info()


def _kill(state, player, choice, _deaths) -> Info:
    if choice is None or not choice.players:
        return Info(note="the Demon sent no choice: choose a death or !nodeath")
    target = choice.players[0]
    if is_malfunctioning(state, player):
        return Info(note=f"the Demon is {state.setup.script.terms.malfunction}: the kill on "
                    f"{target} fails unless you say otherwise (!dies)")
    if not state.seat(target).alive:
        return Info(note=f"{target} is already dead: no death")
    return Info(note=f"{target} dies", death=target)


def _clockmaker(state, _player, _choice, _deaths) -> Info:
    seats = [s.name for s in state.seats if not s.traveller]
    demons = [seats.index(p) for p in players_of_team(state, "demon", False) if p in seats]
    minions = [seats.index(p) for p in players_of_team(state, "minion", False) if p in seats]
    if not demons or not minions:
        return Info(note="no Demon or no Minion in the grimoire: choose a number")
    n = len(seats)
    steps = min(min((d - m) % n, (m - d) % n) for d in demons for m in minions)
    return Info(str(steps), "The Demon is {value} step(s) from its nearest Minion.")


def _oracle(state, _player, _choice, _deaths) -> Info:
    dead_evil = sum(1 for s in state.seats if not s.alive and not s.traveller
                    and alignment_of(state, s.name) == "evil")
    return Info(str(dead_evil), "{value} dead player(s) are "
                f"{state.setup.script.terms.evil}s.")


def _yesterday(state: GameState):
    return state.past_days[-1] if state.past_days and state.past_days[-1].number == \
        state.cycle - 1 else None


def _town_crier(state, _player, _choice, _deaths) -> Info:
    day = _yesterday(state)
    minions = set(players_of_team(state, "minion", False))
    nominated = bool(day) and any(n.nominator in minions for n in day.nominations)
    return Info(_yes(nominated), "A Minion nominated today: {value}.")


def _flowergirl(state, _player, _choice, _deaths) -> Info:
    day = _yesterday(state)
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


def _dreamer(state, _player, choice, _deaths) -> Info:
    if choice is None or not choice.players:
        return Info()
    target = choice.players[0]
    real = true_character(state, target)
    return Info(note=f"show 1 good and 1 evil character for {target}; one must be the "
                f"{real.name if real else '(no character recorded)'}", needs_result=True)


def _snake_charmer(state, player, choice, _deaths) -> Info:
    if choice is None or not choice.players:
        return Info()
    target = choice.players[0]
    character = true_character(state, target)
    if character is None or character.team != "demon":
        return Info(note=f"{target} is not the Demon: nothing happens")
    terms = state.setup.script.terms
    return Info(note=f"{target} is the Demon: swap characters and alignments with {player} "
                "(!character, !alignment); the new Snake Charmer malfunctions",
                result=f"You chose the Demon: you are now the {character.name} and "
                f"{terms.evil}.", needs_result=True)


def _cerenovus(state, _player, choice, _deaths) -> Info:
    if choice is None or not choice.players:
        return Info()
    target, name = choice.players[0], _names(state).get(choice.chosen_character, "?")
    return Info(note=f"{target} must be mad about being the {name} tomorrow (told at dawn)",
                tell=(target, f"You are mad that you are the {name}: if you do not act as "
                      "the {name} tomorrow, you might be executed.".replace("{name}", name)))


def _simple(note: str, needs_result: bool = False):
    def compute(state, _player, choice, _deaths) -> Info:
        target = ", ".join(choice.players) if choice and choice.players else "(no choice)"
        chosen = _names(state).get(choice.chosen_character, "") if choice else ""
        return Info(note=note.format(target=target, chosen=chosen), needs_result=needs_result)
    return compute


def _sage(_state, player, _choice, deaths) -> Info:
    if player not in deaths:
        return Info(note="not killed by the Demon: nothing to learn")
    return Info(note="the Demon killed the Sage: show 2 players, one the Demon",
                needs_result=True)


def _juggler(state, _player, _choice, _deaths) -> Info:
    if state.cycle != 2:
        return Info(note="learns only on the night after their first day")
    return Info(note="how many of the day-1 guesses were right", needs_result=True)


_INFO = {
    "kill": _kill, "clockmaker": _clockmaker, "oracle": _oracle, "towncrier": _town_crier,
    "flowergirl": _flowergirl, "seamstress": _seamstress, "dreamer": _dreamer,
    "snakecharmer": _snake_charmer, "cerenovus": _cerenovus,
    "mathematician": _simple("how many abilities worked abnormally since dawn", True),
    "juggler": _juggler, "sage": _sage,
    "doppelganger": _simple("choose the opposing twin; each learns the other", True),
    "witch": _simple("{target} is cursed: if they nominate tomorrow, they die"),
    "pithag": _simple("{target} becomes the {chosen} if not in play (apply with !character); "
                      "if a Demon is made, tonight's deaths are arbitrary"),
    "philosopher": _simple("gains the {chosen} ability; if it is in play, that player "
                           "malfunctions"),
}

__all__ = ["alignment_of", "build_sheet", "is_malfunctioning", "players_of_team",
           "true_character"]
