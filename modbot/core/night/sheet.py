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
from ..characters.public_abilities import moonchild_deaths, turned_by_word
from ..setup.script import SPECIAL_STEPS, Character
from ..state.model import GameState, GrimoireEntry
from ..state.night_model import Effect, NightChoice, SheetEntry
from ..state.private_events import night_of
from .choices import acting_character, used_on
from .others_choose import lil_monsta_step, word_turns

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
    entries += [SheetEntry(MOONCHILD, victim, "Moonchild's choice", "", (),
                           f"{victim} (good) dies: the Moonchild chose them")
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
                entries.append(SheetEntry(step, seat.name, character.name, "",
                                          _status(state, seat.name),
                                          "killed earlier tonight: does not act"))
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
                                      "ST decides: a request outside the night order"))
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
        out.append(Effect(first, "drunk", True, "chose the Goon", until_dusk=True))
        alignment = alignment_of(state, first)
        if alignment and alignment != alignment_of(state, goon):
            out.append(Effect(goon, "alignment", alignment, "the Goon"))
        team = state.grimoire_of(first).evil_team  # seed 002: and joins the chooser's team
        if team is not None and team != state.grimoire_of(goon).evil_team:
            out.append(Effect(goon, "evil_team", team, "the Goon"))
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
    evil = [f"{p} ({true_character(state, p).team})" for p in
            players_of_team(state, "minion", False) + players_of_team(state, "demon", False)]
    if step == "minioninfo":
        text = f"the starting {terms.evil}s learned each other: {', '.join(evil) or 'none'}"
    elif state.setup.lil_monsta:
        text = "skipped: Lil' Monsta is the Demon, held by no player, and gives no bluffs"
    else:
        names = [state.setup.script.get(b).name for b in state.bluffs
                 if state.setup.script.get(b)]
        text = f"the Demon learned its bluffs: {', '.join(names) or 'none set'}"
    return SheetEntry(step, None, SPECIAL_STEPS[step], "", (), f"done: {text} (sent with "
                      "the characters)")


def _lunatic_info(state: GameState):
    """The Lunatic is shown Demon info (made up by the ST); the real Demon learns of them."""
    demons = players_of_team(state, "demon")
    out = []
    for lunatic in [s.name for s in state.seats
                    if (c := true_character(state, s.name)) and c.id == LUNATIC]:
        entry = SheetEntry("demoninfo", lunatic, "Lunatic", "", _status(state, lunatic),
                           "ST decides: show the Lunatic fake Minions and 3 bluffs, as if "
                           "they were the Demon", needs_result=True)
        out.append((entry, tuple((d, f"{lunatic} is the Lunatic.") for d in demons)))
    return out


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
    """(entry, default result or None, tells) for one acting player."""
    spec = character.spec
    alive = state.seat(player).alive or player in regained(state)
    shown = choice.describe(character_names(state)) if choice else (
        "no choice sent" if spec.chooses_on(state.cycle) and alive else "")
    base = SheetEntry(character.id, player, character.name, shown, _status(state, player))
    if not alive and not spec.acts_dead:
        return replace(base, suggestion="dead: does not act"), None, ()
    if not alive and spec.info not in ACTS_WHEN_KILLED:  # an on-death ability (the Sweetheart)
        return replace(base, suggestion=f"ST decides: {spec.st}"), None, ()
    used = used_on(state, player, character.id) if spec.once else None
    if used is not None and choice is None:
        return replace(base, choice="", suggestion=f"used its once-per-game ability on "
                       f"night {used}"), None, ()
    info = compute(state, player, choice, deaths, character)
    true = info.sentence.format(value=info.value) if info.value is not None else info.result
    if true is not None and is_malfunctioning(state, player):
        text = f"ST decides ({state.setup.script.terms.malfunction}); true answer: {true}"
        return replace(base, suggestion=text, needs_result=True), None, info.tells
    if true is not None and character.team == "townsfolk" and _vortox_works(state):
        false = _falsify(info.value)
        if false is None:
            text = f"ST decides: it must be false under the Vortox (true: {true})"
            return replace(base, suggestion=text, needs_result=True), None, info.tells
        false_text = info.sentence.format(value=false)
        text = f"false under the Vortox: {false_text} (true: {true})"
        return replace(base, suggestion=text, needs_result=True), false_text, info.tells
    if info.value is not None:
        return replace(base, suggestion=true, needs_result=True), true, info.tells
    if info.needs_result:
        suggestion = f"ST decides: {info.note}" + (f"; proposed: {true}" if true else "")
    else:
        suggestion = info.note or (f"ST decides: {spec.st}" if spec.st else "nothing to do")
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
