"""Theory of operation: an event's outcome is the event without its words.

Stored events keep what the bot would say as `Say` values (a code and parameters), and
events written before that kept English sentences in the same places. `outcome(name, data)`
replaces every value the event's class declares as words (a `Say`, wherever it sits: a
field, a tuple's member, a field of a nested value) by one marker, so that two versions of an
event compare equal when they agree on everything but wording. The audit compares outcomes:
rewording a message, or an upgrade that moved sentences into the catalogue, never changes its
verdict; nor does a field added since with a default (a field at its default compares as absent).
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Iterable
from functools import cache
from typing import Any

from ...core import BOOKKEEPING, EVENT_TYPES, Say

WORDS = "<words>"


# Events the runtime writes beside the core's: a Storyteller adopted an upgrade's reading. A
# replay of that `!confirm` derives nothing, so comparisons leave them out (and a fold).
RUNTIME_NOTES = frozenset({"UpgradeAdopted"})
# Events comparisons leave out though a fold applies them: a reminder that changes no game fact
# (the clock hand's, which the shell sent before the core kept it) and the core's bookkeeping
# (a seat posted): a game stored before them is not held for them.
UNCOMPARED = RUNTIME_NOTES | {"HandNudged", *BOOKKEEPING}


def comparable(events: Iterable[tuple[str, Any]]) -> list[Any]:
    """Stored or replayed events, (name, data) pairs, as two versions compare: without their
    words and without the runtime's notes."""
    return [(name, outcome(name, data)) for name, data in events if name not in UNCOMPARED]


def outcome(name: str, data: Any) -> Any:
    """The stored (JSON) form of event `name` with its words replaced by `WORDS`."""
    cls = EVENT_TYPES.get(name)
    return _strip(data, cls) if cls is not None else data


def _strip(value: Any, hint: Any) -> Any:
    if value is None:
        return None
    if _is_words(hint):  # no words at all (None, or "" as older events wrote it) stay none
        return WORDS if value != "" else None
    if dataclasses.is_dataclass(hint) and isinstance(value, dict):
        hints, defaults = type_hints(typing.cast(type, hint)), _defaults(typing.cast(type, hint))
        stripped = {k: _strip(v, hints.get(k, Any)) for k, v in value.items()}
        return {k: v for k, v in stripped.items()
                if k not in defaults or v != _strip(defaults[k], hints.get(k, Any))}
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        return _strip(value, inner[0]) if len(inner) == 1 else value
    if origin in (tuple, list) and isinstance(value, list):
        if len(args) == 2 and args[1] is Ellipsis:
            return [_strip(v, args[0]) for v in value]
        if args and len(args) == len(value):
            return [_strip(v, a) for v, a in zip(value, args, strict=False)]
    return value


@cache
def _defaults(cls: type) -> dict[str, Any]:
    """A dataclass's fields that have a default, with it as the store writes it (JSON): a
    field at its default compares as absent, so a field added with a default (an older event
    never had it) changes no verdict."""
    out = {}
    for f in dataclasses.fields(cls):
        if f.default is not dataclasses.MISSING:
            out[f.name] = json.loads(json.dumps(f.default, default=str))
        elif f.default_factory is not dataclasses.MISSING:
            out[f.name] = json.loads(json.dumps(f.default_factory(), default=str))
    return out


def _is_words(hint: Any) -> bool:
    if hint is Say:
        return True
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    return origin in (typing.Union, types.UnionType) and Say in args


@cache
def type_hints(cls: type) -> dict[str, Any]:
    """A class's resolved type hints, once (the outcome and `event_codec` both walk them)."""
    return typing.get_type_hints(cls)
