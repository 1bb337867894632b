"""Theory of operation: the words of every code the core speaks in.

The core records what to tell as `Say(code, params)` (modbot/core/wording.py); this module writes
it with the sentence `templates/messages.toml` holds for the code: `{name}` takes the
parameter (a list is written "A, B, C", or "A and B" as `{name:and}`; a nested Say is written
in turn; a time takes a format such as `{at:%H:%M}`; `{n:pair|pairs}` agrees with a count;
a missing one is empty). Plain strings
pass through unchanged: they are names or a person's own words. The templates call it as the
`words` filter.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import Any

from ...bundled import folder
from ...core import Say
from ...files.scripts import catalogued_character

TEMPLATES = folder("templates")
CATALOGUE = TEMPLATES / "messages.toml"


@lru_cache(maxsize=1)
def catalogue() -> dict[str, str]:
    """Every code with its sentence ("rejection.not_a_player", ...)."""
    return dict(_flatten(tomllib.loads(CATALOGUE.read_text(encoding="utf-8"))))


def _flatten(table: dict[str, Any], prefix: str = "") -> Iterator[tuple[str, str]]:
    for key, value in table.items():
        if isinstance(value, dict):
            yield from _flatten(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}", value


def words(item: Any, separator: str = ", ") -> str:
    """The words for a Say, a list of them (joined by `separator`), or a plain string."""
    if item is None:
        return ""
    if isinstance(item, Say):
        sentence = catalogue().get(item.code)
        if sentence is None:
            raise KeyError(f"no words for the message code {item.code!r} in {CATALOGUE.name}")
        return sentence.format_map(_Params(item.params))
    if isinstance(item, (list, tuple)):
        return separator.join(words(i) for i in item)
    return str(item)


def character_name(character_id: str | None, setup: Any) -> str:
    """A character's name as its script writes it (without the script, as the bundled ones
    do; an id none knows: as it is)."""
    if not character_id:
        return ""
    script = getattr(setup, "script", None)
    found = script.get(character_id) if script is not None else None
    found = found or catalogued_character(character_id)
    return found.name if found is not None else character_id


def rejection_words(code: str, details: dict[str, Any]) -> str:
    """A Rejection's words (its code is looked up under `rejection.`)."""
    return words(Say(f"rejection.{code}", tuple(details.items())))


def worded_report(report: dict[str, Any]) -> dict[str, Any]:
    """A report (modbot.core.reporting) in words: each rejection gets its `message` (then the
    rejected `text` and the `candidates` it could mean), and every Say is written."""
    for day in report.get("days", ()):
        day["rejections"] = [_worded_rejection(r) for r in day["rejections"]]
    written: dict[str, Any] = _written(report)
    return written


def _written(value: Any) -> Any:
    if isinstance(value, Say):
        return words(value)
    if isinstance(value, dict):
        return {k: _written(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_written(v) for v in value]
    return value


def _worded_rejection(r: dict[str, Any]) -> dict[str, Any]:
    details = r["details"]
    out = {k: v for k, v in r.items() if k != "details"}
    out["message"] = rejection_words(r["code"], details)
    out.update({k: v for k, v in details.items() if k in ("text", "candidates")})
    return out


class _Params(dict[str, Any]):
    """A message's parameters for `str.format_map`: a Say is written in words, a list is a
    `_List`, anything else (a name, a number, a time) keeps its own format spec."""

    def __init__(self, params: Iterable[tuple[str, Any]]) -> None:
        super().__init__((k, _param(v)) for k, v in params)

    def __missing__(self, key: str) -> _Missing:
        return _Missing()


class _Missing:
    """A parameter the message does not carry: nothing, whatever its format spec (a row's
    sentence before the Storytellers give its value)."""

    def __format__(self, spec: str) -> str:
        return ""


def _param(value: Any) -> Any:
    if isinstance(value, Say):
        return _List((words(value),))
    if isinstance(value, (list, tuple)):
        return _List(tuple(words(v) for v in value))
    return "" if value is None else _Value(value)


class _Value:
    """A plain parameter: `{n:pair|pairs}` picks the singular for 1, else the plural; any
    other format spec is the value's own (`{at:%H:%M}`)."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def __format__(self, spec: str) -> str:
        if "|" in spec:
            one, many = spec.split("|", 1)
            return one if str(self.value).strip() == "1" else many
        return format(self.value, spec)

    def __str__(self) -> str:
        return str(self.value)


class _List:
    """A list parameter: `{names}` writes "A, B, C"; `{names:and}` "A and B and C", and
    likewise `{names:or}`, `{names:&}` and `{names:;}`."""

    def __init__(self, items: tuple[str, ...]) -> None:
        self.items = items

    def __format__(self, spec: str) -> str:
        return {"and": " and ", "or": " or ", "&": " & ", ";": "; "}.get(spec, ", ").join(self.items)

    def __str__(self) -> str:
        return format(self)
