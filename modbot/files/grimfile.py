"""The game file's private part: the script, each seat's character, the Demon's bluffs.

`[game] script = "botf"` names a bundled script (or an official-format .json file, relative to
the game file); `script_add` completes a partial script with characters of the others; seats
may give `character`, `thinks` (what the player is shown, for the Drunk)
and `alignment` (good or evil; by default the character's team decides). Character names are
checked against the script and stored as ids. Without a script the game has no private side.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..core import Character, GrimoireEntry, Script, Seat
from .lines import Lines
from .scripts import ScriptError, catalogued_character, load_script


def script_from_file(lines: Lines, game: dict[str, Any], base: Path | None) -> Script | None:
    name = game.get("script")
    if name is None:
        return None
    if not isinstance(name, str) or not name:
        raise lines.error(lines.game_key("script"), "game.script: a bundled script name "
                          "(like botf) or a .json file")
    try:
        script = load_script(name, base)
    except ScriptError as exc:
        raise lines.error(lines.game_key("script"), f"game.script: {exc}") from None
    added = game.get("script_add", [])
    if not isinstance(added, list) or not all(isinstance(a, str) for a in added):
        raise lines.error(lines.game_key("script_add"), "game.script_add: a list of "
                          "characters modbot implements (data/characters.json)")
    extra = []
    for name in added:
        found = catalogued_character(name)
        if found is None:
            raise lines.error(lines.game_key("script_add"), f"game.script_add: modbot does not "
                              f"implement {name!r}")
        extra.append(found)
    return script.with_characters(tuple(extra)) if extra else script


def character_id(lines: Lines, script: Script | None, value: Any, where: str,
                 line: int | None) -> str:
    if script is None:
        raise lines.error(line, f"{where}: characters need game.script")
    found = script.find(str(value)) if isinstance(value, str) else None
    if found is None:
        raise lines.error(line, f"{where}: no character {value!r} on the script "
                          f"{script.name!r}")
    return str(found.id)


def _on(script: Script | None, character: str) -> Character:
    """A character `character_id` found on the script."""
    found = script.get(character) if script is not None else None
    if found is None:
        raise ValueError(f"{character!r} is not on the script")
    return found


def deal_from_file(lines: Lines, raw_seats: Any, seats: tuple[Seat, ...],
                   script: Script | None) -> tuple[Any, ...]:
    grimoire = []
    for index, (entry, seat) in enumerate(zip(raw_seats or [], seats, strict=False)):
        line = lines.seat(index)
        where = f"seat {index + 1} ({seat.name})"
        values: dict[str, Any] = {}
        for key, field in (("character", "character"), ("thinks", "thinks")):
            if key in entry:
                values[field] = character_id(lines, script, entry[key], f"{where}: {key}",
                                             lines.key(key, line))
                if _on(script, values[field]).team in ("fabled", "loric"):
                    raise lines.error(lines.key(key, line), f"{where}: {key}: a Fabled or a "
                                      "Loric is the Storytellers', never dealt to a player")
        if "bluffs" in entry:  # a Demon's own bluffs (several evil teams)
            if not isinstance(entry["bluffs"], list):
                raise lines.error(lines.key("bluffs", line), f"{where}: bluffs is a list of "
                                  "characters")
            values["bluffs"] = tuple(character_id(lines, script, v, f"{where}: bluffs",
                                                  lines.key("bluffs", line))
                                     for v in entry["bluffs"])
        if "reminders" in entry:  # set-up marks: the Fortune Teller's red herring
            marks = entry["reminders"]
            if not isinstance(marks, list) or not all(
                    isinstance(m, str) and 0 < len(m) <= 40 and m.isprintable() for m in marks):
                raise lines.error(lines.key("reminders", line), f"{where}: reminders is a list "
                                  'of short words (reminders = ["red herring"])')
            values["reminders"] = tuple(marks)
        if "evil_team" in entry:
            team = entry["evil_team"]
            if isinstance(team, bool) or not isinstance(team, int) or team < 1:
                raise lines.error(lines.key("evil_team", line),
                                  f"{where}: evil_team is a team number (1, 2, ...)")
            values["evil_team"] = team
        if "alignment" in entry:
            if entry["alignment"] not in ("good", "evil"):
                raise lines.error(lines.key("alignment", line),
                                  f"{where}: alignment is good or evil")
            values["alignment"] = entry["alignment"]
        if values:
            grimoire.append((seat.name, GrimoireEntry(**values)))
    return tuple(grimoire)


def bluffs_from_file(lines: Lines, game: dict[str, Any], script: Script | None) -> tuple[str, ...]:
    value = game.get("bluffs", [])
    if not isinstance(value, list):
        raise lines.error(lines.game_key("bluffs"), "game.bluffs: a list of characters")
    return tuple(character_id(lines, script, v, "game.bluffs", lines.game_key("bluffs"))
                 for v in value)


def fabled_from_file(lines: Lines, game: dict[str, Any], script: Script | None) -> tuple[str, ...]:
    value = game.get("fabled", [])
    if not isinstance(value, list):
        raise lines.error(lines.game_key("fabled"), "game.fabled: a list of Fabled")
    ids = tuple(character_id(lines, script, v, "game.fabled", lines.game_key("fabled"))
                for v in value)
    for fabled in ids:
        if _on(script, fabled).team != "fabled":
            raise lines.error(lines.game_key("fabled"), f"game.fabled: "
                              f"{_on(script, fabled).name} is not a Fabled")
    return ids


def revolutionary_from_file(lines: Lines, game: dict[str, Any], seats: tuple[Seat, ...],
                            fabled: tuple[str, ...]) -> tuple[str, ...]:
    value = game.get("revolutionary")
    if value is None:
        return ()
    names = [s.name for s in seats]
    if "revolutionary" not in fabled or not isinstance(value, list) or len(value) != 2 \
            or not all(v in names for v in value):
        raise lines.error(lines.game_key("revolutionary"), "game.revolutionary: two seated "
                          "players, with the Revolutionary in game.fabled")
    a, b = (names.index(v) for v in value)
    if (a - b) % len(names) not in (1, len(names) - 1):
        raise lines.error(lines.game_key("revolutionary"), "game.revolutionary: the two "
                          "players must be neighbours")
    return tuple(value)


def hours_value(lines: Lines, game: dict[str, Any], key: str, default: float, unit: str = "hours") -> float:
    """A number of `unit` (hours, or what the key says) the game file gives, at least 0."""
    value = game.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise lines.error(lines.game_key(key), f"game.{key}: {unit}, a number >= 0")
    return float(value)
