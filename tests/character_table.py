"""The characters table of docs/characters.md: built from the data and the tests, never typed.

For each character of the bundled scripts (data/actions.json, in team order): its team and
scripts, whether its ability works once its player is dead, the lasting effects it causes and
what ends each, what malfunctioning does to it, and the rule tests that drive it (the test
functions of tests/rules that name its id). `python -m tests.character_table` rewrites the
table in docs/characters.md; tests/test_docs.py checks that the page holds it as built, and that
its characters are exactly those of the code's index (core/characters/index.py).
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "characters.md"
START, END = "<!-- characters table: start -->", "<!-- characters table: end -->"
TEAMS = ("townsfolk", "outsider", "minion", "demon", "traveller", "fabled")

# Lasting effects and what ends each (the seeds' words; "modbot's choice" where they are silent)
EFFECTS = {
    "poisoner": "poisoned until dusk",
    "widow": "poisoned until the Widow dies (almanac)",
    "nodashii": "its 2 Townsfolk neighbours malfunction while it lives and works",
    "vigormortis": "a killed Minion keeps its ability; a Townsfolk neighbour poisoned: both end "
                   "when the Vigormortis dies (modbot's choice)",
    "pukka": "poisoned, then dies the next night and is healthy",
    "lleech": "its host poisoned; the Lleech dies with it",
    "philosopher": "the holder of the ability gained malfunctions until the Philosopher dies "
                   "(modbot's choice)",
    "goon": "its first chooser drunk until dusk; the Goon takes that alignment",
    "cannibal": "poisoned after eating an evil executee, until a good player is executed",
    "puzzlemaster": "1 player drunk, even after the Puzzlemaster dies; sober while it malfunctions",
    "sweetheart": "on its death, 1 player malfunctions from now on",
    "witch": "cursed: dies if they nominate tomorrow (that day only)",
    "cerenovus": "mad about a character tomorrow",
    "snakecharmer": "the swapped Demon is poisoned for good",
    "innkeeper": "one of the two drunk until dusk",
    "monk": "safe from the Demon tonight, its poison too from the Monk's step",
    "devilsadvocate": "survives execution tomorrow",
    "mezepheles": "the first good player to say the word turns evil that night",
    "fearmonger": "the chosen player's execution loses the game for good",
    "doppelganger": "a twin: executing the good twin makes evil win",
    "scarletwoman": "becomes the Demon if it dies with 5 or more alive",
    "fanggu": "the first Outsider it kills becomes the Fang Gu and evil",
    "pithag": "a player becomes a character not in play",
    "barber": "if it died today or tonight, the Demon may swap 2 players' characters",
}
MALFUNCTION = {
    "soldier": "no protection from the Demon",
    "monk": "no protection",
    "goon": "its chooser is not drunk",
    "puzzlemaster": "its drunk is sober",
    "vortox": "information is true again; no win by a day without execution",
    "nodashii": "its neighbours are sober",
    "lleech": "dies like anyone; its host is sober",
    "scarletwoman": "does not become the Demon",
    "mezepheles": "its word turns nobody",
    "cerenovus": "nobody is made mad",
    "poisoner": "nobody is poisoned", "widow": "nobody is poisoned (she still sees the grimoire)",
    "pukka": "nobody is poisoned or dies", "witch": "nobody is cursed",
    "pithag": "nobody changes", "devilsadvocate": "no protection from execution",
    "snakecharmer": "a chosen Demon is not swapped", "philosopher": "gains nothing",
    "innkeeper": "no protection, nobody drunk", "acrobat": "does not die of a drunk neighbour",
    "damsel": "a Minion's right guess wins nothing", "fearmonger": "its choice means nothing",
    "doppelganger": "no twin", "barber": "no swap", "sweetheart": "nobody malfunctions",
}


def _spec() -> dict:
    return json.loads((ROOT / "data" / "actions.json").read_text())["characters"]


def _characters() -> dict[str, dict]:
    found: dict[str, dict] = {}
    for path in sorted((ROOT / "data" / "scripts").glob("*.json")):
        if path.name.endswith(".modbot.json"):
            continue
        entries = json.loads(path.read_text())
        for entry in entries:
            if isinstance(entry, dict) and "team" in entry:
                row = found.setdefault(entry["id"], {"name": entry["name"], "team": entry["team"],
                                                     "scripts": []})
                row["scripts"].append(path.stem)
    return found


def _strings(node) -> set[str]:
    return {n.value for n in ast.walk(node) if isinstance(n, ast.Constant)
            and isinstance(n.value, str)}


def _tests_naming() -> dict[str, list[str]]:
    """Character id -> the rule tests that name it: in their body, their parameters, or a
    module-level constant they use (a set-up tuple)."""
    out: dict[str, list[str]] = {}
    for path in sorted((ROOT / "tests" / "rules").glob("test_*.py")):
        tree = ast.parse(path.read_text())
        constants = {target.id: _strings(node.value) for node in tree.body
                     if isinstance(node, ast.Assign) for target in node.targets
                     if isinstance(target, ast.Name)}
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                named = _strings(node) | {s for n in ast.walk(node) if isinstance(n, ast.Name)
                                          for s in constants.get(n.id, ())}
                for value in named:
                    out.setdefault(value, []).append(f"{path.stem}.{node.name}")
    return out


def _ranked(cid: str, name: str, tests: list[str]) -> list[str]:
    """The tests about the character first (named after it), then the others."""
    words = {cid, *re.findall(r"[a-z]+", name.casefold())} - {"the", "of"}
    return sorted(tests, key=lambda t: (not any(w in t.split(".", 1)[1] for w in words), t))


def _malfunction(cid: str, spec: dict) -> str:
    if cid in MALFUNCTION:
        return MALFUNCTION[cid]
    if spec.get("info") == "kill" or spec.get("kills"):
        return "no kill"
    if spec.get("info"):
        return "false or arbitrary information (the sheet shows the true answer; ST decides)"
    if spec.get("wakes") in ("none", "day", "death"):
        return "no ability (the Storytellers rule)"
    return "its choice does nothing"


def table() -> str:
    spec, tests = _spec(), _tests_naming()
    characters = _characters()
    rows = ["| Character | Team | Scripts | Works while dead | Lasting effects, and what ends them "
            "| When it malfunctions | Tests |", "|---|---|---|---|---|---|---|"]
    order = sorted(characters, key=lambda c: (TEAMS.index(characters[c]["team"]),
                                              characters[c]["name"]))
    for cid in order:
        row, action = characters[cid], spec.get(cid, {})
        shown = _ranked(cid, row["name"], tests.get(cid, []))
        named = ", ".join(f"`{t.split('.', 1)[1]}`" for t in shown[:2])
        rows.append(f"| {row['name']} | {row['team']} | {', '.join(row['scripts'])} | "
                    f"{'yes' if action.get('acts_dead') else 'no'} | {EFFECTS.get(cid, '–')} | "
                    f"{_malfunction(cid, action)} | {named or '–'} |")
    return "\n".join(rows)


def characters_in_table(text: str) -> int:
    return len(re.findall(r"^\| [^|]+ \| (?:townsfolk|outsider|minion|demon|traveller|fabled) \|",
                          text, re.M))


def rewritten(page: str) -> str:
    before, rest = page.split(START, 1)
    _, after = rest.split(END, 1)
    return f"{before}{START}\n{table()}\n{END}{after}"


if __name__ == "__main__":
    PAGE.write_text(rewritten(PAGE.read_text()))
    print(f"{PAGE}: {characters_in_table(PAGE.read_text())} characters")
