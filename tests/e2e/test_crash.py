"""Crash safety: the daemon, killed with SIGKILL at random moments and restarted, leaves exactly
the posts of an uninterrupted run (same markers, in the same order, none twice, none missing).
Also: it stops cleanly on SIGTERM and logs one line per cycle."""

import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from modbot.adapters.store import GameRow, OutboxRow, Store
from modbot.cli.rehearsal import DEMO_GAME, MASTER_KEY, day_end, load_script
from modbot.files.gamefile import load_game
from modbot.sandbox.forum import Clock, Forum
from modbot.sandbox.server import SandboxServer

from ..helpers import loading_time, public_game_text
from .test_e2e import MARKER

pytestmark = pytest.mark.slow  # the bot against the sandbox over HTTP (or a daemon process)

ROOT = Path(__file__).resolve().parents[2]
KILLS = 24


class Scenario:
    """A sandbox holding a whole scripted day, and a config for `modbot run` against it."""

    def __init__(self, tmp_path: Path, name: str) -> None:
        self.server = SandboxServer(0, api_key=MASTER_KEY, forum=Forum(Clock(), limits=False),
                                    admin_api_limit=0).start()
        forum = self.server.forum
        setup = load_game(DEMO_GAME)
        forum.add_user("modbot", moderator=True)
        forum.add_user("nightingale", moderator=True)
        for seat in setup.seats:
            forum.add_user(seat.name)
        script = load_script()
        opening = forum.create(forum.user("nightingale"), {
            "title": "BotF demo: the game thread", "raw": script[0]["raw"], "category": 1,
            "created_at": script[0]["created_at"]})
        self.topic_id = opening.topic_id
        for item in script[1:]:
            forum.create(forum.user(item["username"]), {
                "topic_id": self.topic_id, "raw": item["raw"], "created_at": item["created_at"]})
        self.last_number = forum.topics[self.topic_id].posts[-1].post_number
        game = DEMO_GAME.read_text().replace("topic_id = 1", f"topic_id = {self.topic_id}")
        game = public_game_text(game)  # the scripted thread holds no night approvals
        (tmp_path / f"{name}-game.toml").write_text(game)
        self.database = tmp_path / f"{name}.sqlite"
        self.config = tmp_path / f"{name}.toml"
        self.config.write_text(f"""
[forum]
url = "{self.server.url}"
username = "modbot"
api_key_env = "MODBOT_API_KEY"
timeout = 3

[bot]
poll_seconds = 0.1
database_url = "sqlite:///{self.database}"
vote_count_minutes = 240
settle_seconds = 0
post_spacing = 0.25

[rehearsal]
start = "{(day_end(setup)).isoformat()}"
speed = 1

[[game]]
file = "{name}-game.toml"
""")

    def start(self) -> subprocess.Popen:
        env = {**os.environ, "MODBOT_API_KEY": MASTER_KEY, "PYTHONPATH": str(ROOT)}
        env.pop("DATABASE_URL", None)
        return subprocess.Popen([sys.executable, "-m", "modbot", "run", "--config",
                                 str(self.config)], env=env, cwd=ROOT,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def is_done(self) -> bool:
        if not self.database.exists():
            return False
        store = Store(f"sqlite:///{self.database}")
        try:
            pending = OutboxRow.select().where(OutboxRow.status == "pending").count()
            sent = OutboxRow.select().where(OutboxRow.status == "sent").count()
            return pending == 0 and sent > 0 and self._handled_all(store)
        finally:
            store.close()

    def _handled_all(self, store) -> bool:
        from modbot.adapters.store import GameRow
        game = GameRow.get_or_none(GameRow.key == str(self.topic_id))
        return game is not None and game.last_post_number >= self.last_number

    def run_to_completion(self, timeout: float = 60) -> str:
        process = self.start()
        lines: list[str] = []
        reader = threading.Thread(target=lambda: lines.extend(process.stderr), daemon=True)
        reader.start()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and not (
                self.is_done() and any("cycle 1:" in line for line in lines)):
            time.sleep(0.2)
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=20)
        reader.join(timeout=5)
        err = "".join(lines)
        assert process.returncode == 0, err
        assert self.is_done(), f"not finished in {timeout}s:\n{err}"
        return err

    def markers(self) -> tuple[list[str], list[str]]:
        posts = sorted(self.server.forum.posts.values(), key=lambda p: p.id)
        public = [m for p in posts if p.topic_id == self.topic_id for m in MARKER.findall(p.raw)]
        private = [m for p in posts if p.topic_id != self.topic_id for m in MARKER.findall(p.raw)]
        return public, private

    def stop(self) -> None:
        self.server.stop()


@pytest.fixture()
def reference(tmp_path):
    scenario = Scenario(tmp_path, "reference")
    log = scenario.run_to_completion()
    yield scenario, log
    scenario.stop()


def test_uninterrupted_run_logs_each_cycle_and_stops_on_sigterm(reference):
    scenario, log = reference
    assert re.search(r"cycle 1: \d+ requests, \d+ posts handled, \d+ sent", log)
    assert "stopping after this cycle" in log and log.rstrip().endswith("stopped")
    public, private = scenario.markers()
    assert public[-3:] == ["g1:voting:1", "g1:end:1", "g1:index"] and len(private) == 8  # + digest,
    # the death PM, the Storytellers' conversation's first note
    store = Store(f"sqlite:///{scenario.database}")
    try:  # stopping took a snapshot of the game: the next start folds nothing again
        game = GameRow.get()
        assert store.snapshot(game.id).inputs == store.input_count(game.id) > 0
    finally:
        store.close()
    again = scenario.run_to_completion()  # a new process trusts the snapshot its peer took
    assert re.search(r"game BotF demo: \d+ inputs restored from its snapshot, 0 new posts", again)


def test_sigkill_at_random_moments_loses_and_repeats_nothing(reference, tmp_path):
    expected_public, expected_private = reference[0].markers()
    scenario = Scenario(tmp_path, "crashy")
    rng = random.Random(20261129)
    loading = loading_time()  # kills before modbot has even loaded would prove nothing
    try:
        progress = []
        for _ in range(KILLS):
            process = scenario.start()
            time.sleep(loading + rng.uniform(0.0, 1.0))
            process.kill()  # SIGKILL: no clean-up of any kind
            process.wait(timeout=10)
            progress.append(sum(len(found) for found in scenario.markers()))
        assert progress[0] < len(expected_public) + len(expected_private), \
            "the first kill came after all the work: the test would prove nothing"
        assert len(set(progress)) > 3, f"too few kills landed mid-work: {progress}"
        scenario.run_to_completion()
        public, private = scenario.markers()
        assert public == expected_public
        assert sorted(private) == sorted(expected_private)
        assert len(public + private) == len(set(public + private))
    finally:
        scenario.stop()
