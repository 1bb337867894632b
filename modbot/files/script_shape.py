"""Theory of operation: a script file is input; its shape is checked before anything reads it.

A script comes from the Script Tool or someone's post, so it is read as untrusted: as UTF-8
text (anything else is one line saying so), as JSON with no `NaN` or `Infinity` and no nesting
deeper than Python can follow (one line each), then against modbot's own JSON Schema of the
Script Tool's format (`data/script-schema.json`, checked by the `jsonschema` library): every
problem is reported at once, one line each, naming the entry by its position and what is wrong
with it in plain words. Only a script of the right shape reaches `Script.from_data`; which of
its characters modbot runs is decided there. Every value quoted from the file is shown as data
(`shown`: control characters escaped).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, ValidationError

from ..bundled import folder
from ..shown import shown

SCHEMA = folder("data") / "script-schema.json"
MAX_PROBLEMS = 30  # listed; the rest counted
_TYPES = {"string": "text", "number": "a number", "array": "a list", "object": "an object",
          "boolean": "true or false", "integer": "a whole number", "null": "null"}


class ShapeError(ValueError):
    """A script file modbot cannot read: every line says one thing wrong with it."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("\n".join(lines))
        self.lines = lines


@cache
def validator() -> Draft202012Validator:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def read_script_json(path: Path) -> Any:
    """The file's JSON, or `ShapeError`/`OSError`: not UTF-8, not JSON, nested too deep."""
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ShapeError([f"not UTF-8 text (byte {exc.start} cannot be read): save it as UTF-8"]) \
            from exc
    try:
        return json.loads(text.removeprefix("\ufeff"), parse_constant=_no_constant)
    except RecursionError as exc:
        raise ShapeError(["nested too deeply to be a script"]) from exc
    except ValueError as exc:  # json.JSONDecodeError, and NaN or Infinity
        raise ShapeError([f"not valid JSON: {shown(exc)}"]) from exc


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def shape_problems(data: Any) -> list[str]:
    """Every way `data` is not a script of the Script Tool's format, one line each."""
    try:
        errors = sorted(validator().iter_errors(data), key=_position)
    except RecursionError:
        return ["nested too deeply to be a script"]
    lines = list(dict.fromkeys(_line(error) for error in errors if not _shadowed(error, errors)))
    if len(lines) > MAX_PROBLEMS:
        lines = [*lines[:MAX_PROBLEMS], f"... and {len(lines) - MAX_PROBLEMS} more"]
    return lines


def _position(error: ValidationError) -> list[tuple[int, int | str]]:
    """Where an error is, for sorting: entries by number, then their parts."""
    return [(0, p) if isinstance(p, int) else (1, str(p)) for p in error.absolute_path]


def _shadowed(error: ValidationError, errors: list[ValidationError]) -> bool:
    """An error about an entry's parts where the entry itself is of the wrong kind."""
    path = list(error.absolute_path)
    return any(other is not error and other.validator == "type"
               and list(other.absolute_path) == path[:len(other.absolute_path)]
               and len(other.absolute_path) < len(path) for other in errors)


def _line(error: ValidationError) -> str:
    path = list(error.absolute_path)
    where = f"entry {int(path[0]) + 1}" if path else "the script"
    if len(path) > 1:
        where += ", " + " ".join(_part(p) for p in path[1:])
    return f"{where}: {_what(error, len(path))}"


def _part(part: Any) -> str:
    return f"item {int(part) + 1}" if isinstance(part, int) else shown(part)


def _what(error: ValidationError, depth: int) -> str:
    kind, value, instance = error.validator, error.validator_value, error.instance
    if kind == "type" and depth == 0:
        return f"a script is a list of characters (the Script Tool's format), not {_value(instance)}"
    if kind == "type" and depth == 1:
        return f"should be a character's id (text) or an object, not {_value(instance)}"
    if kind == "type":
        kinds = value if isinstance(value, list) else [value]
        wanted = " or ".join(_TYPES.get(str(t), str(t)) for t in kinds)
        return f"should be {wanted}, not {_value(instance)}"
    if kind == "required":
        missing = [p for p in value if isinstance(instance, dict) and p not in instance]
        return f"has no {', '.join(missing)}"
    if kind == "dependentRequired":
        missing = sorted({p for needs in value.values() for p in needs} - set(instance))
        return f"a character of the script's own needs its {' and '.join(missing)} too"
    if kind == "enum":
        return f"should be one of {', '.join(map(str, value))}, not {_value(instance)}"
    if kind == "not":
        return "\"_meta\" is the script's own entry, not a character"
    if kind == "minLength":
        return "is empty"
    if kind == "maxLength":
        return f"is too long (at most {value} characters)"
    if kind == "minItems":
        return "lists no character"
    if kind == "maxItems":
        return f"has too many entries (at most {value})"
    return shown(error.message)


def _value(instance: Any) -> str:
    if instance is None:
        return "null"
    if isinstance(instance, bool):
        return "true" if instance else "false"
    if isinstance(instance, int | float):
        return f"the number {instance}"
    if isinstance(instance, list):
        return "a list"
    if isinstance(instance, dict):
        return "an object"
    text = shown(instance)
    return f"\"{text[:40]}…\"" if len(text) > 40 else f"\"{text}\""
