"""A database written by an earlier release still loads, replays and audits, and an upgrade
owes the forum nothing new: every post it sent is derived again, and start-up sends nothing
for the past.

`fixtures/demo-before-registry.sqlite` is `modbot demo`'s database as written by main before
the registry and the sub-packages (commit 19106a8): two nights and a day, 48 posts sent.
"""

import dataclasses
import json
import shutil
import subprocess
import sys
from pathlib import Path

from modbot.adapters.store import GameRow, OutboxRow, Store
from modbot.app.games.runtime import GameRuntime
from modbot.app.posting.reactions import GameOptions
from modbot.files.gamefile import load_game

ROOT = Path(__file__).resolve().parents[2]
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


def test_an_old_database_derives_the_posts_it_sent_and_only_newer_kinds_besides(tmp_path):
    """Every post the old database sent is derived again under its key; what the replay derives
    besides is only of kinds added since (the PM a player gets when they die, the Storytellers'
    conversation's first note, the edit of a countdown the day's early end left behind), which
    start-up never sends for the past (next test)."""
    store = Store(_copy(tmp_path))
    try:
        store.migrate()
        setup = load_game(ROOT / "config" / "demo-game.toml")
        row = GameRow.get(GameRow.key == str(setup.topic_id))
        options = GameOptions(setup.topic_id, f"g{setup.topic_id}", vote_count_minutes=240,
                              storytellers=setup.storytellers)  # as the demo ran
        runtime = GameRuntime(setup, options, row.id)
        derived = {out.key for item in store.inputs(row.id)
                   for out in runtime.apply_input(item).outgoing
                   if out.kind != "withdraw"}  # a withdrawal is no post of its own
        stored = {r.key for r in OutboxRow.select()}
        assert len(stored) == 48
        assert stored <= derived, sorted(stored - derived)
        assert sorted(derived - stored) == ["g1:died:Derek:2026-12-03T19:00:00Z",
                                            "g1:died:Ellen:2026-12-04T19:30:00Z",
                                            "g1:st:welcome",
                                            "g1:voting:1:ended:20261203T190000"]
    finally:
        store.close()


def test_starting_on_an_old_database_owes_the_forum_nothing(tmp_path):
    """Start-up folds the stored inputs without sending what they derive: the deaths of the
    old game are not told again, nor anything else. The one thing owed is new: the game's
    places, never bound by id before this version, are bound once, and the Storytellers are
    shown the result."""
    from modbot.adapters.forum import ForumClient
    from modbot.app.running.service import Service, Settings
    from modbot.cli.rehearsal import demo_rehearsal
    rehearsal, _ = demo_rehearsal(f"sqlite:///{tmp_path}/unused.sqlite")
    store = Store(_copy(tmp_path))
    try:
        client = ForumClient(rehearsal.url, "modbot", rehearsal.server.api_key)
        setup = dataclasses.replace(rehearsal.setup, user_ids=())  # the demo's file: no ids
        service = Service(client, store, [setup],
                          Settings(bot_username="modbot", vote_count_minutes=240))
        service.start()
        owed = store.pending()
        assert [row.key for row in owed] == ["g1:bound:" + "+".join(sorted(
            n.lower() for n in [*(s.name for s in rehearsal.setup.seats),
                                *rehearsal.setup.storytellers, "modbot"]))]
        assert "now known by their forum account" in owed[0].raw
        assert OutboxRow.select().count() == 49
        service.start_game(setup)  # a second start: bound already, nothing owed
        assert len(store.pending()) == 1
    finally:
        store.close()
        rehearsal.stop()


def test_a_game_played_before_issue_40s_rules_is_held_with_what_they_change(monkeypatch):
    """A rules change refolds running games: a game whose history the night's new rule reads
    otherwise (issue 40: a character gained tonight acts at its later step) is held as its
    stored events describe it, with the difference the Storytellers are shown. Played first
    with the old rule (a
    gained character's step dropped), then read with the new one: the Pit-Hag made Alex the
    Oracle on night 2, and the new reading gives Alex the Oracle's answer."""
    from types import SimpleNamespace

    from modbot.app.recovery.upgrade import compare
    from modbot.core.night import sheet

    from ..conversation import Conversation, night_sheet, seven

    setup = seven("empath", "chef", "pithag", "imp", "monk", "soldier", "librarian")

    def recorded(old: bool):
        with monkeypatch.context() as patch:
            if old:
                patch.setattr(sheet._Night, "_gains", lambda self, player, own: None)
            steps: list = []
            patch.setattr(Conversation, "_said", lambda self, step: steps.append(step) or [])
            _, _, talk = night_sheet(setup, night=2,
                                     choices=(("Cameron", "/choose Alex as Oracle"),))
            return {i: [(name, json.loads(json.dumps(data, default=str))) for name, data in step.events]
                    for i, step in enumerate(steps)}, talk.state  # as the store keeps them

    stored, before = recorded(old=True)
    derived, after = recorded(old=False)
    rows = [SimpleNamespace(id=i, kind="pm", post_number=i, author="?", at="?") for i in stored]
    held = compare(setup, rows, derived, stored, after)
    assert held is not None and held.held is not None
    assert held.held.night.sheet == before.night.sheet  # held: the history as it was stored
    assert not [e for e in held.held.night.sheet if e.player == "Alex" and e.step == "oracle"]
    assert [e.step for e in after.night.sheet if e.player == "Alex"] == ["empath", "oracle"]
    [locked] = held.differences  # the night's lock: its sheet reads otherwise
    assert locked["before"] != locked["after"]
