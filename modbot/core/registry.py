"""Theory of operation: every table of the engine, built once from an explicit list.

`FEATURES` names, in order, every feature of the rules; each exports a `Feature` value (its
actions' rules, the Storytellers' rules, commands, event appliers and messages). The tables
below are built from that list when this module is first imported, and nothing else ever
changes them: what the engine can do does not depend on import order. A key declared by two
features is an error, except a Storyteller rule that a later feature overrides on purpose
(`staff_overrides`, e.g. the night's commands check `!character` against the script).

The dispatchers (`apply`, `decide`, `decide_staff`) live here, above every feature,
so that no feature module needs to import them back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar

from . import notices as day_notices
from . import observers, reveal
from .characters import (
    bishop,
    bluffs,
    boomdandy,
    doomsayer,
    fabled,
    gossip,
    judge,
    madness,
    mastermind,
    matron,
    pacifist,
    public_abilities,
    records,
    registering,
    tb_travellers,
    travellers,
    triggers,
    wins,
)
from .characters import helpers as night_help
from .deciding import activity, away, hand_nudge, rules, staff
from .night import choices as night
from .night import commands as night_commands
from .night import deal_notices
from .night import flow as nightflow
from .night import notices as night_notices
from .reading import commands
from .reading.command_forms import Command
from .seal import sealed_grimoire, sealed_text
from .state import events, private_events, staff_events
from .state.actions import Context
from .state.events import Event
from .state.feature import Applier, Feature, Notice, Noticer, Rule, Timer
from .state.grimoire import SHIELDED
from .state.model import GameState
from .state.private_events import CharactersDealt, NightResolved
from .state.record import logged
from .state.registration import ASKING
from .state.rejection import Rejection
from .state.slots import Slot

FEATURES: tuple[Feature, ...] = (
    events.FEATURE,
    staff_events.FEATURE,
    private_events.FEATURE,
    rules.FEATURE,
    staff.FEATURE,
    commands.FEATURE,  # the core's commands first: the Storytellers' guide lists them first
    night.FEATURE,
    night_help.FEATURE,
    night_commands.FEATURE,
    bluffs.FEATURE,
    public_abilities.FEATURE,
    records.FEATURE,
    triggers.FEATURE,
    madness.FEATURE,
    wins.FEATURE,
    mastermind.FEATURE,
    hand_nudge.FEATURE,
    activity.FEATURE,
    away.FEATURE,
    observers.FEATURE,
    registering.FEATURE,
    boomdandy.FEATURE,
    fabled.FEATURE,
    pacifist.FEATURE,
    gossip.FEATURE,
    bishop.FEATURE,
    judge.FEATURE,
    matron.FEATURE,
    doomsayer.FEATURE,
    nightflow.FEATURE,
    travellers.FEATURE,
    tb_travellers.FEATURE,
    deal_notices.FEATURE,
    night_notices.FEATURE,
    day_notices.FEATURE,
    reveal.FEATURE,
)


K = TypeVar("K")
V = TypeVar("V")


def _merged(tables: Iterable[tuple[str, Mapping[K, V]]], what: str) -> dict[K, V]:
    out: dict[K, V] = {}
    for feature, table in tables:
        for key, value in table.items():
            if key in out:
                raise ValueError(f"{what} {key!r} is declared twice (again by {feature})")
            out[key] = value
    return out


def _staff_rules(features: tuple[Feature, ...]) -> dict[type, Rule]:
    table = _merged(((f.name, f.staff_rules) for f in features), "Storyteller rule")
    for feature in features:
        for key, rule in feature.staff_overrides.items():
            if key not in table:
                raise ValueError(f"{feature.name} overrides {key!r}, which no feature declares")
            table[key] = rule
    return table


def _commands(features: tuple[Feature, ...]) -> dict[str, Command]:
    """Every command by name, in the guide's order: the core's, then the others by name."""
    found = _merged(((f.name, {c.name: c for c in f.commands}) for f in features), "command")
    core = [c.name for c in commands.BASE_COMMANDS]
    return {name: found[name] for name in core + sorted(set(found) - set(core))}


APPLIERS: dict[type, Applier] = _merged(((f.name, f.appliers) for f in FEATURES), "event")
RULES: dict[type, Rule] = _merged(((f.name, f.rules) for f in FEATURES), "player rule")
STAFF_RULES: dict[type, Rule] = _staff_rules(FEATURES)
COMMANDS: dict[str, Command] = _commands(FEATURES)
COMMAND_OF: dict[type, str] = _merged(((f.name, f.command_of) for f in FEATURES), "action")
TIMERS: tuple[Timer, ...] = tuple(t for f in FEATURES for t in f.timers)  # in the list's order
SLOTS: dict[str, Slot[Any]] = _merged(  # and the night sheet's scratch, on its own copy of the state
    (*((f.name, {s.name: s for s in f.slots}) for f in FEATURES),
     ("the night sheet", {SHIELDED.name: SHIELDED, ASKING.name: ASKING})),
    "slot")

NOTICES: dict[type, tuple[Noticer, ...]] = {}  # each event's notices, in the list's order
for _feature in FEATURES:
    for _type, _noticer in _feature.notices.items():
        NOTICES[_type] = (*NOTICES.get(_type, ()), _noticer)

EVENT_TYPES: dict[str, type] = {cls.__name__: cls for cls in APPLIERS}  # for stored events


STAFF_EVENTS = frozenset(staff_events.FEATURE.appliers)  # the Storytellers' commands' events


def apply(state: GameState, event: Any) -> GameState:
    """The state after `event`: the only way a state changes. From the deal on, the grimoire's
    changes are recorded as they happen (state/record.py)."""
    after = APPLIERS[type(event)](state, event)
    if isinstance(event, CharactersDealt) and after.setup.seal_salt and not after.sealed:
        after = after.evolve(sealed=sealed_text(sealed_grimoire(after)))  # seal.py: frozen
    if state.dealt and after.grimoire is not state.grimoire:
        after = logged(state, after, event, type(event) in STAFF_EVENTS)
    return after


def notices_of(state: GameState, event: Any, batch: Sequence[Any] = ()) -> tuple[Notice, ...]:
    """Who is told what of `event` (`state`: right after it; `batch`: the events with it)."""
    return tuple(n for noticer in NOTICES.get(type(event), ()) for n in noticer(state, event, batch))


def states_after(before: GameState, batch: Sequence[Any]) -> list[GameState]:
    """The state each event of `batch` is told from (`notices_of`), from the state before
    it: the state right after the event, never one a later event of the batch made (a vote
    counted before the day it ended, the Virgin's); but a dawn (`NightResolved`) is told once
    the dawn is over, from the state after the phase change that ends it: the night's effects
    and deaths applied, as the dawn's PMs, the observers' digest and the Spy's sight say."""
    out, state = [], before
    for event in batch:
        state = apply(state, event)
        out.append(state)
    for index, event in enumerate(batch):
        if isinstance(event, NightResolved):
            end = next((j for j in range(index + 1, len(batch))
                        if isinstance(batch[j], events.PhaseChanged)), None)
            if end is not None:
                out[index] = out[end]
    return out


def decide(state: GameState, action: Any, ctx: Context) -> Sequence[Event] | Rejection:
    """Events caused by a player's `action` (a tuple, possibly empty), or a Rejection."""
    refused = rules.refusal(state, action, ctx)
    if refused is not None:
        return refused
    return RULES[type(action)](state, action, ctx)


def decide_staff(state: GameState, action: Any, ctx: Context) -> Sequence[Event] | Rejection:
    """Events caused by a Storyteller's command, or a Rejection."""
    return STAFF_RULES[type(action)](state, action, ctx)
