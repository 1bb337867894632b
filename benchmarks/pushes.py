"""Benchmark: seconds from a player's vote (or night choice) to the bot's answer, bus or polling.

The daemon (`modbot run`, in this process's main thread, on a User API key) runs against the
sandbox over HTTP on loopback at real speed, `vote_count_minutes = 0` so a count follows each
vote. A player thread posts votes at uneven gaps (so polling's phase is sampled) and times each
from just before its post to the moment the forum created the bot's next count post (a
listener on the sandbox's forum: the vote stored, and the count it causes sent). Then the same
with the bus off and `poll_seconds = 15`. Then the same two ways for a night choice: the demo
game (config/demo-game.toml) in night 1, its Dreamer sending `/choose NAME` in her character
PM, timed to the bot's answer in that PM (the choice stored, its acceptance sent). Prints one
JSON object: median and worst seconds for each, the samples, and the requests each run made
per minute (bus polls included).

The players' rate limits are off (they post seconds apart here); the bot is staff, whom
Discourse's RateLimiter does not limit (lib/rate_limiter.rb, `rate_unlimited?`).

Run: python benchmarks/pushes.py [--samples N] [--only votes|choices]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import sys
import tempfile
import threading
import time
import tomllib
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from modbot import cli
from modbot.adapters.user_key import SavedKey, save_key
from modbot.sandbox.forum import Forum
from modbot.sandbox.server import SandboxServer
from tests.sandbox_fixtures import KEY, Client

PLAYERS = ("Alex", "Brianna", "Cameron", "Derek", "Ellen", "Fiona", "Gwen", "Harry")
# seconds between votes: uneven, and slow enough for a User API key's 20 requests a minute
# (each vote costs a wake-up's poll, its reads and the count's post: some 5 requests)
GAPS = (17.1, 23.7, 19.3, 28.9, 21.5, 26.1, 18.9, 31.3)
# the start-up's minute passes before the first sample (the deal, the first count: on a User
# API key they fill the bot's 18 requests of that minute; a live game starts once)
WARM_UP = 60


def _setup(folder: Path, bus: bool):
    forum = Forum(limits=False)
    bot = forum.add_user("modbot", moderator=True)
    for name in ("nightingale", *PLAYERS):
        forum.add_user(name)
    server = SandboxServer(0, api_key=KEY, forum=forum, admin_api_limit=0).start()
    topic = forum.create(bot, {"title": "Latency: the game thread", "category": 1,
                               "raw": "The opening post of the latency game."}, api=False).topic_id
    granted = server.user_keys.grant(bot, {"client_id": "c1", "application_name": "modbot",
                                           "scopes": "write,message_bus,session_info"})
    save_key(folder / "modbot.key", SavedKey(server.url, "modbot", granted.key, "c1"))
    started = datetime.now(UTC) - timedelta(hours=37)  # day 1's nominations
    (folder / "game.toml").write_text(
        f'[game]\nname = "Latency"\nstorytellers = ["nightingale"]\ntopic_id = {topic}\n'
        f'first_night_starts = "{started:%Y-%m-%dT%H:%M:%SZ}"\n'
        + "".join(f'[[seat]]\nplayer = "{n}"\n' for n in PLAYERS))
    (folder / "modbot.toml").write_text(
        f'[forum]\nurl = "{server.url}"\nusername = "modbot"\nuser_api_key_file = "modbot.key"\n'
        f'[bot]\ndatabase_url = "sqlite:///{folder}/bot.sqlite"\npoll_seconds = 15\n'
        f'vote_count_minutes = 0\nsettle_seconds = 0\nmessage_bus = {str(bus).lower()}\n'
        '[[game]]\nfile = "game.toml"\n')
    return server, topic


def _night(folder: Path, server, topic: int) -> None:
    """The demo game's file, in night 1 (an hour in), on this thread; its players made."""
    demo = (Path(__file__).resolve().parent.parent / "config" / "demo-game.toml").read_text()
    started = datetime.now(UTC) - timedelta(hours=1)
    for name in tomllib.loads(demo)["seat"]:
        if server.forum.user(name["player"]) is None:
            server.forum.add_user(name["player"])
    (folder / "game.toml").write_text(
        demo.replace("topic_id = 1", f"topic_id = {topic}").replace(
            'first_night_starts = "2026-12-01T18:00:00Z"',
            f'first_night_starts = "{started:%Y-%m-%dT%H:%M:%SZ}"'))


def _player(server, topic, samples: int, counted: list[float], out: list[float],
            choices: bool = False) -> None:
    try:
        (_choices if choices else _votes)(Client(server), topic, samples, counted, out)
    finally:
        os.kill(os.getpid(), signal.SIGINT)  # the daemon stops after its cycle


def _character_pm(client, player: str) -> int:
    """The PM the bot dealt the player's character in (waits for the deal)."""
    forum = client.server.forum
    for _ in range(600):
        found = [t.id for t in list(forum.topics.values()) if t.is_pm and player.lower() in
                 [n.lower() for n in t.allowed]]
        if found:
            return min(found)
        time.sleep(0.1)
    raise RuntimeError(f"no character PM for {player}")


def _choices(client, _topic, samples: int, counted: list[float], out: list[float]) -> None:
    pm = _character_pm(client, "Brianna")
    time.sleep(WARM_UP)
    for n in range(samples):
        target = ("Alex", "Cameron", "Derek")[n % 3]
        _timed(n, counted, out, client, "Brianna",
               f"/choose {target}\nMy choice tonight, number {n}.", pm)


def _votes(client, topic, samples: int, counted: list[float], out: list[float]) -> None:
    time.sleep(3)  # the daemon's start-up cycle
    client.post("Alex", "/nominate Harry\nHarry has said nothing all day.", topic_id=topic)
    time.sleep(WARM_UP)
    voters = PLAYERS[1:7]
    for n in range(samples):
        vote = "yes" if (n // len(voters)) % 2 == 0 else "no"
        _timed(n, counted, out, client, voters[n % len(voters)],
               f"/vote Harry {vote}\nMy vote, number {n}.", topic)


def _timed(n: int, counted: list[float], out: list[float], client, author: str, raw: str,
           topic: int) -> None:
    """After the nth gap, post and time it to the bot's next answer (60 s at most)."""
    time.sleep(GAPS[n % len(GAPS)])
    before, seen = time.monotonic(), len(counted)
    client.post(author, raw, topic_id=topic)
    while len(counted) == seen and time.monotonic() - before < 60:
        time.sleep(0.02)
    out.append(round(counted[-1] - before, 2) if len(counted) > seen else 60.0)


def _answered(counted: list[float], topic: int, choices: bool):
    """The listener that times the bot's answers: a count in the thread, or a PM reply."""
    def heard(kind, t, post) -> None:
        if kind != "created" or post.username != "modbot":
            return
        if (choices and t.is_pm and "brianna" in [n.lower() for n in t.allowed]
                and post.post_number > 1) or (not choices and t.id == topic and ":vc:" in post.raw):
            counted.append(time.monotonic())
    return heard


def run(bus: bool, samples: int, choices: bool = False) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        server, topic = _setup(folder, bus)
        if choices:
            _night(folder, server, topic)
        counted: list[float] = []
        server.forum.listeners.append(_answered(counted, topic, choices))
        latencies: list[float] = []
        player = threading.Thread(target=_player, args=(server, topic, samples, counted,
                                                        latencies, choices), daemon=True)
        started = time.monotonic()
        player.start()
        cli.main(["run", "--config", str(folder / "modbot.toml")])
        minutes = (time.monotonic() - started) / 60
        requests = sum(len(k.day) for k in server.user_keys.keys.values())
        server.stop()
    return {"median_s": statistics.median(latencies), "worst_s": max(latencies),
            "samples_s": latencies, "requests_per_minute": round(requests / minutes, 1)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=6)
    parser.add_argument("--only", choices=("votes", "choices"))
    args = parser.parse_args()
    out = {}
    if args.only != "choices":
        out["vote_to_count_on_message_bus"] = run(True, args.samples)
        out["vote_to_count_by_polling_15s"] = run(False, args.samples)
    if args.only != "votes":
        out["night_choice_to_answer_on_message_bus"] = run(True, args.samples, True)
        out["night_choice_to_answer_by_polling_15s"] = run(False, args.samples, True)
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
