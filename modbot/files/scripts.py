"""Load scripts: the bundled ones in `data/scripts/` by name, or any official-format file.

Every character modbot implements has one record in the catalogue, `data/characters.json`:
its official fields, worded in plain terms, its default night step, and its action
specification. A script is a list in the official Script Tool's format: `_meta` (with its own
night order, where it has one) and its characters, by id where the catalogue's record serves
and as a full object where the script words a character its own way (BotF's Loyal and
Cultist, its Doppelgänger). `load_script("botf")` reads `data/scripts/botf.json` and its terms
(`botf.modbot.json`: the words for good and evil, rulings that override an action
specification, several evil teams). A custom character (an object with a team and an ability
and an id the catalogue lacks) loads without machine rules: the Storyteller runs it. Any other
id is refused, named in one line.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from ..bundled import folder
from ..core import Character, Script, character_key

DATA = folder("data")
SCRIPTS = DATA / "scripts"
CATALOGUE = DATA / "characters.json"


class ScriptError(ValueError):
    """A script that cannot be used; the message says why."""


def bundled_scripts() -> list[str]:
    return sorted(p.stem for p in SCRIPTS.glob("*.json") if not p.stem.endswith(".modbot"))


@cache
def catalogue() -> dict[str, dict]:
    """Every character modbot implements, one record each, by id."""
    return json.loads(CATALOGUE.read_text(encoding="utf-8"))["characters"]


@cache
def catalogue_script() -> Script:
    """The whole catalogue as one script: every character in its plain words."""
    return Script.from_data("catalogue", list(catalogue()), catalogue())


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
    terms_path = path.with_name(path.stem + ".modbot.json")
    terms = json.loads(terms_path.read_text(encoding="utf-8")) if terms_path.exists() else {}
    script = Script.from_data(path.stem, entries, catalogue(), terms)
    if script.unknown:
        raise ScriptError(f"{path}: modbot does not implement {', '.join(script.unknown)} "
                          "(to play one anyway, give it as a custom character: an object with "
                          "its own id, a team and an ability; the Storyteller runs it)")
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
    return data


__all__ = ["ScriptError", "bundled_scripts", "catalogue", "catalogued_character", "load_script"]
