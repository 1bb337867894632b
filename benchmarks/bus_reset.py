"""Benchmark: MessageBus polls a minute before and after the forum's bus is reset.

A reset (Redis flushed, or a channel quiet past `max_backlog_age`) puts the bus's ids below
the ones the daemon holds; Discourse then answers each poll with `/__status` (message_bus'
client.rb#backlog). The daemon (`modbot run`, MessageBus on, an admin's key) runs with one
game thread against the sandbox in real time; once its start-up is done, the polls the forum
answers are counted for a minute, the bus is reset, and they are counted for a minute again.
A daemon that kept its old ids would spin (about 110 polls a minute); one that adopts the
status polls as before.

A nomination is posted just before the reset, its bus message lost with it (issue 58): the
seconds from it to the bot's count of it in the thread are measured across the reset.

Prints one JSON object: polls in the minute before the reset and in the minute after, and the
nomination's seconds to its count.

Run: python benchmarks/bus_reset.py [--user-key]   (the bot on its own User API key)
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
from modbot.adapters.user_key import SCOPES, SavedKey, save_key
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


def _nomination_through_a_reset(server: SandboxServer) -> float | None:
    """A nomination posted and the bus reset at once (its message lost before a poll took it):
    seconds from the post to the bot's count of it in the thread (None: not within 120 s)."""
    forum = server.forum
    topic = next(t for t in forum.topics.values() if not t.is_pm and t.title.startswith("Daemon"))
    posted = time.monotonic()
    with server.bus.cond:  # published and flushed before any poll could take it
        forum.create(forum.user("g00p2"), {"topic_id": topic.id,
                                           "raw": "I nominate g00p3.\n/nominate g00p3"},
                     api=False)
        server.bus.reset()
    while time.monotonic() - posted < 120:
        if any(":vc:" in p.raw and "g00p3" in p.raw for p in topic.posts):
            return round(time.monotonic() - posted, 1)
        time.sleep(0.1)
    return None


def main(user_key: bool = "--user-key" in sys.argv) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        server = SandboxServer(0, api_key=KEY, forum=Forum(), admin_api_limit=60).start()
        try:
            _games(folder, server, 1, True)
            if user_key:  # the bot on its own User API key (modbot login's), bus polls charged
                bot = server.forum.user("modbot")
                granted = server.user_keys.grant(bot, {"client_id": "c1",
                                                       "application_name": "modbot",
                                                       "scopes": ",".join(SCOPES)})
                save_key(folder / "modbot.key", SavedKey(server.url, "modbot", granted.key, "c1"))
                config = (folder / "modbot.toml").read_text()
                (folder / "modbot.toml").write_text(config.replace(
                    'username = "modbot"\n', 'username = "modbot"\nuser_api_key_file = "modbot.key"\n', 1))
            daemon = subprocess.Popen([sys.executable, "-m", "modbot", "run", "--config",
                                       str(folder / "modbot.toml")], cwd=ROOT,
                                      env={**os.environ, "MODBOT_API_KEY": KEY},
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                time.sleep(90)  # the start-up, and the day's posts it owes
                before = _minute(server)
                seconds = _nomination_through_a_reset(server)
                after = _minute(server)
            finally:
                daemon.terminate()
                daemon.wait(60)
        finally:
            server.stop()
    print(json.dumps({"polls_a_minute_before_reset": before,
                      "polls_a_minute_after_reset": after,
                      "nomination_to_its_count_s_across_the_reset": seconds}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
