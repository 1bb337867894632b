"""Theory of operation: what a feature of the rules hands to the registry, as plain values.

A feature module (the Boomdandy, the Fabled, the night's commands, ...) defines its actions,
events and rules, then exports one `Feature` value naming them. Nothing is registered when a
module is imported: `registry.py` builds every table from an explicit, ordered list of
features, so what the engine can do never depends on which modules happen to be imported.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

Applier = Callable[[Any, Any], Any]  # (state, event) -> state
Rule = Callable[[Any, Any, Any], Any]  # (state, action, ctx) -> events | Rejection


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


def unchanged(state: Any, _event: Any) -> Any:
    """The applier of an event that only reports: the state stays as it is."""
    return state
