"""Benchmark: a key's day. Requests a minute, idle and busy, on a User API key and an admin's key.

The daemon (`modbot run`, MessageBus on, `poll_seconds = 15`, the sweep every 300 s) runs
against the sandbox at real speed with 1 or 10 game threads before night 1 and nothing posted.
Once its start-up is done (no post of its own for 45 s), its requests are counted for
`--minutes` (the sandbox counts each request: on a User API key, those the key was charged).
Three kinds of run, each with 1 and 10 games:

- `user_quiet`: a User API key, night 1 ten hours away and nobody posting: the planned day
  (a held poll, then `request_plan.IDLE_GAP`, 50 s);
- `user_busy`: a User API key, night 1 within the hour: polls held back to back;
- `admin`: an admin's key (its polls are always held back to back).

Then, on a User API key with 1 game in day 1's nominations (its start-up owes the deal and the
day's posts first), `--votes` votes 20 s apart: the requests each costs beyond the held polls
(the wake-up, the read, the count with its picture and post).

Prints one JSON object: each run's requests a minute and a day at that rate; the cost of a
vote; and, from those figures, a day for 1 and 10 games on each key, assuming the key is busy
(a game's deadline near, or posts in the last half hour) 6 hours a day and quiet the other 18,
with 200 posts that carry an action a game; and how many games one User API key serves within
the bot's 2,800 of the key's 2,880 requests a day, at 50, 100 and 200 such posts a game. The
worst off-peak latency on a User API key is the planned gap plus a read (`request_plan.IDLE_GAP`):
printed beside it. The runs go in parallel
(each holds a poll open most of the time: little to compete for).

Run: python benchmarks/key_day.py [--minutes 4] [--votes 6] [--runs-from SAVED.json]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from modbot.adapters.user_key import SCOPES, SavedKey, save_key
from modbot.app.reading.request_plan import IDLE_GAP
from modbot.app.running.compose import USER_KEY_PER_DAY
from modbot.sandbox.forum import Forum
from modbot.sandbox.server import SandboxServer
from tests.sandbox_fixtures import KEY, Client

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ("Alex", "Brianna", "Cameron", "Derek", "Ellen")
BUSY_HOURS, POSTS_A_DAY = 6, 200  # the day a game is assumed to have (busy: the hours before
# its deadlines and its peak of votes)
ACTIVITY = (50, 100, 200)  # posts with an action a day, for the games a key serves


def _forum(folder: Path, games: int, kind: str, busy: bool, votes: int):
    forum = Forum(limits=False)  # the bot alone posts (staff); the players only vote
    bot = forum.add_user("modbot", moderator=True)
    for name in ("nightingale", *PLAYERS):
        forum.add_user(name)
    server = SandboxServer(0, api_key=KEY, forum=forum, admin_api_limit=0).start()
    # before the game: night 1 an hour away (busy: a deadline near) or ten hours (quiet), so
    # nothing is owed; the run that times votes starts in day 1's nominations instead
    started = datetime.now(UTC) + (timedelta(hours=-47) if votes else
                                   timedelta(hours=1) if busy else timedelta(hours=10))
    for n in range(games):
        topic = forum.create(bot, {"title": f"Key day: game thread {n + 1}", "category": 1,
                                   "raw": f"The opening post of game {n + 1}."}, api=False).topic_id
        (folder / f"game{n}.toml").write_text(
            f'[game]\nname = "Game {n + 1}"\nstorytellers = ["nightingale"]\ntopic_id = {topic}\n'
            f'first_night_starts = "{started:%Y-%m-%dT%H:%M:%SZ}"\n'
            + "".join(f'[[seat]]\nplayer = "{p}"\n' for p in PLAYERS))
    forum_table = f'[forum]\nurl = "{server.url}"\nusername = "modbot"\n'
    if kind == "user":
        granted = server.user_keys.grant(bot, {"client_id": "c1", "application_name": "modbot",
                                               "scopes": ",".join(SCOPES)})
        save_key(folder / "modbot.key", SavedKey(server.url, "modbot", granted.key, "c1"))
        forum_table += 'user_api_key_file = "modbot.key"\n'
    (folder / "modbot.toml").write_text(
        forum_table + f'[bot]\ndatabase_url = "sqlite:///{folder}/bot.sqlite"\n'
        'poll_seconds = 15\nvote_count_minutes = 0\nsettle_seconds = 0\n'
        + "".join(f'[[game]]\nfile = "game{n}.toml"\n' for n in range(games)))
    return server


def _charged(server, kind: str) -> int:
    if kind == "user":
        return sum(len(k.day) for k in server.user_keys.keys.values())
    return sum(server.counts.values())


def one_run(kind: str, games: int, busy: bool, minutes: float, votes: int) -> dict:
    """In a child process: start the daemon, count, stop it (SIGINT), print the figures."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        server = _forum(folder, games, kind, busy, votes)
        env = {**os.environ, "MODBOT_API_KEY": KEY}
        daemon = subprocess.Popen([sys.executable, "-m", "modbot", "run", "--config",
                                   str(folder / "modbot.toml")], env=env, cwd=ROOT,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            _settled(server, kind)  # start-up: the first reads, and what the bot owes
            before, began = _charged(server, kind), time.monotonic()
            time.sleep(minutes * 60)
            idle = (_charged(server, kind) - before) / ((time.monotonic() - began) / 60)
            per_vote = _votes(server, kind, votes, idle) if votes else None
        finally:
            daemon.terminate()
            daemon.wait(30)
            server.stop()
    return {"per_minute": round(idle, 2), "per_day_at_that_rate": round(idle * 1440),
            **({"requests_per_vote": per_vote} if per_vote is not None else {})}


def _settled(server, kind: str, quiet_for: float = 60, longest: float = 900) -> None:
    """Wait until the bot's start-up is done: no post of its own and at most 3 requests (the
    polls, a sweep) in the last `quiet_for` seconds. On a User API key 10 games' start-up
    reads take minutes: background work gets 6 of the key's 18 requests a minute."""
    began = time.monotonic()
    seen: list[tuple[float, int, int]] = []
    while time.monotonic() - began < longest:
        now = time.monotonic()
        posts = sum(len(t.posts) for t in list(server.forum.topics.values()))
        seen.append((now, posts, _charged(server, kind)))
        old = [s for s in seen if now - s[0] >= quiet_for]
        if old and old[-1][1] == posts and seen[-1][2] - old[-1][2] <= 3:
            return
        time.sleep(1)


def _votes(server, kind: str, votes: int, idle_per_minute: float) -> float:
    """Requests a vote costs beyond the polls the idle rate already counts."""
    topic = min(server.forum.topics)
    client = Client(server)
    client.post("Alex", "/nominate Ellen\nEllen has said nothing at all today.", topic_id=topic)
    time.sleep(20)
    before, began = _charged(server, kind), time.monotonic()
    for n in range(votes):
        client.post(PLAYERS[1 + n % 3], f"/vote Ellen {'yes' if n % 2 else 'no'}\nMy vote {n}.",
                    topic_id=topic)
        time.sleep(20)
    spent = _charged(server, kind) - before - idle_per_minute * (time.monotonic() - began) / 60
    return round(spent / votes, 1)


def _day(quiet: float, busy: float, per_vote: float, games: int) -> int:
    """A day: busy BUSY_HOURS (polls held, any game busy), quiet the rest, and each game's
    posts' own requests (the polls the posts cut short are in the busy rate already)."""
    return round(busy * 60 * BUSY_HOURS + quiet * 60 * (24 - BUSY_HOURS)
                 + games * POSTS_A_DAY * per_vote)


def figures(out: dict) -> dict:
    """The day figures from the runs' rates. The days and the games one key serves use the
    1-game rates of the polls: one poll carries every game's channels and one listing every
    game topic (the admin key's 1- and 10-game runs spend the same), so only the posts grow
    with the games (a 10-game run on a User API key idles only once all ten have started,
    which its 6 background requests a minute make slow: its rates show what is left of that)."""
    per_vote = out["user_votes_1_game"]["requests_per_vote"]
    days = {}
    for kind in ("user", "admin"):
        for games, suffix in ((1, "1_game"), (10, "10_games")):
            quiet = out[f"{kind}_quiet_1_game"]["per_minute"]  # the polls: as with one game
            busy = out["user_busy_1_game"]["per_minute"] if kind == "user" else quiet
            days[f"day_{kind}_key_{suffix}"] = _day(quiet, busy, per_vote, games)
    quiet, busy = out["user_quiet_1_game"]["per_minute"], out["user_busy_1_game"]["per_minute"]
    polls = busy * 60 * BUSY_HOURS + quiet * 60 * (24 - BUSY_HOURS)
    serves = {f"{posts}_posts_a_day": max(0, math.floor((USER_KEY_PER_DAY - polls)
                                                      / (posts * per_vote)))
              for posts in ACTIVITY}
    return {"runs": out, "assumed": {"busy_hours": BUSY_HOURS,
                                     "posts_with_an_action_a_day": POSTS_A_DAY},
            **days, "user_key_polls_a_day": round(polls), "games_one_user_key_serves": serves,
            "worst_off_peak_latency_s_user_key": IDLE_GAP + 1}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=4)
    parser.add_argument("--votes", type=int, default=6)
    parser.add_argument("--runs-from", metavar="JSON", help="recompute from a saved output")
    parser.add_argument("--one", nargs=3, metavar=("KIND", "GAMES", "BUSY"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:  # a child: one run
        kind, games, busy = args.one[0], int(args.one[1]), args.one[2] != "quiet"
        votes = args.votes if args.one[2] == "votes" else 0
        print(json.dumps(one_run(kind, games, busy, args.minutes, votes)))
        return 0
    if args.runs_from:  # the figures again from a saved run's "runs"
        print(json.dumps(figures(json.loads(Path(args.runs_from).read_text())["runs"]), indent=1))
        return 0
    runs = {f"{kind}_{'busy' if busy else 'quiet'}_{games}_game{'s' if games > 1 else ''}":
            (kind, games, busy) for kind, busy in (("user", False), ("user", True), ("admin", False))
            for games in (1, 10)}
    runs["user_votes_1_game"] = ("user", 1, "votes")
    children = {name: subprocess.Popen(
        [sys.executable, __file__, "--minutes", str(args.minutes), "--votes", str(args.votes),
         "--one", kind, str(games), busy if isinstance(busy, str) else
         "busy" if busy else "quiet"], stdout=subprocess.PIPE, text=True)
        for name, (kind, games, busy) in runs.items()}
    out = {name: json.loads(child.communicate()[0].strip().splitlines()[-1])
           for name, child in children.items()}
    print(json.dumps(figures(out), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
