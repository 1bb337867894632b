"""Theory of operation: the night sheet, built from the grimoire when choices lock.

`build_sheet(state)` walks the script's night order (first night and other nights differ) and
makes one `SheetEntry` per player acting at each step: their choice, their status (dead,
malfunctioning, mad, really another character), and a suggestion from `information.compute`.
Where the grimoire decides the answer it is the suggestion and the player's default result;
a malfunctioning player gets "ST decides" with the true answer shown; under a working Vortox,
Townsfolk get a false answer (a number or yes/no is changed; anything else is left to the
Storyteller, who must make it false). Proposed deaths come from the kills; a player killed at
an earlier step does not act. The Storytellers edit and approve it (night_commands.py).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..characters import fabled
from ..characters.grimoire import (
    alignment_of,
    character_names,
    is_malfunctioning,
    players_of_team,
    true_character,
)
from ..characters.ids import ASSASSIN, BARBER, BONE_COLLECTOR, GOON, LIL_MONSTA, LUNATIC, MOONCHILD, SAGE, VORTOX
from ..characters.information import compute
from ..characters.others_choose import lil_monsta_step, word_turns
from ..characters.public_abilities import moonchild_deaths, turned_by_word
from ..setup.script import SPECIAL_STEPS, Character
from ..state.model import GameState, GrimoireEntry
from ..state.night_model import Effect, NightChoice, SheetEntry
from ..state.private_events import night_of
from ..wording import Say, say
from .choices import acting_character, used_on

ACTS_WHEN_KILLED = {SAGE, BARBER}  # abilities that work because their player is killed


def build_sheet(state: GameState):
    """(sheet, deaths, results, tells, effects) for the current night. Tonight's poisonings
    are seen by every later step (the poisoners wake first in every night order)."""
    night = night_of(state, state.cycle)
    order = state.setup.script.night_order(state.cycle)
    actors = _actors(state, order)
    goon = _goon(state, actors)
    # The Goon's chooser is drunk from its step on, except an Assassin: its kill still lands
    # (seed 002: "they join the Assassin's team and die").
    state = _with_poison(state, [e for e in goon if e.field == "drunk"
                                 and true_character(state, e.player).id != ASSASSIN])
    poisoned = [e for player in actors for e in
                compute(state, player, night.choice_of(player)).effects
                if e.field == "poisoned" and e.value]
    state = _with_poison(state, poisoned)
    killed_at: dict[str, int] = {}  # who dies tonight, and at which step of the order
    effects: list[Effect] = list(goon)
    for player, acts_at in sorted(actors.items(), key=_in_night_order):
        found = compute(state, player, night.choice_of(player), tuple(killed_at))
        effects.extend(e for e in found.effects if e not in effects)
        if found.death and acts_at is not None:
            killed_at.setdefault(found.death, acts_at)
    for victim in moonchild_deaths(state):  # chosen by a dead Moonchild yesterday
        killed_at.setdefault(victim, len(order))
    entries, results, tells, listed = fabled.sheet_entries(state), [], [], set()
    entries += [SheetEntry(MOONCHILD, victim, say("label.moonchild"), None, (),
                           say("sheet.moonchild", player=victim))
                for victim in moonchild_deaths(state)]
    for player, mezepheles in turned_by_word(state):  # said the Mezepheles' word
        entry, more_effects, more_tells = word_turns(state, player, mezepheles)
        entries.append(entry)
        effects.extend(more_effects)
        tells.extend(more_tells)
    for index, step in enumerate(order):
        if step == LIL_MONSTA and state.setup.lil_monsta:  # held by no player
            entry, more_effects, more_tells = lil_monsta_step(state)
            entries.append(entry)
            effects.extend(more_effects)
            tells.extend(more_tells)
            continue
        if step in SPECIAL_STEPS:
            if state.cycle == 1:
                entries.append(_special(state, step))
                if step == "demoninfo":
                    lunacy = _lunatic_info(state)
                    entries.extend(e for e, _ in lunacy)
                    tells.extend(t for _, more in lunacy for t in more)
            continue
        for seat in state.seats:
            character = acting_character(state, seat.name)
            if character is None or character.id != step:
                continue
            listed.add(seat.name)
            if killed_at.get(seat.name, index) < index and character.spec.info not in \
                    ACTS_WHEN_KILLED:
                entries.append(SheetEntry(step, seat.name, character.name, None,
                                          _status(state, seat.name),
                                          say("sheet.killed_earlier")))
                continue
            entry, result, more = _entry(state, seat.name, character,
                                         night.choice_of(seat.name), tuple(killed_at))
            entries.append(entry)
            results.extend([(seat.name, result)] if result else [])
            tells.extend(more)
    for choice in night.choices:  # requests outside the night order (free text, day abilities)
        if choice.player not in listed and not choice.helps:
            entries.append(SheetEntry("other", choice.player, _name(state, choice.player),
                                      choice.describe(), _status(state, choice.player),
                                      say("sheet.outside_order")))
    return tuple(entries), tuple(killed_at), tuple(results), tuple(tells), tuple(effects)


def regained(state: GameState) -> set[str]:
    """Dead players a working Bone Collector chose for tonight: their ability works."""
    night = night_of(state, state.cycle)
    return {c.players[0] for c in night.choices if c.players and c.character == BONE_COLLECTOR
            and (real := true_character(state, c.player)) is not None
            and real.id == BONE_COLLECTOR and not is_malfunctioning(state, c.player)}


def _actors(state: GameState, order: tuple[str, ...]) -> dict[str, int | None]:
    """Who acts tonight and at which step: every living player whose character is in the
    night order, a dead one whose ability works after death (the Barber), and anyone who sent
    a choice (step None when outside the order)."""
    actors: dict[str, int | None] = {}
    revived = regained(state)
    for seat in state.seats:
        character = acting_character(state, seat.name)
        if character is not None and character.id in order and \
                (seat.alive or seat.name in revived or character.spec.acts_dead):
            actors[seat.name] = order.index(character.id)
    for choice in night_of(state, state.cycle).choices:
        if choice.helps:  # the Demon's /swap, a Minion's /babysit: seen at that step
            continue
        actors.setdefault(choice.player, order.index(choice.character)
                          if choice.character in order else None)
    return actors


def _in_night_order(actor: tuple[str, int | None]) -> tuple[bool, int]:
    """Steps in the night order first, then requests outside it (step None)."""
    return actor[1] is None, actor[1] or 0


def _changes(field: str, value: Any) -> dict[str, Any]:
    """Keyword arguments that set one grimoire field named at run time."""
    return {field: value}


def _goon(state: GameState, actors: dict[str, int | None]) -> list[Effect]:
    """Seed 002's Goon: the first player to choose it tonight (in night order) is drunk until
    dusk, and the Goon takes that player's alignment."""
    night = night_of(state, state.cycle)
    goons = [s.name for s in state.seats if s.alive and (c := true_character(state, s.name))
             and c.id == GOON and not is_malfunctioning(state, s.name)]
    out = []
    for goon in goons:
        choosers = sorted((step, player) for player, step in actors.items()
                          if step is not None and (chosen := night.choice_of(player)) is not None
                          and goon in chosen.players and player != goon)
        if not choosers:
            continue
        first = choosers[0][1]
        out.append(Effect(first, "drunk", True, say("by.chose_goon"), until_dusk=True))
        alignment = alignment_of(state, first)
        if alignment and alignment != alignment_of(state, goon):
            out.append(Effect(goon, "alignment", alignment, say("by.goon")))
        team = state.grimoire_of(first).evil_team  # seed 002: and joins the chooser's team
        if team is not None and team != state.grimoire_of(goon).evil_team:
            out.append(Effect(goon, "evil_team", team, say("by.goon")))
    return out


def _with_poison(state: GameState, impaired: list[Effect]) -> GameState:
    """The state as tonight's later steps see it: tonight's victims poisoned or drunk."""
    if not impaired:
        return state
    grimoire = dict(state.grimoire)
    for effect in impaired:
        grimoire[effect.player] = replace(grimoire.get(effect.player, GrimoireEntry()),
                                          **_changes(effect.field, True))
    return replace(state, grimoire=tuple(grimoire.items()))


def _name(state: GameState, player: str) -> str:
    character = acting_character(state, player)
    return character.name if character else "(no character)"


def _special(state: GameState, step: str) -> SheetEntry:
    terms = state.setup.script.terms
    evil = [say("sheet.player_team", player=p, team=true_character(state, p).team) for p in
            players_of_team(state, "minion", False) + players_of_team(state, "demon", False)]
    if step == "minioninfo":
        text = say("sheet.minion_info", team=terms.evil, players=evil or say("sheet.none"))
    elif state.setup.lil_monsta:
        text = say("sheet.demon_info_lil_monsta")
    else:
        names = [state.setup.script.get(b).name for b in state.bluffs
                 if state.setup.script.get(b)]
        text = say("sheet.demon_info", bluffs=names or say("sheet.none_set"))
    label = say("label.minion_info") if step == "minioninfo" else say("label.demon_info")
    return SheetEntry(step, None, label, None, (), say("sheet.done", what=text))


def _lunatic_info(state: GameState):
    """The Lunatic is shown Demon info (made up by the ST); the real Demon learns of them."""
    demons = players_of_team(state, "demon")
    out = []
    for lunatic in [s.name for s in state.seats
                    if (c := true_character(state, s.name)) and c.id == LUNATIC]:
        entry = SheetEntry("demoninfo", lunatic, say("label.lunatic"), None, _status(state, lunatic),
                           say("sheet.lunatic_demon_info"), needs_result=True)
        out.append((entry, tuple((d, say("tell.lunatic", player=lunatic)) for d in demons)))
    return out


def _status(state: GameState, player: str) -> tuple[Say, ...]:
    entry, out = state.grimoire_of(player), []
    if not state.seat(player).alive:
        out.append(say("status.dead"))
    if is_malfunctioning(state, player):
        out.append(say("status.malfunctioning", term=state.setup.script.terms.malfunction))
    if entry.mad_as:
        out.append(say("status.mad_as", character=entry.mad_as))
    if entry.thinks and entry.thinks != entry.character:
        real = true_character(state, player)
        out.append(say("status.is_really", character=real.name if real else entry.character))
    return tuple(out)


def _entry(state: GameState, player: str, character: Character, choice: NightChoice | None,
           deaths: tuple[str, ...]):
    """(entry, default result or None, tells) for one acting player."""
    spec = character.spec
    alive = state.seat(player).alive or player in regained(state)
    shown = choice.describe(character_names(state)) if choice else (
        say("sheet.no_choice") if spec.chooses_on(state.cycle) and alive else None)
    base = SheetEntry(character.id, player, character.name, shown, _status(state, player))
    if not alive and not spec.acts_dead:
        return replace(base, suggestion=say("sheet.dead")), None, ()
    if not alive and spec.info not in ACTS_WHEN_KILLED:  # an on-death ability (the Sweetheart)
        return replace(base, suggestion=say("sheet.st_decides", what=spec.st)), None, ()
    used = used_on(state, player, character.id) if spec.once else None
    if used is not None and choice is None:
        return replace(base, choice=None, suggestion=say("sheet.used", night=used)), None, ()
    info = compute(state, player, choice, deaths, character)
    true = info.told()
    if true is not None and is_malfunctioning(state, player):
        text = say("sheet.malfunctioning", term=state.setup.script.terms.malfunction, true=true)
        return replace(base, suggestion=text, needs_result=True), None, info.tells
    if true is not None and character.team == "townsfolk" and _vortox_works(state):
        false = _falsify(info.value)
        if false is None:
            text = say("sheet.vortox_st", true=true)
            return replace(base, suggestion=text, needs_result=True), None, info.tells
        false_text = info.told(false)
        text = say("sheet.vortox", false=false_text, true=true)
        return replace(base, suggestion=text, needs_result=True), false_text, info.tells
    if info.value is not None:
        return replace(base, suggestion=true, needs_result=True), true, info.tells
    if info.needs_result:
        suggestion = say("sheet.st_decides_proposed", what=info.note, proposed=true) if true \
            else say("sheet.st_decides", what=info.note)
    else:
        suggestion = info.note or (say("sheet.st_decides", what=spec.st) if spec.st
                                   else say("sheet.nothing"))
    return replace(base, suggestion=suggestion, needs_result=info.needs_result), true, \
        info.tells


def _vortox_works(state: GameState) -> bool:
    return any(not is_malfunctioning(state, p) for p in players_of_team(state, "demon")
               if true_character(state, p).id == VORTOX)


def _falsify(value: str | None) -> str | None:
    """A false answer for a yes/no or a number; None when only the Storyteller can say."""
    if value in ("yes", "no"):
        return "no" if value == "yes" else "yes"
    if value is not None and value.isdigit():
        return str(int(value) + 1 if int(value) == 0 else int(value) - 1)
    return None


__all__ = ["build_sheet"]
