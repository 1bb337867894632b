"""Theory of operation: what a stored event did, in the Storytellers' words.

`!log` lists the game's last events and the upgrade check the posts that would read
differently; both show each event as a `Say` the catalogue words (`[event]` in
templates/messages.toml: one sentence per event type, a test keeps every type worded). The
sentence takes the event's plain fields (a nested one as `outer_inner`: `vote_player`), its
lists of names, and never a time (a line of `!log` says when). A character's id becomes its
name (the bundled scripts'), a yes/no vote "execute"/"pardon", and a grimoire change is worded
by its field (`event.GrimoireChanged.reminders`). An event an older version recorded that this
one no longer knows is "a change an earlier version recorded", never its class name.
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import Enum
from typing import Any

from ...core import Say
from .catalogue import catalogue, character_name

CHARACTER_FIELDS = {"character", "ability", "mad_as", "thinks", "ability_of", "fabled",
                    "choice_character"}  # character ids, worded by name


def described(name: str, data: dict[str, Any]) -> Say:
    """The `Say` for a stored event (`name`, its fields as `dataclasses.asdict` or the store
    keep them)."""
    code = f"event.{name}"
    params = dict(_plain_fields(data))
    if name == "GrimoireChanged":
        code = f"{code}.{params.get('field')}"
        if params.get("field") in CHARACTER_FIELDS:
            params["value"] = character_name(str(params.get("value") or ""), None)
        elif params.get("field") == "registers_as":  # `imp to fortuneteller`, by name
            params["value"] = [" to ".join(character_name(part, None) for part in kept.split(" to "))
                               for kept in params.get("value") or ()] or Say("effect.none")
    if code not in catalogue():
        return Say("event.unknown")
    for key in ("value", "vote_vote"):
        if params.get(key) in ("yes", "no"):
            params[key] = Say(f"event.vote.{params[key]}")
    for key in CHARACTER_FIELDS & params.keys():
        if isinstance(params[key], str):
            params[key] = character_name(params[key], None)
    if isinstance(params.get("characters"), list):
        params["characters"] = [character_name(c, None) for c in params["characters"]]
    for key, value in params.items():
        if isinstance(value, bool):
            params[key] = Say(f"event.flag.{str(value).lower()}")
    if name == "DayEnded" and not params.get("executed"):
        params["executed"] = Say("event.nobody")
    return Say(code, tuple(params.items()))


def _plain_fields(data: dict[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    """(name, value) for each field a sentence may take: text, numbers, flags, lists of
    names; a nested record's own fields once (`flag_day`); no times."""
    for key, value in data.items():
        if key == "at" or key.endswith("_at") or value in ("", None):
            continue
        if isinstance(value, dict) and not prefix:
            yield from _plain_fields(value, f"{key}_")
        elif isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
            yield f"{prefix}{key}", list(value)
        elif isinstance(value, (str, int, bool)):  # an Enum (a phase) as its code
            yield f"{prefix}{key}", value.value if isinstance(value, Enum) else value
