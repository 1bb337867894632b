"""Theory of operation: the docs' character table and counts, computed, never typed.

`python -m modbot.cli.doctables` (from a checkout) rewrites what the docs say of the characters
from the catalogue (`data/characters.json`), the bundled scripts and the code:

- docs/characters.md's table: one row per catalogued character with its team, the bundled
  scripts that hold it, when its player wakes (and when that counts as having woken), what a
  player who gains it during a night does with it then and what ends when it is lost, whether
  it works once its player is dead, its lasting effects and
  what ends each and what malfunctioning does to it (its catalogue record's `lasting` and
  `malfunctioning`, or a default from its action), the modules that treat it by name (read
  from the source: the index of where its rules live), and the rule tests that drive it (the
  test functions of tests/rules that name its id);
- every count between `<!-- count:KEY -->` and `<!-- /count -->` in docs/*.md and the
  README: `characters` (the catalogue), `script:NAME` (a bundled script's characters by team).

tests/test_docs.py checks that the pages hold what this builds.
"""

from __future__ import annotations

import ast
import re
import sys
from functools import cache
from pathlib import Path
from typing import Any

from ..core import CHARACTER_RULES, ENDS_WITH_DEATH, LASTING_CAUSES, MARKED_BY_STORYTELLERS
from ..files.scripts import bundled_scripts, catalogue, load_script

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "modbot"
CHARACTERS_PACKAGE = PACKAGE / "core" / "characters"
PAGE = ROOT / "docs" / "characters.md"
START, END = "<!-- characters table: start -->", "<!-- characters table: end -->"
COUNT = re.compile(r"<!-- count:([\w:]+) -->(.*?)<!-- /count -->")
TEAMS = ("townsfolk", "outsider", "minion", "demon", "traveller", "fabled", "loric")
PLURAL = {"townsfolk": "Townsfolk", "outsider": "Outsiders", "minion": "Minions",
          "demon": "Demons", "traveller": "Travellers", "fabled": "Fabled", "loric": "Loric"}
EDITIONS = {"tb": "Trouble Brewing", "bmr": "Bad Moon Rising", "snv": "Sects & Violets",
            "carousel": "Experimental", "fabled": "Fabled", "loric": "Loric",
            "seed": "the seeds' own"}
# A string that is a character id but means something else outside the characters package.
OTHER_MEANINGS = {
    "drunk": "the grimoire's drunk flag (GrimoireEntry.drunk) and the !drunk command",
    "revolutionary": "the game file's `revolutionary` key (the Fabled's two players)",
    "gossip": "the thread's `/gossip TEXT` form (the parser's verb; the Gossip's rule is characters/gossip.py)",
    "doomsayer": "the thread's `/doomsayer` form (the parser's verb; its rule is characters/doomsayer.py)",
}
IDS = PACKAGE / "core" / "state" / "ids.py"  # the constants that name a character elsewhere


def _id_constants() -> dict[str, str]:
    """`ids.py`'s constants, read from its source like the modules that use them."""
    tree = ast.parse(IDS.read_text(encoding="utf-8"))
    return {node.targets[0].id: str(node.value.value) for node in tree.body
            if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
            and node.targets[0].id.isupper() and isinstance(node.value, ast.Constant)}


ID_CONSTANTS = _id_constants()


def ordered_characters() -> list[str]:
    """The catalogue's ids in team order, then by name."""
    records = catalogue()
    return sorted(records, key=lambda c: (TEAMS.index(records[c]["team"]), records[c]["name"]))


def named_in(path: Path, characters: set[str]) -> list[tuple[int, str, bool]]:
    """(line, character id, written as a string) for each mention of a character in a module:
    a string that is its id, or a constant of `core/state/ids.py`."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and node.value in characters:
            out.append((node.lineno, node.value, True))
        elif isinstance(node, ast.Name) and node.id in ID_CONSTANTS:
            out.append((node.lineno, ID_CONSTANTS[node.id], False))
        elif isinstance(node, ast.Attribute) and node.attr in ID_CONSTANTS:
            out.append((node.lineno, ID_CONSTANTS[node.attr], False))
    return out


def rule_modules() -> list[Path]:
    """The modules that may treat a character by name (not the constants, not this one)."""
    skipped = (IDS, Path(__file__).resolve())
    return [p for p in sorted(PACKAGE.rglob("*.py")) if p not in skipped]


@cache
def where_rules_live() -> dict[str, tuple[str, ...]]:
    """Character id -> the modules that treat it by name (`core.characters.effects`, ...)."""
    characters = set(catalogue())
    found: dict[str, set[str]] = {c: set() for c in characters}
    for path in rule_modules():
        inside = CHARACTERS_PACKAGE in path.parents
        for _line, character, as_string in named_in(path, characters):
            if as_string and not inside and character in OTHER_MEANINGS:
                continue
            found[character].add(".".join(path.relative_to(PACKAGE).with_suffix("").parts))
    return {c: tuple(sorted(m)) for c, m in found.items()}


def _strings(node: ast.AST) -> set[str]:
    return {n.value for n in ast.walk(node) if isinstance(n, ast.Constant)
            and isinstance(n.value, str)}


def tests_naming() -> dict[str, list[str]]:
    """Character id -> the rule tests that name it: in their body, their parameters, or a
    module-level constant they use (a set-up tuple)."""
    out: dict[str, list[str]] = {}
    for path in sorted((ROOT / "tests" / "rules").glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
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


def malfunctioning(record: dict[str, Any]) -> str:
    """What being drunk or poisoned does to it: the record's words, or its action's default."""
    action = record["action"]
    if "malfunctioning" in record:
        return str(record["malfunctioning"])
    if action.get("info") == "kill" or action.get("kills"):
        return "no kill"
    if action.get("info"):
        return "false or arbitrary information (the sheet shows the true answer; ST decides)"
    if action.get("wakes") in ("none", "day", "death"):
        return "no ability (the Storytellers rule)"
    return "its choice does nothing"


@cache
def scripts_holding() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for name in bundled_scripts():
        for character in load_script(name).characters:
            out.setdefault(character.id, []).append(name)
    return out


def table() -> str:
    tests, records = tests_naming(), catalogue()
    rows = ["| Character | Team | Edition | Run by | Scripts | Wakes | Gained in the night | Lost "
            "| Works while dead | Lasting effects, and what ends them | When it malfunctions "
            "| Its record's rules | Rules in | Tests |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for cid in ordered_characters():
        record = records[cid]
        shown = _ranked(cid, record["name"], tests.get(cid, []))
        named = ", ".join(f"`{t.split('.', 1)[1]}`" for t in shown[:2])
        modules = ", ".join([*(m.removeprefix("core.") for m in where_rules_live()[cid]),
                             *record_hooks(cid)])
        rows.append(f"| {_name(record)} | {record['team']} | {_edition(record)} | "
                    f"{run_by(cid)} | "
                    f"{', '.join(scripts_holding().get(cid, [])) or '–'} | {wakes(cid)} | "
                    f"{gaining(cid)} | {losing(cid)} | "
                    f"{'yes' if record['action'].get('acts_dead') else 'no'} | "
                    f"{record.get('lasting', '–')} | {malfunctioning(record)} | {record_parts(cid)} | "
                    f"{modules or '– (the night sheet row)'} | {named or '–'} |")
    return "\n".join(rows)


def _name(record: dict[str, Any]) -> str:
    """Its name, linked to its official wiki page; the official version of a character a seed
    words its own way says so."""
    name = f"[{record['name']}]({record['wiki']})" if record.get("wiki") else record["name"]
    return name + (" (official)" if record.get("official", {}).get("variant") else "")


def _edition(record: dict[str, Any]) -> str:
    edition = str(record.get("edition", "seed"))
    return EDITIONS.get(edition, edition)


def run_by(character_id: str) -> str:
    """Who runs it: the bot (a seed's version where a seed words it its own way), or the
    Storytellers from its record (the official characters not automated yet)."""
    record = catalogue()[character_id]
    if record.get("run") == "storytellers":
        return "the Storytellers"
    variant = any(r.get("official", {}).get("variant") and r["official"]["id"] == character_id
                  for r in catalogue().values())
    return "the bot (the seeds' version)" if variant else "the bot"


WAKES = {"first": "the first night", "other": "each night but the first", "each": "each night"}
NOT_WOKEN = {"none": "no", "day": "no (by day)", "death": "no (on its death, by day)"}


def wakes(character_id: str) -> str:
    """When its player wakes to use the ability (characters/waking.py decides who woke): its
    catalogue record's `wakes`, `asleep` and `once`, and its record's `woke` condition."""
    action = catalogue()[character_id]["action"]
    when = action.get("wakes", "none")
    if when in NOT_WOKEN:
        return NOT_WOKEN[when]
    if action.get("asleep"):
        return "no (the Storytellers' check)"
    rules = CHARACTER_RULES.get(character_id)
    condition = rules.woke.__doc__ if rules is not None and rules.woke is not None else None
    words = f"{WAKES[when]}, {condition}" if condition else WAKES[when]
    return words + ("; once spent, never" if action.get("once") else "")


def gaining(character_id: str) -> str:
    """What a player who gains it during a night does with it that night (night/sheet.py:
    at its step if still to come; a chooser only on a contingency choice)."""
    action = catalogue()[character_id]["action"]
    when = action.get("wakes", "none")
    if when in NOT_WOKEN or action.get("asleep"):
        return "works from then on"
    chooses = action.get("players") or action.get("characters")
    words = "acts at its step if still to come, on a choice sent for it (`if NAME`)" if chooses \
        else "learns at its step if still to come"
    return f"on the first night, {words}; later, nothing" if when == "first" else words


def losing(character_id: str) -> str:
    """What ends when its player loses it (characters/lasting.py): the lasting effects its
    ability keeps up, at its death too for some."""
    if character_id in LASTING_CAUSES:
        return "its lasting effects end" + (", as at its death" if character_id in ENDS_WITH_DEATH
                                            else "")
    if character_id in MARKED_BY_STORYTELLERS:
        return "its lasting effect ends (marked `by` its player)"
    return "–"


# the record's fields the rules read by meaning, not by id (core/state/script.py's ActionSpec)
RECORD_HOOKS = ("registers", "sees_grimoire", "votes_with_token", "weighs_vote",
                "votes_with_master", "safe_from_demon", "poisoned_by_jinxed",
                "poisons_neighbours", "kills_keep_ability", "drunk_reminder", "unseated",
                "nominates_after_close", "believes", "beside_demon", "red_herring",
                "kills_through_protection", "shields_from_demon", "restores_ability",
                "turns_by_word", "dead_choice_kills", "false_information", "when_killed",
                "gives_ability", "announces_new_choice", "cannot_die", "charged_players",
                "votes_with_the_dead", "storytellers_nominate", "whispers_beside")


def record_hooks(character_id: str) -> list[str]:
    """The record's own fields its rules are read from (`weighs_vote`, ...), as the table
    shows them."""
    record = catalogue()[character_id]
    fields = {**record.get("action", {}), **{k: v for k, v in record.items() if k == "registers"}}
    return [f"record `{name}`" for name in RECORD_HOOKS if fields.get(name)]


def record_parts(character_id: str) -> str:
    """What its `CharacterRules` (core/characters/records.py) declares: its night rule, its
    public `/choose`, its triggers; none: the night sheet row, and the Storytellers, run it."""
    rules = CHARACTER_RULES.get(character_id)
    parts = [label for label, rule in (("night", rules and rules.night),
                                       ("public /choose", rules and rules.public_choice)) if rule]
    parts += [f"on {_event_words(kind.__name__)}" for kind, _ in (rules.triggers if rules else ())]
    return ", ".join(parts) or "–"


def _event_words(name: str) -> str:
    """`PlayerDied` -> "player died"."""
    return re.sub(r"(?<!^)(?=[A-Z])", " ", name).lower()


def count(key: str) -> str:
    """The words a `<!-- count:KEY -->` marker holds."""
    if key == "characters":
        return str(len(catalogue()))
    if key in ("official", "automated", "storytellers"):
        return str(_official_count(key))
    if key.startswith("script:"):
        teams: dict[str, int] = {}
        for character in load_script(key.removeprefix("script:")).characters:
            teams[character.team] = teams.get(character.team, 0) + 1
        return ", ".join(f"{teams[t]} {PLURAL[t]}" for t in TEAMS if t in teams)
    raise KeyError(f"no count {key!r} (characters, official, automated, storytellers, "
                   "script:NAME)")


def _official_count(key: str) -> int:
    """The official characters (the catalogue's, each once: an official version counts as its
    character), those the bot automates, and those the Storytellers run."""
    records = catalogue()
    ranked = sorted(records.items(), key=lambda item: bool(
        item[1].get("official", {}).get("variant")))  # an official version over the seed's
    officials = {r.get("official", {}).get("id", i): r for i, r in ranked
                 if r.get("edition") != "seed"}
    if key == "official":
        return len(officials)
    automated = sum(1 for r in officials.values() if r.get("run") != "storytellers")
    return automated if key == "automated" else len(officials) - automated


def with_counts(text: str) -> str:
    return COUNT.sub(lambda m: f"<!-- count:{m[1]} -->{count(m[1])}<!-- /count -->", text)


def rewritten(page: str) -> str:
    """docs/characters.md with the table as built (and its counts)."""
    before, rest = page.split(START, 1)
    _, after = rest.split(END, 1)
    return with_counts(f"{before}{START}\n{table()}\n{END}{after}")


def counted_pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def characters_in_table(text: str) -> int:
    teams = "|".join(TEAMS)
    return len(re.findall(rf"^\| [^|]+ \| (?:{teams}) \|", text, re.M))


def main() -> int:
    if not (ROOT / "docs").is_dir():
        print("modbot.cli.doctables: run it from a checkout of modbot (docs/ is not here)")
        return 1
    PAGE.write_text(rewritten(PAGE.read_text(encoding="utf-8")), encoding="utf-8")
    for page in counted_pages():
        text = page.read_text(encoding="utf-8")
        if with_counts(text) != text:
            page.write_text(with_counts(text), encoding="utf-8")
            print(f"{page.relative_to(ROOT)}: counts rewritten")
    print(f"{PAGE.relative_to(ROOT)}: {characters_in_table(PAGE.read_text(encoding='utf-8'))} "
          "characters")
    return 0


if __name__ == "__main__":
    sys.exit(main())
