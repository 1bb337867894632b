"""Benchmark: one game on the bot's own User API key at its busiest, in real time: the deal.

The daemon process (`modbot run`, its own loop, MessageBus on, the defaults of the README's
configuration) runs as a regular forum account (trust level 1, not staff: Discourse's 5 s
between posts, 15 s between new topics, 20 new PMs a day) on a User API key (20 requests a
minute, 2,880 a day; the bot spends 18 and 2,800 of them) against the sandbox at its default
limits. A 12-seat BotF game's night 1 begins `--lead` seconds after the daemon starts (60 by
default: a bot runs before its game's first night, from the sign-ups on; `--lead 0` is a cold
start at the night's start, the start-up's reads in the same minute as the deal): the bot
deals 12 role PMs and posts the seal. Meanwhile, once the first role PM is out, the
Storyteller sends `!status` in their conversation, and two players send a night choice in
their grimoire PMs as soon as they have them; each of those posts is answered by the bot.

Prints one JSON object: seconds from the night's start to the seal, to the last role PM (the deal),
to each role PM, each answer's delay (the post to the bot's reply in the same conversation), and the requests
the key was charged, with any 429 the forum answered.

Run: python benchmarks/key_busiest.py [--lead SECONDS] [--log FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from key_busy_day import bot_on_its_key  # this folder: the bot on its own User API key

from modbot.sandbox.forum import Forum
from modbot.sandbox.server import SandboxServer

ROOT = Path(__file__).resolve().parent.parent
KEY = "key-busiest-admin"  # the sandbox's own key (the benchmark's players post in-process)
SEATS = [("Alex", "Clockmaker"), ("Brianna", "Dreamer"), ("Cameron", "Snake Charmer"),
         ("Derek", "Mathematician"), ("Ellen", "Town Crier"), ("Fatima", "Oracle"),
         ("Gus", "Savant"), ("Hana", "Mutant"), ("Ivan", "Klutz"), ("Jade", "Witch"),
         ("Kofi", "Cerenovus"), ("Lena", "No Dashii")]
CHOOSERS = [("Brianna", "/choose Derek"), ("Jade", "/choose Alex")]  # night 1 choices
LONGEST = 900.0


def _forum(folder: Path, lead: float):
    forum = Forum()  # Discourse's limits for regular accounts, on
    server = SandboxServer(0, api_key=KEY, forum=forum).start()
    bot = forum.add_user("modbot", trust_level=1)
    host = forum.add_user("host", trust_level=1)
    for name, _ in SEATS:
        forum.add_user(name)
    topic = forum.create(host, {"title": "Key busiest: the game thread", "category": 1,
                                "raw": "The game thread of the benchmark game."},
                         api=False).topic_id
    begins = (datetime.now(UTC) + timedelta(seconds=lead)).replace(microsecond=0)
    seats = "".join(f'[[seat]]\nplayer = "{p}"\ncharacter = "{c}"\n'
                    f"user_id = {forum.user(p).id}\n" for p, c in SEATS)
    (folder / "game.toml").write_text(
        f'[game]\nname = "Key busiest"\nstorytellers = ["host"]\ntopic_id = {topic}\n'
        f'bot = "modbot"\nfirst_night_starts = "{begins:%Y-%m-%dT%H:%M:%SZ}"\n'
        f'storyteller_ids = [{host.id}]\nbot_id = {bot.id}\nscript = "botf"\n'
        'bluffs = ["Sage", "Flowergirl", "Artist"]\n' + seats)
    bot_on_its_key(server, bot, folder)
    return server, topic, begins


class Watch:
    """What the forum shows, and the posts the benchmark makes once their conversation is
    there; each answer's delay."""

    def __init__(self, server: SandboxServer, topic: int, began: float) -> None:
        self.server, self.forum, self.topic, self.began = server, server.forum, topic, began
        self.dealt: dict[str, float] = {}
        self.seal: float | None = None
        self.asked: dict[str, tuple[int, int, float]] = {}  # who -> (topic, post number, t)
        self.answers: dict[str, float] = {}

    def now(self) -> float:
        return time.monotonic() - self.began

    def look(self) -> None:
        for topic in list(self.forum.topics.values()):
            if not topic.is_pm or "modbot" not in {u.lower() for u in topic.allowed}:
                continue
            people = {u for u in topic.allowed if u not in ("modbot", "host")}
            if len(people) == 1 and (who := next(iter(people))) not in self.dealt:
                self.dealt[who] = self.now()
            if not people and self.dealt and "storytellers" not in self.asked:
                self._ask("storytellers", "host", topic.id, "!status\nHow does it stand?")
            for name, command in CHOOSERS:
                if people == {name} and name not in self.asked:
                    self._ask(name, name, topic.id, command)
        thread = self.forum.topics[self.topic].posts
        if self.seal is None and any(":seal -->" in p.raw for p in thread):
            self.seal = self.now()
        for who, (topic_id, number, at) in self.asked.items():
            posts = self.forum.topics[topic_id].posts
            if who not in self.answers and any(p.username == "modbot" and p.post_number > number
                                               for p in posts):
                self.answers[who] = round(self.now() - at, 1)

    def _ask(self, who: str, author: str, topic_id: int, raw: str) -> None:
        post = self.forum.create(self.forum.user(author), {"topic_id": topic_id, "raw": raw},
                                 api=False)
        self.asked[who] = (topic_id, post.post_number, self.now())

    def done(self) -> bool:
        return len(self.dealt) == len(SEATS) and self.seal is not None and \
            len(self.answers) == 1 + len(CHOOSERS)


def run(log: str | None, lead: float = 60.0) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        server, topic, begins = _forum(folder, lead)
        try:
            sink = open(log, "w") if log else subprocess.DEVNULL  # noqa: SIM115
            began = time.monotonic() + (begins - datetime.now(UTC)).total_seconds()  # night
            daemon = subprocess.Popen([sys.executable, "-m", "modbot", "run", "--config",
                                       str(folder / "modbot.toml")], cwd=ROOT, stdout=sink,
                                      stderr=sink, env=dict(os.environ))
            watch = Watch(server, topic, began)
            try:
                while not watch.done() and watch.now() < LONGEST:
                    watch.look()
                    time.sleep(0.5)
            finally:
                daemon.terminate()
                daemon.wait(60)
            keys = list(server.user_keys.keys.values())
            charged = sum(len(k.day) for k in keys)
            refused = server.counts.get("429", 0) if hasattr(server, "counts") else None
        finally:
            server.stop()
    return {"seal_s": round(watch.seal, 1) if watch.seal is not None else None,
            "deal_s": round(max(watch.dealt.values()), 1) if len(watch.dealt) == len(SEATS)
            else None, "role_pms_s": sorted(round(t, 1) for t in watch.dealt.values()),
            "answer_delay_s": watch.answers, "requests_charged": charged,
            "refused_429": refused}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--log", help="where the daemon's log goes (default: nowhere)")
    parser.add_argument("--lead", type=float, default=60.0,
                        help="seconds from the daemon's start to the first night's (default 60)")
    args = parser.parse_args()
    print(json.dumps(run(args.log, args.lead)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
