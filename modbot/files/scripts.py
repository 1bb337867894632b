"""Load scripts: the bundled ones in `data/scripts/` by name, or any official-format file.

Every official character has one record in the catalogue, `data/characters.json`: its facts
(team, edition, night positions, set-up shift, reminders), its ability in plain terms (a seed's
wording for the seeds' characters, a summary in modbot's own words for the others, with its
page on the official wiki), and its action specification; those modbot does not automate are
run by the Storytellers (`"run": "storytellers"`), never refused. A script is a list in the
official Script Tool's format: `_meta` (with its own night order, where it has one) and its
characters, by id where the catalogue's record serves and as a full object where the script
words a character its own way (BotF's Loyal and Cultist, its Doppelgänger).
`load_script("botf")` reads `data/scripts/botf.json` and its terms (`botf.modbot.json`: the
words for good and evil, rulings that override an action specification, several evil teams);
a script with terms is a seed's, and runs the seed's version of a character the seed words its
own way (the Acrobat), any other the official one. A custom character (an object with a team
and an ability and an id the catalogue lacks) loads without machine rules: the Storyteller
runs it. Any other id is refused, named in one line. A file is checked for its shape first
(script_shape.py): a malformed one is refused with every problem, one line each.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from ..bundled import folder
from ..core import Character, Script, character_key
from ..shown import shown
from .script_shape import ShapeError, read_script_json, shape_problems

DATA = folder("data")
SCRIPTS = DATA / "scripts"
CATALOGUE = DATA / "characters.json"
JINXES = DATA / "jinxes.json"


class ScriptError(ValueError):
    """A script that cannot be used; the message says why."""


def bundled_scripts() -> list[str]:
    return sorted(p.stem for p in SCRIPTS.glob("*.json") if not p.stem.endswith(".modbot"))


@cache
def catalogue() -> dict[str, dict[str, Any]]:
    """Every official character (and the seeds' own versions), one record each, by key."""
    records: dict[str, dict[str, Any]] = json.loads(CATALOGUE.read_text(encoding="utf-8"))[
        "characters"]
    return records


@cache
def official_jinxes() -> list[dict[str, Any]]:
    """The official jinxes, in modbot's words (`data/jinxes.json`)."""
    jinxes: list[dict[str, Any]] = json.loads(JINXES.read_text(encoding="utf-8"))["jinxes"]
    return jinxes


@cache
def catalogue_script() -> Script:
    """The whole catalogue as one script: every character in its plain words (a character a
    seed words its own way: the seed's version, as the seeds' games run it)."""
    records = catalogue()
    seeds_first = [key for key, r in records.items() if not r.get("official", {}).get("variant")]
    return Script.from_data("catalogue", seeds_first, records, seed=True)


def catalogued_character(name: str) -> Character | None:
    """A character modbot implements, by name or id, as the catalogue words it."""
    return catalogue_script().find(character_key(name))


def load_script(name_or_path: str, base: Path | None = None) -> Script:
    path = Path(name_or_path)
    if not path.suffix:
        path = SCRIPTS / f"{name_or_path}.json"
        if not path.exists():
            raise ScriptError(f"no bundled script {name_or_path!r} (bundled: "
                              f"{', '.join(bundled_scripts())}; or give a .json file)")
    elif base is not None and not path.is_absolute():
        path = base / path
    entries = _read(path)
    terms = _read_terms(path.with_name(path.stem + ".modbot.json"))
    script = Script.from_data(path.stem, entries, catalogue(), terms, jinxes=official_jinxes())
    if script.unknown:
        raise ScriptError(f"{shown(path)}: modbot does not know "
                          f"{', '.join(shown(i) for i in script.unknown)} "
                          "(no official character has that id: check its spelling, or give a "
                          "homebrew character as an object with its own id, a team and an "
                          "ability; the Storytellers run it)")
    return script


def _read(path: Path) -> list[Any]:
    """The script's entries, once its shape is right (script_shape.py): otherwise every
    problem, one line each."""
    try:
        data = read_script_json(path)
    except OSError as exc:
        raise ScriptError(f"{shown(path)}: cannot read the script ({exc.strerror})") from exc
    except ShapeError as exc:
        raise ScriptError(_problems(path, exc.lines)) from exc
    problems = shape_problems(data)
    if problems:
        raise ScriptError(_problems(path, problems))
    entries: list[Any] = data  # the shape says: a list of entries
    return entries


def _problems(path: Path, lines: list[str]) -> str:
    if len(lines) == 1:
        return f"{shown(path)}: {lines[0]}"
    return f"{shown(path)}: {len(lines)} problems:\n" + "\n".join(f"  {line}" for line in lines)


def _read_terms(path: Path) -> dict[str, Any]:
    """A script's terms (`NAME.modbot.json` beside it, modbot's own), if it has one."""
    if not path.exists():
        return {}
    try:
        terms = read_script_json(path)
    except (OSError, ShapeError) as exc:
        raise ScriptError(f"{shown(path)}: cannot read the script's terms: {shown(exc)}") from exc
    if not isinstance(terms, dict):
        raise ScriptError(f"{shown(path)}: the script's terms are an object")
    return terms


__all__ = ["ScriptError", "bundled_scripts", "catalogue", "catalogued_character", "load_script",
           "official_jinxes"]
