"""Theory of operation: what a feature of the rules hands to the registry, as plain values.

A feature module (the Boomdandy, the Fabled, the night's commands, ...) defines its actions,
events and rules, then exports one `Feature` value naming them. Nothing is registered when a
module is imported: `registry.py` builds every table from an explicit, ordered list of
features, so what the engine can do never depends on which modules happen to be imported.

A feature's time-triggered rules are `Timer` values in its `timers`: when the rule next
applies (`due`: a moment, or None while it waits for nothing on the clock) and what it does
then (`fire`: the events of that moment). The registry lists them in one table, which the
engine reads both to say when the clock next matters (`next_due`) and to run the moments up
to a time (`advance`): one list, one order (the earliest first; a tie in the table's order).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

Applier = Callable[[Any, Any], Any]  # (state, event) -> state
Rule = Callable[[Any, Any, Any], Any]  # (state, action, ctx) -> events | Rejection


@dataclass(frozen=True)
class Timer:
    """A time-triggered rule: `due(state)` the moment it next applies, `fire(state, at)` the
    events it causes then (applied in order by the engine)."""

    name: str
    due: Callable[[Any], datetime | None]
    fire: Callable[[Any, datetime], Sequence[Any]]


def _empty() -> Mapping:
    return {}


@dataclass(frozen=True)
class Feature:
    """One feature's contribution to the registry's tables.

    `staff_overrides` replaces a Storyteller rule an earlier feature declared (the registry
    refuses an override of a rule that does not exist, and any other key declared twice).
    """

    name: str
    appliers: Mapping[type, Applier] = field(default_factory=_empty)
    rules: Mapping[type, Rule] = field(default_factory=_empty)
    staff_rules: Mapping[type, Rule] = field(default_factory=_empty)
    staff_overrides: Mapping[type, Rule] = field(default_factory=_empty)
    commands: tuple[Any, ...] = ()  # commands.Command values, in the guide's order
    command_of: Mapping[type, str] = field(default_factory=_empty)
    timers: tuple[Timer, ...] = ()  # its time-triggered rules


def unchanged(state: Any, _event: Any) -> Any:
    """The applier of an event that only reports: the state stays as it is."""
    return state
