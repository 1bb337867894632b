"""One daemon per database (issue 26): a second `modbot run` on the same database is refused
with one line, on SQLite and on PostgreSQL, and the lock goes with the process that held it."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from modbot.adapters.run_lock import AlreadyRunning, RunLock
from modbot.cli.rehearsal import DEMO_GAME

from ..conftest import postgres_url
from ..helpers import run_modbot


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request, tmp_path):
    return f"sqlite:///{tmp_path}/modbot.sqlite" if request.param == "sqlite" else postgres_url()


def test_a_second_lock_on_the_same_database_is_refused_until_the_first_is_released(url):
    first = RunLock.take(url)
    try:
        with pytest.raises(AlreadyRunning):
            RunLock.take(url)
    finally:
        first.release()
    RunLock.take(url).release()  # free again


def test_the_lock_goes_with_a_killed_process(url):
    holder = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import sys, time
        from modbot.adapters.run_lock import RunLock
        held = RunLock.take({url!r})
        print("held", flush=True)
        time.sleep(60)
        """)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(AlreadyRunning):
            RunLock.take(url)
    finally:
        holder.kill()
        holder.wait(timeout=10)
    RunLock.take(url).release()  # the kernel (or the server) let go of it


def test_an_in_memory_database_needs_no_lock():
    RunLock.take("sqlite:///:memory:")
    RunLock.take("sqlite:///:memory:").release()


def test_modbot_run_on_a_held_database_says_so_in_one_line(tmp_path, monkeypatch):
    monkeypatch.setenv("MODBOT_TEST_KEY", "key")
    database = tmp_path / "modbot.sqlite"
    config = tmp_path / "bot.toml"
    config.write_text(textwrap.dedent(f"""
        [forum]
        url = "http://127.0.0.1:9"
        username = "modbot"
        api_key_env = "MODBOT_TEST_KEY"
        [bot]
        database_url = "sqlite:///{database}"
        [[game]]
        file = "{DEMO_GAME}"
        """))
    held = RunLock.take(f"sqlite:///{database}")
    try:
        result = run_modbot("run", "--config", str(config), "--max-cycles", "1")
    finally:
        held.release()
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"modbot: another modbot is already running on sqlite:///{database}: stop it first, "
        "or give this one a database of its own (database_url in the configuration)"]
