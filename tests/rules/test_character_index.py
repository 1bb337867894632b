"""The character index: every character of the bundled scripts is listed with the modules that
treat it by name, the list is complete, and outside the characters package a character is
named by a constant of `state/ids.py`, never by a string."""

import ast
import json
from pathlib import Path

import pytest

from modbot.core.characters.index import HOOKS, hooks
from modbot.core.state import ids

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "modbot"
CHARACTERS = PACKAGE / "core" / "characters"
# A string that is a character id, allowed outside the characters package, and why.
EXCEPTIONS = {
    "drunk": "also the grimoire's drunk flag (GrimoireEntry.drunk) and the !drunk command",
    "revolutionary": "also the game file's `revolutionary` key (the Fabled's two players)",
}


def data_characters() -> set[str]:
    found = set()
    for path in (ROOT / "data" / "scripts").glob("*.json"):
        if path.name.endswith(".modbot.json"):
            continue
        found |= {c["id"] for c in json.loads(path.read_text())
                  if isinstance(c, dict) and c.get("id") and c["id"] != "_meta"}
    return found


CONSTANTS = {name: value for name, value in vars(ids).items() if name.isupper()}


def named_in(path: Path, characters: set[str]) -> list[tuple[int, str, bool]]:
    """(line, character id, written as a string) for each mention in the module."""
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and node.value in characters:
            out.append((node.lineno, node.value, True))
        elif isinstance(node, ast.Name) and node.id in CONSTANTS:
            out.append((node.lineno, CONSTANTS[node.id], False))
        elif isinstance(node, ast.Attribute) and node.attr in CONSTANTS:
            out.append((node.lineno, CONSTANTS[node.attr], False))
    return out


def module_of(path: Path) -> str:
    return ".".join(path.relative_to(PACKAGE).with_suffix("").parts)


MODULES = [p for p in sorted(PACKAGE.rglob("*.py"))
           if p not in (PACKAGE / "core" / "state" / "ids.py", CHARACTERS / "index.py")]


def test_every_character_of_the_scripts_is_in_the_index():
    assert set(HOOKS) == data_characters()
    assert set(CONSTANTS.values()) <= data_characters()


def test_the_index_lists_exactly_the_modules_that_name_each_character():
    characters = data_characters()
    found: dict[str, set[str]] = {c: set() for c in characters}
    for path in MODULES:
        inside = CHARACTERS in path.parents
        for _line, character, as_string in named_in(path, characters):
            if as_string and not inside and character in EXCEPTIONS:
                continue  # the other meaning of the word
            found[character].add(module_of(path))
    assert {c: tuple(sorted(m)) for c, m in found.items()} == \
        {c: tuple(sorted(m)) for c, m in HOOKS.items()}


@pytest.mark.parametrize("path", [p for p in MODULES if CHARACTERS not in p.parents],
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_outside_the_characters_package_no_character_id_is_a_string(path):
    strings = [(line, c) for line, c, as_string in named_in(path, data_characters())
               if as_string and c not in EXCEPTIONS]
    assert strings == [], f"use modbot.core.state.ids: {strings}"


def test_hooks_name_their_kind():
    assert ("effect", "core.characters.effects") in hooks("monk")
    assert ("set-up", "core.setup.composition") in hooks("lilmonsta")
    assert hooks("artist") == []  # the Storytellers answer it
