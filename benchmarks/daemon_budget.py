"""Benchmark: the first vote counts of 40 games, by the daemon process itself, in real time.

`modbot run` (its own loop: the schedule, the MessageBus thread, `poll_seconds = 15`, the
default `settle_seconds` and names check) starts against the sandbox at Discourse's default
shared admin budget (60 requests a minute, the sandbox's limiter on real seconds), with 40
games it has never seen, every one in day 1's nominations (each owes its night, dawn and
nominations posts), every seat a forum user. In 5 of them (the last 5 the configuration
names) a player has just nominated. The
figure is the seconds from the process's start to each of those 5 games' first vote count in
its thread (goal: 120 s at most), median and worst; and the requests the forum saw by then.

The game files carry every place's user id, as `modbot check` writes them; `--names-only`
leaves them out, so each game's start first looks its names up (app/games/identities.py);
`--checked` leaves them out and runs the real `modbot check` first (issue 57: it waits out the
forum's limit and writes every game's ids), timing it and counting its requests, then starts
the daemon on the files it wrote.

benchmarks/budget.py measures the same on simulated time (fast, for the rebuild too); this one
is the product's own figure.

`--rebuild POSTS` measures a lost database instead (issue 51): the daemon runs `--games`
games until its start-up's posts are out and stops; the first game's thread gets table talk up
to POSTS posts and a nomination; the daemon starts again on an empty database, so it rebuilds
that game from the forum (app/recovery/recovery.py) beside the others: the seconds from its start to
that nomination's first count (goal: 180 s at most), and the requests by then.

Run: python benchmarks/daemon_budget.py [--names-only | --checked] [--games 40] [--active 5]
     [--log F]
     python benchmarks/daemon_budget.py --rebuild 1300 [--games 11]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from modbot.sandbox.forum import Forum
from modbot.sandbox.server import SandboxServer

ROOT = Path(__file__).resolve().parent.parent
KEY = "daemon-budget-key"
LONGEST = 600.0  # seconds: a run that has not counted by then is reported as such


def _games(folder: Path, server: SandboxServer, games: int, bound: bool) -> list[int]:
    forum = server.forum
    host = forum.add_user("host", moderator=True, trust_level=4)
    bot = forum.add_user("modbot", moderator=True, trust_level=4)
    started = datetime.now(UTC) - timedelta(hours=37, minutes=30)  # day 1's nominations
    topics = []
    for n in range(games):
        names = [f"g{n:02d}p{i}" for i in range(8)]
        for name in names:
            forum.add_user(name)
        topic = forum.create(host, {"title": f"Daemon budget game number {n + 1}",
                                    "category": 1, "raw": "The game thread of a benchmark."},
                             api=False).topic_id
        topics.append(topic)
        ids = (f'storyteller_ids = [{host.id}]\nbot_id = {bot.id}\n' if bound else "")
        seats = "".join(f'[[seat]]\nplayer = "{p}"\n'
                        + (f"user_id = {forum.user(p).id}\n" if bound else "") for p in names)
        (folder / f"game{n}.toml").write_text(
            f'[game]\nname = "Game {n + 1}"\nstorytellers = ["host"]\ntopic_id = {topic}\n'
            f'bot = "modbot"\nfirst_night_starts = "{started:%Y-%m-%dT%H:%M:%SZ}"\n{ids}'
            + seats)
    (folder / "modbot.toml").write_text(
        f'[forum]\nurl = "{server.url}"\nusername = "modbot"\n'
        f'[bot]\ndatabase_url = "sqlite:///{folder}/bot.sqlite"\n'
        + "".join(f'[[game]]\nfile = "game{n}.toml"\n' for n in range(games)))
    return topics


def _nominate(server: SandboxServer, topics: list[int], active: int) -> list[int]:
    """A nomination just made in the last `active` games of the configuration (the bot cannot
    know them by their place in it)."""
    forum = server.forum
    chosen = list(enumerate(topics))[-active:]
    for n, topic in chosen:
        first, second = f"g{n:02d}p0", f"g{n:02d}p1"
        forum.create(forum.user(first), {"topic_id": topic,
                                         "raw": f"I nominate {second}.\n/nominate {second}"},
                     api=False)
    return [topic for _, topic in chosen]


def _requests(server: SandboxServer) -> int:
    with server.counts_lock:
        return sum(server.counts.values())


def _check(folder: Path, server: SandboxServer, env: dict) -> dict:
    """The real `modbot check` on the configuration: its wall time, requests and status."""
    before, began = _requests(server), time.monotonic()
    done = subprocess.run([sys.executable, "-m", "modbot", "check", "--config",
                           str(folder / "modbot.toml")], env=env, cwd=ROOT,
                          capture_output=True, text=True)
    bound = sum("user_id" in p.read_text() for p in folder.glob("game*.toml"))
    return {"check_s": round(time.monotonic() - began, 1), "check_requests":
            _requests(server) - before, "check_status": done.returncode,
            "game_files_bound": bound}


def run(games: int, active: int, bound: bool, log: str | None = None,
        checked: bool = False) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        server = SandboxServer(0, api_key=KEY, forum=Forum(), admin_api_limit=60).start()
        try:
            watched = _nominate(server, _games(folder, server, games, bound and not checked),
                                active)
            env = {**os.environ, "MODBOT_API_KEY": KEY}
            check = _check(folder, server, env) if checked else {}
            if checked:
                time.sleep(61)  # the check spent the key's minute: the daemon starts fresh
            start_requests = _requests(server)
            began = time.monotonic()
            daemon = _daemon(folder, env, "bot.sqlite", log)
            try:
                seen = _first_counts(server, watched, began)
                requests = _requests(server) - start_requests
            finally:
                daemon.terminate()
                daemon.wait(60)
        finally:
            server.stop()
    times = sorted(seen.values())
    return {**check, "games": games, "active": active, "bound_by_id": bound or checked,
            "first_count_s_median": round(statistics.median(times), 1) if times else None,
            "first_count_s_worst": round(times[-1], 1) if len(times) == len(watched) else None,
            "requests_by_then": requests}


def _first_counts(server: SandboxServer, watched: list[int], began: float) -> dict[int, float]:
    """Seconds from `began` to the bot's first vote count in each watched thread (those
    that had one within LONGEST)."""
    seen: dict[int, float] = {}
    while len(seen) < len(watched) and time.monotonic() - began < LONGEST:
        for topic in watched:
            posts = list(server.forum.topics[topic].posts)
            if topic not in seen and any(p.username == "modbot" and ":vc:" in p.raw
                                         for p in posts):
                seen[topic] = time.monotonic() - began
        time.sleep(0.5)
    return seen


def _daemon(folder: Path, env: dict, database: str, log: str | None) -> subprocess.Popen:
    config = folder / "modbot.toml"
    text = config.read_text()
    config.write_text(text.replace(text.split("database_url = ")[1].split("\n")[0],
                                   f'"sqlite:///{folder}/{database}"'))
    sink = open(log, "a") if log else subprocess.DEVNULL  # noqa: SIM115
    return subprocess.Popen([sys.executable, "-m", "modbot", "run", "--config", str(config)],
                            env=env, cwd=ROOT, stdout=sink, stderr=sink)


def _quiet(server: SandboxServer, seconds: float, longest: float) -> None:
    """Until the bot has posted nothing for `seconds` (its start-up's posts are out)."""
    def bot_posts() -> int:
        return sum(p.username == "modbot" for t in list(server.forum.topics.values())
                   for p in list(t.posts))
    began, last, count = time.monotonic(), time.monotonic(), bot_posts()
    while time.monotonic() - last < seconds and time.monotonic() - began < longest:
        time.sleep(1)
        if (now := bot_posts()) != count:
            count, last = now, time.monotonic()


def rebuild_run(posts: int, games: int, log: str | None = None) -> dict:
    """A game whose database is lost, its thread `posts` long, beside `games - 1` others on
    the same admin key: the real daemon runs them all, stops; the long thread gets its table
    talk and a nomination; the daemon starts again on an empty database (the rebuild from the
    forum, app/recovery/recovery.py): the seconds to that nomination's first count, and the requests."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        server = SandboxServer(0, api_key=KEY, forum=Forum(), admin_api_limit=60).start()
        env = {**os.environ, "MODBOT_API_KEY": KEY}
        try:
            topics = _games(folder, server, games, True)
            daemon = _daemon(folder, env, "first.sqlite", log)
            try:
                _quiet(server, 45, LONGEST)  # every game started, its day's posts out
            finally:
                daemon.terminate()
                daemon.wait(60)
            forum, big = server.forum, server.forum.topics[topics[0]]
            names = [f"g00p{i}" for i in range(8)]
            for n in range(posts - len(big.posts) - 1):  # a long day's table talk
                forum.append(big, names[n % 8], f"Table talk, line {n}.", forum.clock.now())
            watched = _nominate(server, topics[:1], 1)[0]
            start_requests, began = _requests(server), time.monotonic()
            daemon = _daemon(folder, env, "lost.sqlite", log)  # the database is lost
            try:
                seen = _first_counts(server, [watched], began)
                requests = _requests(server) - start_requests
            finally:
                daemon.terminate()
                daemon.wait(60)
        finally:
            server.stop()
    return {"rebuilt_thread_posts": len(big.posts), "games": games,
            "first_count_after_rebuild_s": round(seen[watched], 1) if seen else None,
            "requests_by_then": requests}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--names-only", action="store_true")
    parser.add_argument("--checked", action="store_true",
                        help="run `modbot check` on files without ids first, then the daemon")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--active", type=int, default=5)
    parser.add_argument("--log", help="where the daemon's log goes (default: nowhere)")
    parser.add_argument("--rebuild", type=int, metavar="POSTS",
                        help="a lost database: the first count after the rebuild of a thread "
                             "this long, beside --games - 1 others")
    args = parser.parse_args()
    if args.rebuild:
        print(json.dumps(rebuild_run(args.rebuild, args.games, args.log)))
        return 0
    print(json.dumps(run(args.games, args.active, not args.names_only, args.log, args.checked)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
