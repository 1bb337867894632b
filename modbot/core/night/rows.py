"""Theory of operation: one row of the night sheet, as the Storytellers read it.

`row_of` turns what an ability yields (`information.compute`, run by the caller at the
player's step) into the row: the choice, the player's status as the night has made it so far
(dead, malfunctioning, mad, really another character), and the suggestion. Where the grimoire
decides the answer it is the suggestion and the player's default result; a malfunctioning
player gets "ST decides" with the true answer shown; under a working Vortox, Townsfolk get a
false answer (a number or yes/no is changed; anything else is left to the Storyteller, who
must make it false). `special_row` and `lunatic_rows` are the first night's Minion and Demon
info.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ..characters.information import VORTOX_FALSE
from ..reading.numbers import whole_number
from ..state.grimoire import (
    acting_character,
    character_names,
    is_malfunctioning,
    players_of_team,
    true_character,
    used_on,
)
from ..state.model import GameState
from ..state.night_model import Info, NightChoice, SheetEntry
from ..state.script import Character
from ..wording import Say, say


def name_of(state: GameState, player: str) -> str | Say:
    character = acting_character(state, player)
    return character.name if character else say("label.no_character")


def special_row(state: GameState, step: str) -> SheetEntry:
    terms = state.setup.private_script.terms
    evil = [say("sheet.player_team", player=p, team=real.team) for p in
            players_of_team(state, "minion", False) + players_of_team(state, "demon", False)
            if (real := true_character(state, p)) is not None]
    if step == "minioninfo":
        text = say("sheet.minion_info", team=terms.evil, players=evil or say("sheet.none"))
    elif state.setup.lil_monsta:
        text = say("sheet.demon_info_lil_monsta")
    else:
        text = _demon_bluffs(state)
    label = say("label.minion_info") if step == "minioninfo" else say("label.demon_info")
    return SheetEntry(step, None, label, None, (), say("sheet.done", what=text))


def _demon_bluffs(state: GameState) -> Say:
    """What each Demon learned: its own bluffs (several evil teams), else the game's."""
    script = state.setup.private_script
    learned = [(demon, [script.name_of(b) for b in state.grimoire_of(demon).bluffs or state.bluffs
                        if script.get(b)]) for demon in players_of_team(state, "demon", False)]
    if len(learned) <= 1:
        names = learned[0][1] if learned else [script.name_of(b) for b in state.bluffs
                                               if script.get(b)]
        return say("sheet.demon_info", bluffs=names or say("sheet.none_set"))
    return say("sheet.demons_info", demons=[
        say("sheet.demon_learned", demon=demon, bluffs=names or say("sheet.none_set"))
        for demon, names in learned])


def lunatic_rows(state: GameState) -> list[tuple[SheetEntry, tuple[tuple[str, Say], ...]]]:
    """The Lunatic is shown Demon info (made up by the ST); the real Demon learns of them."""
    demons = players_of_team(state, "demon")
    out = []
    for lunatic in [s.name for s in state.seats
                    if (c := true_character(state, s.name)) and c.spec.believes == "demon"]:
        entry = SheetEntry("demoninfo", lunatic, say("label.lunatic"), None, status_of(state, lunatic),
                           say("sheet.lunatic_demon_info"), needs_result=True)
        out.append((entry, tuple((d, say("tell.lunatic", player=lunatic)) for d in demons)))
    return out


def status_of(state: GameState, player: str, dead: bool = True) -> tuple[Say, ...]:
    """The player's state as the sheet shows it (`dead`: say so when they are dead)."""
    entry, out = state.grimoire_of(player), []
    if dead and not state.seat(player).alive:
        out.append(say("status.dead"))
    real = true_character(state, player)
    # The Lunatic and the Marionette only believe another character: neither is drunk or
    # poisoned for that (their row says what they really are); the Drunk is.
    believes = real is not None and real.spec.believes in ("demon", "good") and \
        not (entry.poisoned or entry.drunk)
    if is_malfunctioning(state, player) and not believes:
        out.append(say("status.malfunctioning", term=state.setup.private_script.terms.malfunction))
    if entry.mad_as:
        out.append(say("status.mad_as", character=entry.mad_as))
    if entry.thinks and entry.thinks != entry.character:
        out.append(say("status.is_really", character=real.name if real else entry.character))
    return tuple(out)


def row_of(state: GameState, player: str, character: Character, choice: NightChoice | None,
           alive: bool, compute_info: Callable[[], Info],
           ) -> tuple[SheetEntry, Say | None, Info | None]:
    """(entry, default result or None, the Info acted on, or None when the player does not
    act) for one player at their step (`alive`: alive, or their ability works after death);
    `compute_info()` runs the ability."""
    spec = character.spec
    shown = choice.describe(character_names(state)) if choice else (
        say("sheet.no_choice") if spec.chooses_on(state.cycle) and alive else None)
    base = SheetEntry(character.id, player, character.name, shown, status_of(state, player))
    if not alive and not spec.acts_dead:
        return replace(base, suggestion=say("sheet.dead")), None, None
    if not alive and not (spec.when_killed and spec.info):  # on-death: the Sweetheart's
        return replace(base, suggestion=say("sheet.st_decides", what=spec.st)), None, None
    used = used_on(state, player, character.id) if spec.once else None
    if used is not None and choice is None:
        return replace(base, choice=None, suggestion=say("sheet.used", night=used)), None, None
    info = compute_info()
    entry, told = _suggested(state, base, player, character, info)
    return _with_sentence(entry, info), told, info


def _with_sentence(entry: SheetEntry, info: Info) -> SheetEntry:
    """The row's suggestion carries the character's sentence (parameter `sentence`), so that
    the Storytellers' bare `!result Alex 2` reads as it (the words ignore the parameter)."""
    if info.sentence.code == "result.value" or entry.suggestion is None:
        return entry
    return replace(entry, suggestion=entry.suggestion.but(sentence=info.sentence))


def _suggested(state: GameState, base: SheetEntry, player: str, character: Character,
               info: Info) -> tuple[SheetEntry, Say | None]:
    """The row with the bot's suggestion, and the result proposed by default (or None)."""
    spec = character.spec
    true = info.told()
    vortox = character.team == "townsfolk" and _vortox_works(state)
    if vortox and (true is not None or info.needs_result):
        return _under_vortox(base, info, true, character.id)  # false even if drunk
    if true is not None and is_malfunctioning(state, player):
        text = say("sheet.malfunctioning", term=state.setup.private_script.terms.malfunction, true=true)
        return replace(base, suggestion=text, needs_result=True), None
    if info.value is not None:
        return replace(base, suggestion=true, needs_result=True), true
    if info.needs_result:
        suggestion = say("sheet.st_decides_proposed", what=info.note, proposed=true) if true \
            else say("sheet.st_decides", what=info.note)
    else:
        suggestion = info.note or (say("sheet.st_decides", what=spec.st) if spec.st
                                   else say("sheet.nothing"))
    return replace(base, suggestion=suggestion, needs_result=info.needs_result), true


def _under_vortox(base: SheetEntry, info: Info, true: Say | None, character: str) -> tuple[SheetEntry, Say | None]:
    """The almanac, Vortox: "Anytime a Townsfolk player gets information from their ability,
    they get false information. Even if they are drunk or poisoned, it must be false": a false
    answer proposed where one can be made (a number, yes or no), else the Storytellers are told
    it must be false, in the character's own terms where it has them (`VORTOX_FALSE`), and the
    true answer is never the default result."""
    false = _falsify(info.value)
    if false is not None:
        false_text = info.told(false)
        return replace(base, suggestion=say("sheet.vortox", false=false_text, true=true),
                       needs_result=True), false_text
    if character in VORTOX_FALSE:
        params = {**dict(info.sentence.params), **(dict(info.note.params) if info.note else {})}
        return replace(base, suggestion=say(VORTOX_FALSE[character], **params, true=true),
                       needs_result=True), None
    if true is not None:
        return replace(base, suggestion=say("sheet.vortox_st", true=true), needs_result=True), None
    return replace(base, suggestion=say("sheet.vortox_note", what=info.note),
                   needs_result=True), None


def _vortox_works(state: GameState) -> bool:
    return any(not is_malfunctioning(state, p) for p in players_of_team(state, "demon")
               if (c := true_character(state, p)) is not None and c.spec.false_information)


def _falsify(value: str | None) -> str | None:
    """A false answer for a yes/no or a number; None when only the Storyteller can say."""
    if value in ("yes", "no"):
        return "no" if value == "yes" else "yes"
    number = whole_number(value) if value is not None else None
    if number is not None:
        return str(number + 1 if number == 0 else number - 1)
    return None


__all__ = ["lunatic_rows", "name_of", "row_of", "special_row", "status_of"]
