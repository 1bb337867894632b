"""Theory of operation: the night sheet, built from the grimoire when choices lock.

`build_sheet(state)` plays the night in the script's night order (first night and other
nights differ), one step at a time, on a copy of the grimoire that each step changes for the
steps after it: a player killed at an earlier step is dead at their turn and does not act
(their ability's kill does not land); a poisoning or drunkenness, a character or alignment
change proposed earlier tonight is seen by every later step and shows in its status; a
Lleech dies with its host in the same night; a Scarlet Woman who takes over from a Demon
killed tonight is proposed as the new Demon; the Innkeeper's players cannot die tonight,
whatever the cause. A Philosopher who chooses an ability that acts tonight acts as it at that
step (or at once, if the step has passed). Each acting player gets one row (rows.py). The
Storytellers edit and approve the sheet (commands.py); nothing here is final until dawn.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from ..characters import fabled
from ..characters.bad_moon_rising import kept_asleep
from ..characters.demon_heirs import scarlet_woman_heir
from ..characters.effects import protected_by
from ..characters.lleech_host import lleeches_hosted_by
from ..characters.others_choose import goon_effects, lil_monsta_step, word_turns
from ..characters.public_abilities import moonchild_choices, turned_by_word
from ..characters.records import compute
from ..characters.undying import averting_spends, death_averted, dies_with, lives_on_mark
from ..state.grimoire import (
    SHIELDED,
    acting_character,
    is_malfunctioning,
    keeps_ability,
    soldier_shield,
    true_character,
)
from ..state.model import GameState, GrimoireEntry
from ..state.night_model import REVIVED, Effect, NightChoice, NightState, SheetEntry
from ..state.private_events import night_of
from ..state.script import SPECIAL_STEPS, ActionSpec, Character, Script
from ..wording import Say, say
from .rows import lunatic_rows, name_of, row_of, special_row, status_of


def build_sheet(state: GameState) -> SheetResult:
    """(sheet, deaths, results, tells, effects) for the current night."""
    night = night_of(state, state.cycle)
    script = state.setup.private_script
    order = script.night_order(state.cycle)
    actors = _actors(state, order)
    goon = goon_effects(state, actors)
    # The Goon's chooser is drunk from its step on, except an Assassin: its kill still lands
    # (seed 002: "they join the Assassin's team and die").
    run = _Night(_with_poison(state, [e for e in goon if e.field == "drunk"
                                      and not _kills_through(state, e.player)]),
                 night, order, effects=list(goon))
    run.entries = fabled.sheet_entries(state)
    spoken = turned_by_word(state)  # said the Mezepheles' word: turned at its step tonight,
    word_step = _step_of(script, order, lambda spec: spec.turns_by_word)  # as it stands then
    if word_step is None:  # (poisoned by an earlier step: nothing); without its step, first
        _word_turns(run, spoken)
    moon_step = _step_of(script, order, lambda spec: spec.dead_choice_kills)
    run.waiting = {index: [s.name for s in state.seats
                           if (c := acting_character(state, s.name)) is not None and c.id == step]
                   for index, step in enumerate(order)}
    for index, step in enumerate(order):
        run.index = index
        if step == word_step:
            _word_turns(run, spoken)
        if step == moon_step:
            judged = _moonchild_kills(run, step)
            run.waiting[index] = [p for p in run.waiting[index] if p not in judged]
        run.step_at(index, step, run.waiting[index])
    for player in [p for p, at in actors.items() if at is None]:
        run.outside_order(player)
    if moon_step is None:
        for moonchild in [c for c in script.characters if c.spec.dead_choice_kills]:
            _moonchild_kills(run, moonchild.id)
    return run.result()


def _step_of(script: Script, order: tuple[str, ...],
             marked: Callable[[ActionSpec], bool]) -> str | None:
    """The step of tonight's order whose character's record is `marked` (None: none)."""
    return next((step for step in order
                 if (c := script.get(step)) is not None and marked(c.spec)), None)


def _kills_through(state: GameState, player: str) -> bool:
    """The player's kill ignores protection (the Assassin's record: `kills_through_protection`)."""
    real = true_character(state, player)
    return real is not None and real.spec.kills_through_protection


def _moonchild_kills(run: _Night, step: str) -> set[str]:
    """Seed 002: "On Night 2, if the Moonchild is sober and healthy, Goon dies", the Moonchild
    last in the night order: each kill a dead Moonchild chose resolves at its step (at the
    night's end on a script without one), with the malfunction in force then. The Moonchilds
    whose choice it judged."""
    judged = set()
    for moonchild, victim in moonchild_choices(run.seen):
        judged.add(moonchild)
        if is_malfunctioning(run.seen, moonchild):
            suggestion = say("sheet.moonchild_malfunctioning", player=victim, moonchild=moonchild,
                             term=run.seen.setup.private_script.terms.malfunction)
        else:
            shield = run.dies(victim, moonchild)
            suggestion = say("sheet.moonchild", player=victim) if shield is None else \
                say("sheet.protected", what=say("sheet.moonchild", player=victim), player=victim,
                    by=shield)
        run.entries.append(SheetEntry(step, victim, say("label.moonchild"), None, (),
                                      suggestion))
    return judged


GAINS = ("character", "ability_of")  # an effect that gives its player another ability tonight
# The Demons' poisons, as their effects name their cause (characters/effects.py)
DEMON_POISONS = frozenset({"by.pukka", "by.vigormortis", "by.lleech"})


# (sheet, deaths, results, tells, effects) for the current night
SheetResult = tuple[tuple[SheetEntry, ...], tuple[str, ...], tuple[tuple[str, Say | None], ...],
                    tuple[tuple[str, Say], ...], tuple[Effect, ...]]


@dataclass
class _Night:
    """The night as played so far: `seen` is the grimoire with tonight's proposals applied."""

    seen: GameState
    night: NightState
    order: tuple[str, ...]
    effects: list[Effect] = field(default_factory=list)
    entries: list[SheetEntry] = field(default_factory=list)
    results: list[tuple[str, Say | None]] = field(default_factory=list)
    tells: list[tuple[str, Say]] = field(default_factory=list)
    deaths: list[str] = field(default_factory=list)
    waiting: dict[int, list[str]] = field(default_factory=dict)  # step index: who acts there
    index: int = -1  # the step being played
    actor: str | None = None  # the player acting at it
    gained: dict[str, bool] = field(default_factory=dict)  # gained tonight: by their own ability?
    acted: set[str] = field(default_factory=set)  # who acted at a step tonight

    def result(self) -> SheetResult:
        return (tuple(self.entries), tuple(self.deaths), tuple(self.results),
                tuple(self.tells), tuple(self.effects))

    def add(self, entry: SheetEntry, *, effects: Iterable[Effect] = (),
            tells: Iterable[tuple[str, Say]] = ()) -> None:
        self.entries.append(entry)
        for effect in effects:
            self.propose(effect)
        self.tells.extend(tells)

    def propose(self, effect: Effect) -> None:
        """An effect at dawn, seen by every later step tonight."""
        if effect not in self.effects:
            self.effects.append(effect)
        if effect.field == REVIVED:  # back to life at dawn (the Professor)
            self.seen = self.seen.with_seat(replace(self.seen.seat(effect.player), alive=True))
        else:
            self.seen = self.seen.with_entry(effect.player, **_changes(effect.field, effect.value))
        if effect.field in GAINS and self.index >= 0:
            self._gains(effect.player, effect.field == "ability_of" and effect.player == self.actor)

    def _gains(self, player: str, own: bool) -> None:
        """Seed 001: "All actions are processed in a specific order each night": a character
        gained tonight acts at its own step if that step is still to come, else not tonight
        (its row says so); `own`: gained by the player's own ability (the Philosopher's)."""
        now = acting_character(self.seen, player)
        if now is None or now.id not in self.order:
            return
        at = self.order.index(now.id)
        if at > self.index:
            self.gained[player] = own
            if player not in self.waiting[at]:
                self.waiting[at].append(player)
        elif self.seen.seat(player).alive:
            self._does_not_act(now.id, player, now.name,
                               say("sheet.gained_after_step", character=now.name))

    def _does_not_act(self, step: str, player: str, name: str, why: Say, *, dead: bool = True) -> None:
        """A row saying why `player` does not act at `step` tonight (`dead`: the status says
        so when they are dead)."""
        self.entries.append(SheetEntry(step, player, name, None,
                                       status_of(self.seen, player, dead=dead), why))

    def dies(self, victim: str, killer: str | None) -> Say | None:
        """A death tonight, unless a protection stops it (then: who protects them). The
        Assassin's kill ignores protection; Monk and Soldier stop only the Demon."""
        if victim in self.deaths or not self.seen.seat(victim).alive:
            return None
        killer_character = true_character(self.seen, killer) if killer else None
        if killer_character is None or not killer_character.spec.kills_through_protection:
            shield = protected_by(self.seen, victim, killer_character is not None
                                  and killer_character.team == "demon")
            if shield is None and (shield := death_averted(self.seen, victim)) is not None:
                spent = averting_spends(self.seen, victim)  # the Fool's first death
                if spent is not None:
                    self.propose(spent)
            if shield is not None:
                return shield
        lives_on = lives_on_mark(self.seen, victim)  # the Zombuul's first death
        self.deaths.append(victim)
        self.seen = self.seen.with_seat(replace(self.seen.seat(victim), alive=False))
        if lives_on is not None:
            self.propose(lives_on)
        heir = scarlet_woman_heir(self.seen, victim)
        if heir is not None:
            woman, demon = heir
            self.propose(Effect(woman, "character", demon.id, say("by.scarlet_woman")))
            self.tells.append((woman, say("tell.scarlet_woman", character=demon.name)))
        for lleech in lleeches_hosted_by(self.seen, victim):  # seed 002: dies with its host
            self.dies(lleech, None)
        by_demon = killer_character is not None and killer_character.team == "demon"
        for follower in dies_with(self.seen, victim, by_demon):  # the Grandmother
            self.dies(follower, None)
        return None

    def _shielded_from(self, effect: Effect) -> Say | None:
        """Who stops a poison of the Demon's ability: the Monk's choice, from the Monk's step
        to dawn (seed 000, Monk: the protection "also prevents all other harmful effects of the
        Demon's ability, such as poisoning"), or a working Soldier (seed 000, Soldier:
        "protected from all other harmful effects of the Demon's ability, such as
        poisoning")."""
        if not (effect.field == "poisoned" and effect.value is True and
                effect.why.code in DEMON_POISONS):
            return None
        if effect.player in SHIELDED.of(self.seen):
            script = self.seen.setup.private_script
            monk = next(c.name for c in script.characters if c.spec.shields_from_demon)
            return say("by.character", character=monk)
        return soldier_shield(self.seen, effect.player)

    def step_at(self, index: int, step: str, players: list[str]) -> None:
        held = self.seen.setup.private_script.get(step)
        if held is not None and held.spec.unseated and self.seen.setup.lil_monsta:  # no player
            entry, effects, tells = lil_monsta_step(self.seen)
            self.add(entry, effects=effects, tells=tells)
            return
        if step in SPECIAL_STEPS:
            if self.seen.cycle == 1:
                self.entries.append(special_row(self.seen, step))
                if step == "demoninfo":
                    for entry, tells in lunatic_rows(self.seen):
                        self.add(entry, tells=tells)
            return
        for player in sorted(players, key=self._seat_index):
            self.actor = player
            self.act(player, index)
        self.actor = None

    def act(self, player: str, index: int) -> None:
        character = acting_character(self.seen, player)
        if character is None or character.id != self.order[index]:  # changed earlier tonight
            if character is not None and self.seen.seat(player).alive:
                step = self.seen.setup.private_script.name_of(self.order[index])
                self._does_not_act(self.order[index], player, step,
                                   say("sheet.changed_before_step", character=step,
                                       now=character.name))
            return
        asleep = kept_asleep(self.seen, player, character)  # the Exorcist's Demon
        if asleep is not None:
            self._does_not_act(character.id, player, character.name, asleep, dead=False)
            return
        choice = self.night.choice_of(player) or self.night.contingency_of(player, character.id)
        if player in self.gained:
            choice = self.night.contingency_of(player, character.id)
            waking = self._wakes_as_gained(player, character, choice)
            if waking is not None:
                self._does_not_act(character.id, player, character.name, waking)
                return
        self.acted.add(player)
        killed_tonight = player in self.deaths
        if killed_tonight and not character.spec.when_killed:
            self._does_not_act(character.id, player, character.name,
                               say("sheet.killed_earlier"), dead=False)
            return
        alive = self.seen.seat(player).alive or player in regained(self.seen) or killed_tonight
        entry, result, info = row_of(
            self.seen, player, character, choice, alive,
            lambda: compute(self.seen, player, choice, tuple(self.deaths), character))
        for effect in info.effects if info else ():  # before the death: a star-pass heir
            stopped_by = self._shielded_from(effect)  # the Demon's poison fails
            if stopped_by is not None:
                entry = replace(entry, suggestion=say("sheet.protected", what=entry.suggestion,
                                                      player=effect.player, by=stopped_by))
                continue
            self.propose(effect)
        for victim in (info.death, *info.also_dies) if info is not None and info.death else ():
            shield = self.dies(victim, player)
            if shield is not None:
                entry = replace(entry, suggestion=say("sheet.protected", what=entry.suggestion,
                                                      player=victim, by=shield))
        self.add(entry, tells=info.tells if info else ())
        self.results.extend([(player, result)] if result else [])
        if character.spec.shields_from_demon and choice is not None and choice.players and \
                not is_malfunctioning(self.seen, player):  # from the Monk's step to dawn
            self.seen = SHIELDED.put(self.seen, (*SHIELDED.of(self.seen), *choice.players))

    def _wakes_as_gained(self, player: str, character: Character, choice: NightChoice | None) -> Say | None:
        """Why a player who gained `character` tonight does not act at its step, or None: a
        player who acted tonight already does not act twice (but the Philosopher uses the
        ability it chose); one that must choose acts on a contingency choice only (seed 001's
        Djinn: "we cannot wake people to give them info in the middle of the night")."""
        if player in self.acted and not self.gained[player]:
            return say("sheet.gained_acted_already", character=character.name)
        if character.spec.chooses_on(self.seen.cycle) and choice is None:
            return say("sheet.gained_no_contingency", character=character.name)
        return None

    def outside_order(self, player: str) -> None:
        """A request outside the night order (free text, an ability used by day)."""
        choice = self.night.choice_of(player)
        if choice is None:
            return
        info = compute(self.seen, player, choice, tuple(self.deaths))
        for effect in info.effects:
            self.propose(effect)
        self.entries.append(SheetEntry("other", player, name_of(self.seen, player),
                                       choice.describe(), status_of(self.seen, player),
                                       say("sheet.outside_order")))

    def _seat_index(self, player: str) -> int:
        return self.seen.setup.seat_index[player]


def _word_turns(run: _Night, spoken: Iterable[tuple[str, str]]) -> None:
    for player, mezepheles in spoken:
        entry, effects, tells = word_turns(run.seen, player, mezepheles)
        run.add(entry, effects=effects, tells=tells)


def regained(state: GameState) -> set[str]:
    """Dead players whose ability works tonight: those a working Bone Collector chose, and
    the Minions the Vigormortis killed (`keeps_ability`)."""
    night = night_of(state, state.cycle)
    chosen = {c.players[0] for c in night.choices if c.players
              and (real := true_character(state, c.player)) is not None
              and real.spec.restores_ability and c.character == real.id
              and not is_malfunctioning(state, c.player)}
    return chosen | {s.name for s in state.seats if not s.alive and keeps_ability(state, s.name)}


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


def _changes(field: str, value: Any) -> dict[str, Any]:
    """Keyword arguments that set one grimoire field named at run time."""
    return {field: value}


def _with_poison(state: GameState, impaired: list[Effect]) -> GameState:
    """The state as tonight's later steps see it: tonight's victims poisoned or drunk."""
    if not impaired:
        return state
    grimoire = dict(state.grimoire)
    for effect in impaired:
        grimoire[effect.player] = replace(grimoire.get(effect.player, GrimoireEntry()),
                                          **_changes(effect.field, True))
    return state.evolve(grimoire=tuple(grimoire.items()))




__all__ = ["build_sheet", "regained"]
