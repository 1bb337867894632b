"""A database written by an earlier release still loads, replays and audits, and an upgrade
owes the forum nothing new: every post the replay derives was already in the outbox.

`fixtures/demo-before-registry.sqlite` is `modbot demo`'s database as written by main before
the registry and the sub-packages (commit 19106a8): two nights and a day, 48 posts sent.
"""

import json
import shutil
import subprocess
import sys
from pathlib import Path

from modbot.adapters.store import GameRow, OutboxRow, Store
from modbot.app.reactions import GameOptions
from modbot.app.runtime import GameRuntime
from modbot.gamefile import load_game

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "demo-before-registry.sqlite"


def _copy(tmp_path: Path) -> str:
    target = tmp_path / "old.sqlite"
    shutil.copy(FIXTURE, target)
    return f"sqlite:///{target}"


def test_an_old_database_audits_with_the_same_events(tmp_path):
    result = subprocess.run([sys.executable, "-m", "modbot", "audit", "config/demo-game.toml",
                             "--database", _copy(tmp_path), "--json"],
                            capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stderr
    audit = json.loads(result.stdout)
    assert audit["inputs"] == 43 and audit["events"] == 70
    assert audit["replay_matches"], audit["mismatched_inputs"]


def test_an_old_database_owes_no_post_after_the_upgrade(tmp_path):
    store = Store(_copy(tmp_path))
    try:
        store.migrate()
        setup = load_game(ROOT / "config" / "demo-game.toml")
        row = GameRow.get(GameRow.key == str(setup.topic_id))
        options = GameOptions(setup.topic_id, f"g{setup.topic_id}", vote_count_minutes=240,
                              storytellers=setup.storytellers)  # as the demo ran
        runtime = GameRuntime(setup, options, row.id)
        derived = {out.key for item in store.inputs(row.id)
                   for out in runtime.apply_input(item).outgoing}
        stored = {r.key for r in OutboxRow.select()}
        assert len(stored) == 48
        assert derived == stored, (sorted(derived - stored), sorted(stored - derived))
    finally:
        store.close()
