"""End to end, private side: the whole demo (thread and PMs) over HTTP on the sandbox.
A restart anywhere resumes without losing or repeating a PM, and the store's inputs replay
(with each PM's participants) to the same events."""

import json
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from modbot.cli.rehearsal import day_end, demo_rehearsal

from .test_e2e import markers

pytestmark = pytest.mark.slow  # the bot against the sandbox over HTTP (or a daemon process)

ROOT = Path(__file__).resolve().parents[2]


def _finish(rehearsal, script):
    last = datetime.fromisoformat(script[-1]["created_at"])
    return max(last, day_end(rehearsal.setup)) + timedelta(hours=1)


def _play(database_url, restart_after=()):
    rehearsal, script = demo_rehearsal(database_url)
    rehearsal.start_bot()
    rehearsal.clock.set(rehearsal.setup.first_night_starts)
    rehearsal.service.cycle(rehearsal.setup.first_night_starts)
    done = 0
    for cut in restart_after:
        rehearsal.play(script[done:cut])
        rehearsal.store.close()
        rehearsal.start_bot()  # as a new process would: rebuild from the store
        done = cut
    rehearsal.play(script[done:], finish_at=_finish(rehearsal, script))
    return rehearsal


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    rehearsal = _play(f"sqlite:///{tmp_path_factory.mktemp('ref')}/bot.sqlite")
    yield rehearsal
    rehearsal.stop()


def test_the_private_demo_sends_each_message_once(reference):
    found = markers(reference)
    assert len(found) == len(set(found)) == 52  # with the two death PMs (Derek executed, Ellen
    # killed), the Storytellers' conversation's first note, the seal at the deal and the
    # thread index; not
    # Cameron's reminder, withdrawn: his choice came before the bot sent it
    assert not any(":remind:1:Cameron" in m for m in found)
    roles = [m for m in found if ":role:" in m]
    assert len(roles) == 7
    pms = [t for t in reference.server.forum.topics.values() if t.is_pm and "grimoire" in t.title]
    assert len(pms) == 7 and all(t.allowed[0] == "modbot" and t.allowed[2] == "nightingale"
                                 for t in pms)


@pytest.mark.parametrize("cuts", [(3,), (9, 25), (30, 44)])
def test_a_restart_midway_resumes_without_losing_or_repeating(reference, tmp_path, cuts):
    rehearsal = _play(f"sqlite:///{tmp_path}/bot.sqlite", restart_after=cuts)
    try:
        assert markers(rehearsal) == markers(reference)
    finally:
        rehearsal.stop()


def test_audit_replays_the_private_inputs_to_the_same_events(tmp_path):
    rehearsal = _play(f"sqlite:///{tmp_path}/bot.sqlite")
    rehearsal.stop()
    result = subprocess.run([sys.executable, "-m", "modbot", "audit", "config/demo-game.toml",
                             "--database", f"sqlite:///{tmp_path}/bot.sqlite", "--json"],
                            capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert result.returncode == 0, result.stderr
    audit = json.loads(result.stdout)
    assert audit["replay_matches"]
    pms = [e for e in audit["entries"] if e["input"]["kind"] == "pm"]
    assert len(pms) == 18
    assert any(e["input"]["participants"] == "alex,cameron,modbot" for e in pms)
    assert any(e["events"] and e["events"][0]["type"] == "NightChoiceMade" for e in pms)
