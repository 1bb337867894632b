"""`modbot recover`: a game rebuilt from the forum on purpose (a lost disk, a move to a new
machine), over HTTP on the sandbox, as a separate process."""

import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest

from modbot.cli.rehearsal import DEMO_GAME, MASTER_KEY, demo_rehearsal

from ..sandbox_fixtures import played_demo
from .test_e2e import markers

pytestmark = pytest.mark.slow  # the bot against the sandbox over HTTP, and a process

ROOT = Path(__file__).resolve().parents[2]


def _configure(folder: Path, rehearsal, bot: str = "") -> None:
    """The game file and a configuration for `modbot recover` against the rehearsal's forum,
    with a new (empty) database."""
    (folder / "game.toml").write_text(DEMO_GAME.read_text().replace(
        "topic_id = 1", f"topic_id = {rehearsal.setup.topic_id}"))
    (folder / "modbot.toml").write_text(f"""
[forum]
url = "{rehearsal.url}"
username = "modbot"
api_key_env = "MODBOT_API_KEY"

[bot]
database_url = "sqlite:///{folder}/new.sqlite"
{bot}
[rehearsal]
clock = "forum"

[[game]]
file = "game.toml"
""")


@pytest.fixture
def played(tmp_path):
    """The demo played into its second day on the sandbox; the bot's database then lost."""
    rehearsal = played_demo(tmp_path, 30, database="lost.sqlite")
    rehearsal.store.close()
    _configure(tmp_path, rehearsal, "vote_count_minutes = 240\nsettle_seconds = 0\n")
    yield rehearsal, tmp_path
    rehearsal.stop()


def _recover(folder: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "modbot", "recover", "--config",
                           str(folder / "modbot.toml"), *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=120, env={**os.environ, "MODBOT_API_KEY": MASTER_KEY})


def test_recover_rebuilds_the_game_and_posts_nothing_twice(played):
    rehearsal, folder = played
    before = markers(rehearsal)
    result = _recover(folder)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("game BotF demo: rebuilt from ") and "recognised" in lines[0]
    assert lines[-1].startswith("Outbox: ") and lines[-1].endswith(" sent, 0 pending, 0 failed.")
    print(result.stdout)
    after = markers(rehearsal)
    assert after[:len(before)] == before
    assert [m for m in after[len(before):] if ":rebuilt:" not in m] == []  # only the note

    again = _recover(folder)  # the database holds the game now
    assert again.returncode == 1
    assert again.stdout.strip().endswith("add --replace to drop what it holds and rebuild from "
                                         "the forum") and "Traceback" not in again.stderr
    replaced = _recover(folder, "--replace", "--game", "BotF demo")
    assert replaced.returncode == 0, replaced.stdout + replaced.stderr
    assert [m for m in markers(rehearsal)[len(after):] if ":rebuilt:" not in m] == []


def test_recover_names_an_unknown_game_in_one_line(played):
    _, folder = played
    result = _recover(folder, "--game", "Nope")
    assert result.returncode == 2
    assert result.stdout.strip() == ("modbot: no game 'Nope' in the configuration (its games: "
                                     "'BotF demo')")


def test_recover_leaves_a_thread_the_bot_never_posted_in_alone(tmp_path):
    rehearsal, _ = demo_rehearsal(f"sqlite:///{tmp_path}/x.sqlite")
    try:
        _configure(tmp_path, rehearsal)
        rehearsal.clock.set(rehearsal.setup.first_night_starts + timedelta(hours=1))
        result = _recover(tmp_path)
        assert result.returncode == 0, result.stdout + result.stderr
        assert "nothing to recover (modbot run starts it as a new game)" in result.stdout
        assert markers(rehearsal) == []
    finally:
        rehearsal.stop()
