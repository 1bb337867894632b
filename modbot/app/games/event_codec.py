"""Theory of operation: stored events read back as the core's event values, and folded.

The store keeps each event as `dataclasses.asdict` JSON: datetimes and timedeltas as text,
enums as their values, tuples and nested dataclasses as lists and objects. `decode(name, data)`
rebuilds the event from its class's type hints; the few fields typed loosely are read by
rule: a set-up's grimoire is (player, `GrimoireEntry`) pairs, and a pending confirmation's
actions are parsed again from its command lines. Values typed `Any` or `object` (a message's
parameters, a grimoire value) come back with lists as tuples, `{code, params}` objects as
messages (`Say`) and `str(datetime)` texts as times.

`fold(setup, events)` is the game state the stored events describe: the state the bot was in
when it stored them, whatever the current rules would derive from the same posts. The upgrade
check (`upgrade.py`) holds a game in that state until the Storytellers confirm the new history.
A game with an `!undo` in its events cannot be folded so (an undo replays posts, it applies no
event): `fold` returns None for it.
"""

from __future__ import annotations

import dataclasses
import re
import types
import typing
from datetime import datetime, timedelta
from enum import Enum
from typing import Any

from ...core import EVENT_TYPES, GameSetup, GameState, GrimoireEntry, Say, apply_event, parse_commands
from .outcomes import RUNTIME_NOTES, type_hints

CANNOT_FOLD = {"Undone"}  # written by the runtime: an undo replays posts, it applies no event
_TIME = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?[+-]\d\d:\d\d$")  # str(datetime)
_DELTA = re.compile(r"^(?:(-?\d+) days?, )?(\d+):(\d\d):(\d\d)(?:\.(\d+))?$")
LOOSE: dict[tuple[str, str], Any] = {
    ("SetupProposed", "grimoire"): tuple[tuple[str, GrimoireEntry], ...],
    ("SetupAccepted", "grimoire"): tuple[tuple[str, GrimoireEntry], ...],
}


class CannotFold(ValueError):
    pass


def fold(setup: GameSetup, events: list[tuple[str, dict[str, Any]]]) -> GameState:
    """The state the stored events (name, data) describe, from the set-up on."""
    state = GameState.from_setup(setup)
    for name, data in events:
        if name in RUNTIME_NOTES:  # a note, no change of state
            continue
        if name in CANNOT_FOLD:
            raise CannotFold(f"the events hold an {name} (an undo replays the posts)")
        state = apply_event(state, decode(name, data, state))
    return state


def decode(name: str, data: dict[str, Any], state: GameState) -> Any:
    cls = EVENT_TYPES.get(name)
    if cls is None:
        raise CannotFold(f"no event is called {name}")
    hints = type_hints(cls)
    values = {}
    for key, value in data.items():
        if name == "ConfirmationRequested" and key == "actions":
            values[key] = _actions(data.get("lines") or [], state)
        elif key in hints:
            values[key] = _value(value, LOOSE.get((name, key), hints[key]))
    return cls(**values)


def _actions(lines: list[str], state: GameState) -> tuple[Any, ...]:
    actions = []
    for line in lines:
        parsed = parse_commands(line, state.setup.roster)
        if not parsed or not hasattr(parsed[0], "action"):
            raise CannotFold(f"the command {line!r} no longer reads as one")
        actions.append(parsed[0].action)
    return tuple(actions)


def _value(value: Any, hint: Any) -> Any:
    if value is None:
        return None
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        if len(inner) == 1:
            return _value(value, inner[0])
        kinds = [a for a in inner if dataclasses.is_dataclass(a)]
        return _value(value, kinds[0]) if isinstance(value, dict) and len(kinds) == 1 \
            else _loose(value)
    if hint is Say and isinstance(value, str):  # an older event kept the words themselves
        return Say("free", (("text", value),))
    if hint is datetime:
        return datetime.fromisoformat(value) if isinstance(value, str) else value
    if hint is timedelta:
        return _timedelta(value)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return hint(value)
    if dataclasses.is_dataclass(hint) and isinstance(value, dict):
        made: Any = hint  # a dataclass type (is_dataclass also answers for instances)
        fields = type_hints(made)
        return made(**{k: _value(v, fields[k]) for k, v in value.items() if k in fields})
    if origin is tuple and isinstance(value, list):
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_value(v, args[0]) for v in value)
        if args:
            return tuple(_value(v, a) for v, a in zip(value, args, strict=False))
    return _loose(value)


def _loose(value: Any) -> Any:
    """A value typed Any: lists as tuples, a message as a `Say`, a stored time as a time."""
    if isinstance(value, list):
        return tuple(_loose(v) for v in value)
    if isinstance(value, dict) and set(value) == {"code", "params"}:
        return Say(value["code"], _loose(value["params"]))
    if isinstance(value, str) and _TIME.match(value):
        return datetime.fromisoformat(value)
    return value


def _timedelta(value: Any) -> timedelta:
    if isinstance(value, (int, float)):
        return timedelta(seconds=value)
    match = _DELTA.match(str(value))
    if match is None:
        raise CannotFold(f"not a duration: {value!r}")
    days, hours, minutes, seconds, fraction = match.groups()
    return timedelta(days=int(days or 0), hours=int(hours), minutes=int(minutes),
                     seconds=int(seconds), microseconds=int((fraction or "0").ljust(6, "0")))
