"""Benchmark: MessageBus polls a minute before and after the forum's bus is reset.

A reset (Redis flushed, or a channel quiet past `max_backlog_age`) puts the bus's ids below
the ones the daemon holds; Discourse then answers each poll with `/__status` (message_bus'
client.rb#backlog). The daemon (`modbot run`, MessageBus on, an admin's key) runs with one
game thread against the sandbox in real time; once its start-up is done, the polls the forum
answers are counted for a minute, the bus is reset, and they are counted for a minute again.
A daemon that kept its old ids would spin (about 110 polls a minute); one that adopts the
status polls as before.

Prints one JSON object: polls in the minute before the reset and in the minute after.

Run: python benchmarks/bus_reset.py
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.daemon_budget import KEY, ROOT, _games
from modbot.sandbox.forum import Forum
from modbot.sandbox.server import SandboxServer

POLL = "POST /message-bus/poll"


def _polls(server: SandboxServer) -> int:
    with server.counts_lock:
        return sum(n for label, n in server.counts.items() if label.startswith(POLL))


def _minute(server: SandboxServer) -> int:
    before = _polls(server)
    time.sleep(60)
    return _polls(server) - before


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        server = SandboxServer(0, api_key=KEY, forum=Forum(), admin_api_limit=60).start()
        try:
            _games(folder, server, 1, True)
            daemon = subprocess.Popen([sys.executable, "-m", "modbot", "run", "--config",
                                       str(folder / "modbot.toml")], cwd=ROOT,
                                      env={**os.environ, "MODBOT_API_KEY": KEY},
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                time.sleep(90)  # the start-up, and the day's posts it owes
                before = _minute(server)
                server.bus.reset()
                after = _minute(server)
            finally:
                daemon.terminate()
                daemon.wait(60)
        finally:
            server.stop()
    print(json.dumps({"polls_a_minute_before_reset": before,
                      "polls_a_minute_after_reset": after}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
