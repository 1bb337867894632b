"""Load scripts: the bundled ones in `data/scripts/` by name, or any official-format file.

`load_script("botf")` reads `data/scripts/botf.json` (official script format), its terms
(`botf.modbot.json`) and the action specifications (`data/actions.json`). A file exported by
the official Script Tool may list official characters by id only: those we ship are filled in
from our data; an id we do not know is an error that names it. Custom characters (objects
with a team and an ability) load without machine rules: the Storyteller runs them.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from ..bundled import folder
from ..core import Script, character_key

DATA = folder("data")
SCRIPTS = DATA / "scripts"


class ScriptError(ValueError):
    """A script that cannot be used; the message says why."""


def bundled_scripts() -> list[str]:
    return sorted(p.stem for p in SCRIPTS.glob("*.json") if not p.stem.endswith(".modbot"))


@cache
def action_specs() -> dict:
    return json.loads((DATA / "actions.json").read_text(encoding="utf-8"))["characters"]


@cache
def known_characters() -> dict:
    """Every character object in the bundled scripts, by id (the first script wins)."""
    known: dict = {}
    for name in bundled_scripts():
        for entry in _read(SCRIPTS / f"{name}.json"):
            if isinstance(entry, dict) and entry.get("id") != "_meta":
                known.setdefault(entry["id"], entry)
    return known


@cache
def bundled_character(name: str):
    """A character of any bundled script, by name or id, with its action spec."""
    key = character_key(name)
    for script_name in bundled_scripts():
        found = load_script(script_name).find(key)
        if found is not None:
            return found
    return None


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
    terms_path = path.with_name(path.stem + ".modbot.json")
    terms = json.loads(terms_path.read_text(encoding="utf-8")) if terms_path.exists() else {}
    script = Script.from_data(path.stem, entries, action_specs(), terms, known_characters())
    if script.unknown:
        raise ScriptError(f"{path}: unknown character id(s): {', '.join(script.unknown)} "
                          "(not in modbot's data; give them as custom characters with a team "
                          "and an ability)")
    return script


def _read(path: Path) -> list:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ScriptError(f"{path}: cannot read the script ({exc.strerror})") from exc
    except json.JSONDecodeError as exc:
        raise ScriptError(f"{path}: not valid JSON: {exc}") from exc
    if not isinstance(data, list):
        raise ScriptError(f"{path}: a script is a JSON list (the official script format)")
    return [character_key(e) if isinstance(e, str) else e for e in data]


__all__ = ["ScriptError", "bundled_character", "bundled_scripts", "load_script"]
