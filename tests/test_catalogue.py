"""Codes, not words: every message the core can say has words in templates/messages.toml, no
entry is dead, and rewording every entry changes what people read and nothing else (the
events of a whole demo game, without their words, stay the same)."""

import ast
import dataclasses
import json
import re
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest

from modbot.adapters.store import EventRow, Store
from modbot.app.games.outcomes import WORDS, outcome
from modbot.app.posting import catalogue
from modbot.app.posting.catalogue import words
from modbot.cli.rehearsal import demo_rehearsal, play_demo
from modbot.core import EVENT_TYPES, GrimoireEntry, Say, say, storyteller_commands

ROOT = Path(__file__).resolve().parent.parent
CORE = ROOT / "modbot" / "core"
SAYERS = {"say": "", "Say": "", "Refused": "command.", "unreadable": "command."}


def codes_in_the_core() -> set[str]:
    """Every message code written as a literal in the core: say("x"), Say("x"), Refused("x")
    and unreadable("x", line) (the command table's), reject(ctx, "x"), Rejection("x", ...),
    and the rejections the grammars return."""
    found = set()
    for path in CORE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            literals = [a.value for a in node.args if isinstance(a, ast.Constant)
                        and isinstance(a.value, str)]
            if name in SAYERS and literals:
                found.add(SAYERS[name] + literals[0])
            elif name in ("reject", "Rejection") and literals:
                found.add("rejection." + literals[0])
    return found


def test_every_code_in_the_core_has_words():
    known = set(catalogue.catalogue())
    missing = sorted(c for c in codes_in_the_core() if c not in known
                     and not c.startswith(("count.", "help.")))
    assert missing == []


def strings_in_the_code() -> set[str]:
    """Every string constant in modbot/ (the core's codes, and the shell's own notes)."""
    return {node.value for path in (ROOT / "modbot").rglob("*.py")
            for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.Constant) and isinstance(node.value, str)}


VOTE_WORDS = {"event.vote.yes", "event.vote.no",  # event_words.described: a vote's value,
              "event.flag.true", "event.flag.false"}  # a yes/no field's


GRIMOIRE_FIELDS = {f.name for f in dataclasses.fields(GrimoireEntry)}


def test_every_command_has_its_summary_and_every_entry_is_used():
    """An entry is used when the core writes its code, or (for the families the core builds
    from a name: a rejection's code, a command error, a count, an effect's field) its key."""
    known = set(catalogue.catalogue())
    assert {f"help.{c.name}" for c in storyteller_commands()} <= known
    strings = strings_in_the_code() | {f"help.{c.name}" for c in storyteller_commands()}
    dead = sorted(c for c in known if c != "free" and c not in strings
                  and not (c.startswith(("rejection.", "command.", "phase.", "failed."))
                           and c.split(".", 1)[1] in strings)
                  and not (c.startswith("count.") and c.split(".", 1)[1].rstrip("s") in strings)
                  and not (c.startswith("event.")  # an event's words, by its class name
                           and (c.split(".", 1)[1] in EVENT_TYPES or c in VOTE_WORDS))
                  and not (c.startswith("event.GrimoireChanged.")  # by the field changed
                           and c.rsplit(".", 1)[1] in GRIMOIRE_FIELDS))
    assert dead == []


def test_words_fill_parameters_lists_times_and_nested_messages():
    at = datetime(2026, 12, 2, 16, 0)
    assert words(say("whisper.none_active", members=("Alex", "Cameron"))) == \
        "no active whisper between Alex and Cameron"
    assert words(say("rejection.night_locked", night=1, deadline=at)) == \
        "Choices for night 1 locked at Wed 02 Dec 16:00 UTC; ask the Storyteller if something is wrong."
    assert words(say("sheet.st_decides", what=say("info.monk", target=("Alex",)))) == \
        "ST decides: Alex is safe from the Demon tonight"
    assert words("Alex") == "Alex" and words(None) == ""
    with pytest.raises(KeyError, match="no words"):
        words(Say("no.such.code"))


def test_the_outcome_of_an_event_leaves_out_its_words_only():
    data = {"flag": {"day": 1, "author": "Alex", "others": ["Derek"], "reason": "old words",
                     "at": "x"}, "post_number": 4, "at": "x"}
    stripped = outcome("WhisperPmFlagged", data)
    assert stripped["flag"]["reason"] == WORDS and stripped["flag"]["author"] == "Alex"
    assert outcome("WhisperPmFlagged", {**data, "flag": {**data["flag"], "reason": {
        "code": "whisper.neighbour_again", "params": [["other", "Derek"]]}}}) == stripped


def reworded(monkeypatch) -> None:
    """Every entry of the catalogue says something else: its words in reverse order, its
    parameters kept."""
    original = catalogue.catalogue()
    changed = {code: "«" + " ".join(reversed(re.findall(r"\{[^}]*\}|[^\s{]+", text))) + "»"
               for code, text in original.items()}
    monkeypatch.setattr(catalogue, "catalogue", lambda: changed)


def _events(url: str) -> list:
    store = Store(url)
    try:
        return [(row.type, outcome(row.type, json.loads(row.data)))
                for row in EventRow.select().order_by(EventRow.id)]
    finally:
        store.close()


def _play_demo(url: str) -> list:
    rehearsal, script = demo_rehearsal(url)
    try:
        play_demo(rehearsal, script)
        return [p["raw"] for p in rehearsal.thread()]
    finally:
        rehearsal.stop()


@pytest.mark.slow
def test_rewording_every_message_changes_no_outcome(tmp_path, monkeypatch):
    plain = _play_demo(f"sqlite:///{tmp_path}/plain.sqlite")
    reworded(monkeypatch)
    assert words(say("sheet.dead")) != "dead: does not act"  # the rewording is in force
    changed = _play_demo(f"sqlite:///{tmp_path}/reworded.sqlite")
    assert changed != plain  # people read other words...
    assert _events(f"sqlite:///{tmp_path}/reworded.sqlite") == \
        _events(f"sqlite:///{tmp_path}/plain.sqlite")  # ...and the game is the same


def test_rewording_every_message_leaves_the_golden_replay_but_its_messages(monkeypatch):
    args = ["replay", "config/demo-game.toml", "data/demo-thread.json"]
    golden = json.loads((ROOT / "tests" / "golden" / "replay-demo.json").read_text())
    script = ("import json, re, sys\nfrom modbot.app.posting import catalogue\n"
              "words = catalogue.catalogue()\n"
              "catalogue.catalogue = lambda: {k: '«' + v + '»' for k, v in words.items()}\n"
              f"from modbot.cli import main\nsys.exit(main({args!r}))")
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    replayed = json.loads(result.stdout)

    messages = [r["message"] for d in replayed["days"] for r in d["rejections"]]
    assert messages and all(m.startswith("«") for m in messages)
    assert without_words(replayed) == without_words(golden)


def without_words(report: dict) -> dict:
    """The report with its words (a rejection's message, a locked vote's note) left out."""
    for day in report["days"]:
        for rejection in day["rejections"]:
            del rejection["message"]
        for nomination in day["nominations"] + day["exiles"]:
            for vote in nomination["locked"]:
                vote.pop("note", None)
    return report


def test_the_upgrade_check_and_the_audit_leave_out_the_runtimes_notes():
    """A Storyteller's `!confirm` that adopted an upgrade's reading is stored with the
    runtime's note; replayed, it derives nothing. Neither comparison calls that a difference."""
    from types import SimpleNamespace

    from modbot.app.games.outcomes import comparable
    from modbot.app.recovery.upgrade import compare
    from modbot.core import GameState

    from .helpers import setup
    note = ("UpgradeAdopted", {"version": 2})
    assert comparable([note]) == comparable([]) == []
    confirm = SimpleNamespace(id=7, kind="pm", post_number=3, author="nightingale",
                              at="2026-12-03T14:05:00Z")
    assert compare(None, [confirm], {7: []}, {7: [note]}, None) is None
    game = setup()
    held = compare(game, [confirm], {7: []},
                   {7: [("VoteCountRequested", {"by": "nightingale", "at": "2026-12-03 14:05:00+00:00"})]},
                   GameState.from_setup(game))
    assert held is not None and len(held.differences) == 1  # a real difference still is one
