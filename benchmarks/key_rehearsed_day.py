"""Benchmark: a whole game day on the bot's own User API key, at rehearsal speed (issue 51).

The daemon process (`modbot run`, the README's configuration: no `poll_seconds`, no
`requests_per_minute`, its clock the sandbox's: `[rehearsal] clock = "forum"`) runs as a
trust-level-1 account on a User API key (20 requests a minute, 2,880 a day, charged on the
forum's clock, the MessageBus's polls included) against the sandbox at `--speed` times real
time (60 by default: a forum day in 24 real minutes), woken by the MessageBus, whose polls the
sandbox holds 25 forum seconds (`--no-bus`: polling only, `message_bus = false`). Its 12-seat
thread-only game (no characters: key_busiest.py times a deal)
starts its day 1 `--lead` forum minutes after the daemon starts; the day lasts 24 forum hours
(6 of discussion, 8 of nominations, 10 of voting) and ends with an execution and night 2.
Through it the players post as a busy day has it: chatter every few minutes all day, six
nominations spread over the nomination window with eight votes each, a few votes changed, two
`/vc` in the thread and one by PM, and the Storyteller's `!status` in the morning, at noon and
near the end.

Each post with an action is timed, in forum seconds, to the bot's reading of it (its input row
in the bot's database); each nomination also to the first vote count in the thread that names
it; each `!status` to its answer; the `/vc` by PM to the next count in the thread. The day's
requests are those the sandbox charged the key
between the day's dawn and its end (the key's sliding day holds no more).

Prints one JSON object: the day's requests charged (and the bus's polls in the run), when the
key ran dry if it did (the bot's 2,800 spent), the 429s, and each figure's median and worst in
forum seconds (and how many went unanswered).

Run: python benchmarks/key_rehearsed_day.py [--speed 60] [--lead 30] [--log FILE] [--no-bus]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from key_busy_day import _read_ids, bot_on_its_key  # this folder: the rows read, the key

from modbot.sandbox.errors import ApiError
from modbot.sandbox.forum import Forum
from modbot.sandbox.models import Clock
from modbot.sandbox.server import SandboxServer

ROOT = Path(__file__).resolve().parent.parent
KEY = "key-rehearsed-day-admin"
PLAYERS = ["Alex", "Brianna", "Cameron", "Derek", "Ellen", "Fatima", "Gus", "Hana", "Ivan",
           "Jade", "Kit", "Lena"]
DAWN = datetime(2026, 12, 2, 18, tzinfo=UTC)  # day 1 begins
DAY = timedelta(hours=24)  # discussion 6, nomination 8, voting 10
H = 3600.0
KEPT = 2_800  # of the key's 2,880 a day, what the bot spends (request_plan.USER_KEY_DAY)


def _forum(folder: Path, speed: float, lead: float, bus: bool) -> tuple[SandboxServer, int]:
    forum = Forum(Clock(DAWN - timedelta(minutes=lead), speed))
    server = SandboxServer(0, api_key=KEY, forum=forum).start()
    bot = forum.add_user("modbot", trust_level=1)
    host = forum.add_user("host", trust_level=1)
    for name in PLAYERS:
        forum.add_user(name)
    topic = forum.create(host, {"title": "Key rehearsed day: the game thread", "category": 1,
                                "raw": "The game thread of the benchmark game."},
                         api=False).topic_id
    seats = "".join(f'[[seat]]\nplayer = "{p}"\nuser_id = {forum.user(p).id}\n' for p in PLAYERS)
    (folder / "game.toml").write_text(
        f'[game]\nname = "Key rehearsed day"\nstorytellers = ["host"]\ntopic_id = {topic}\n'
        f'bot = "modbot"\nfirst_night_starts = "{DAWN - timedelta(hours=24):%Y-%m-%dT%H:%M:%SZ}"\n'
        f'storyteller_ids = [{host.id}]\nbot_id = {bot.id}\n'
        'night = 24\ndiscussion = 6\nnomination = 8\nvoting = 10\n' + seats)
    bot_on_its_key(server, bot, folder, ("" if bus else "message_bus = false\n")
                   + '[rehearsal]\nclock = "forum"\n')
    return server, topic


def day_plan(seed: int = 7) -> list[tuple[float, str, str, str]]:
    """(forum seconds after dawn, author, where: thread|st, raw) for the whole day, in order."""
    rng = random.Random(seed)
    plan: list[tuple[float, str, str, str]] = []
    for n in range(int(DAY.total_seconds() // 600)):  # chatter every ~10 forum minutes
        at = n * 600 + rng.uniform(0, 300)
        plan.append((at, rng.choice(PLAYERS), "thread",
                     f"I keep thinking about what was said earlier, round {n}. Thoughts?"))
    nominees = PLAYERS[6:]
    for n, (nominator, nominee) in enumerate(zip(PLAYERS[:6], nominees, strict=True)):
        at = 6 * H + n * 70 * 60 + rng.uniform(0, 600)  # the nomination window, spread
        plan.append((at, nominator, "thread", f"/nominate {nominee}\nI nominate {nominee}."))
        voters = rng.sample([p for p in PLAYERS if p != nominee], 8)
        for k, voter in enumerate(voters):
            vote_at = at + 300 + k * rng.uniform(300, 1800)
            value = "yes" if rng.random() < 0.6 else "no"
            plan.append((vote_at, voter, "thread", f"/vote {nominee} {value}\nMy vote ({k})."))
            if k % 4 == 3:  # a change of mind, an hour on
                other = "no" if value == "yes" else "yes"
                plan.append((vote_at + H, voter, "thread",
                             f"/vote {nominee} {other}\nChanged my mind on {nominee}."))
    plan.append((7 * H, "Alex", "thread", "/vc\nWhere do we stand on the votes now?"))
    plan.append((18 * H, "Jade", "thread", "/vc\nWhere do we stand on the votes now?"))
    for at in (2 * H, 12 * H, 23 * H):
        plan.append((at, "host", "st", "!status\nHow does it stand?"))
    plan.append((16 * H, "Gus", "pm", "/vc\nThe count, please."))  # a /vc by PM: the thread's
    return sorted(plan)


class Day:
    """The benchmark's side of the day: its posts at their forum times, and what the bot did."""

    def __init__(self, server: SandboxServer, topic: int, database: Path) -> None:
        self.server, self.forum, self.topic, self.database = server, server.forum, topic, database
        self.made: dict[int, tuple[float, str]] = {}  # post id -> (forum s after dawn, raw)
        self.read: dict[int, float] = {}  # post id -> forum seconds to its reading
        self.counted: dict[int, float] = {}  # nomination post id -> seconds to its count
        self.asked: list[tuple[int, int, float]] = []  # the !status posts: (topic, number, at)
        self.answered: dict[int, float] = {}  # index in `asked` -> seconds to the answer
        self.vc_by_pm: list[float] = []  # when a player's /vc by PM was sent
        self.vc_counted: dict[int, float] = {}  # its index -> seconds to a count in the thread

    def elapsed(self) -> float:
        return (self.forum.clock.now() - DAWN).total_seconds()

    def post(self, author: str, where: str, raw: str) -> None:
        user = self.forum.user(author)
        if where == "pm":  # a player's own conversation with the bot
            self.forum.create(user, {"title": f"{author} to the bot", "target_recipients":
                                     "modbot", "archetype": "private_message", "raw": raw},
                              api=False)
            self.vc_by_pm.append(self.elapsed())
            return
        if where == "thread":
            post = self.forum.create(user, {"topic_id": self.topic, "raw": raw}, api=False)
            if raw.startswith("/"):
                self.made[post.id] = (self.elapsed(), raw)
            return
        conversation = next((t for t in self.forum.topics.values() if t.is_pm
                             and {u.lower() for u in t.allowed} == {"host", "modbot"}), None)
        if conversation is None:
            post = self.forum.create(user, {"title": "Storyteller to the bot",
                                            "archetype": "private_message",
                                            "target_recipients": "modbot", "raw": raw}, api=False)
        else:
            post = self.forum.create(user, {"topic_id": conversation.id, "raw": raw}, api=False)
        self.asked.append((post.topic_id, post.post_number, self.elapsed()))

    def look(self) -> None:
        now = self.elapsed()
        for post_id in _read_ids(self.database) - set(self.read):
            if post_id in self.made:
                self.read[post_id] = round(now - self.made[post_id][0])
        bot_posts = [p.raw for p in self.forum.topics[self.topic].posts if p.username == "modbot"]
        for post_id, (at, raw) in self.made.items():
            if raw.startswith("/nominate") and post_id not in self.counted:
                nominee = raw.split()[1]
                if any(":vc:" in text and f"Nomination of {nominee}" in text
                       for text in bot_posts):  # a count with this nomination's table
                    self.counted[post_id] = round(now - at)
        counts = [(p.created_at - DAWN).total_seconds() for p in self.forum.topics[self.topic].posts
                  if p.username == "modbot" and ":vc:" in p.raw]
        for index, at in enumerate(self.vc_by_pm):
            if index not in self.vc_counted and any(t >= at for t in counts):
                self.vc_counted[index] = round(min(t for t in counts if t >= at) - at)
        for index, (topic_id, number, at) in enumerate(self.asked):
            if index not in self.answered and any(
                    p.username == "modbot" and p.post_number > number
                    for p in self.forum.topics[topic_id].posts):
                self.answered[index] = round(now - at)


def _key(server: SandboxServer):
    return next(iter(server.user_keys.keys.values()))


def run(speed: float, lead: float, log: str | None, bus: bool = True) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        server, topic = _forum(folder, speed, lead, bus)
        day = Day(server, topic, folder / "bot.sqlite")
        plan = day_plan()
        sink = open(log, "w") if log else subprocess.DEVNULL  # noqa: SIM115
        daemon = subprocess.Popen([sys.executable, "-m", "modbot", "run", "--config",
                                   str(folder / "modbot.toml")], cwd=ROOT, stdout=sink,
                                  stderr=sink, env=dict(os.environ))
        dawn, charged, whole, dry = DAWN.timestamp(), None, DAY.total_seconds(), None
        try:
            while day.elapsed() < whole + 600:  # the day, and its end's posts
                while plan and plan[0][0] <= day.elapsed():
                    _, author, where, raw = plan.pop(0)
                    try:
                        day.post(author, where, raw)
                    except ApiError as exc:  # a player posting too fast: as a player would,
                        wait = float(exc.body.get("extras", {}).get("wait_seconds", 10))
                        plan.append((day.elapsed() + wait + 1, author, where, raw))  # again
                        plan.sort()
                day.look()
                if charged is None and day.elapsed() >= whole:  # the key's day, dawn to dusk
                    times = sorted(t for t in list(_key(server).day) if t >= dawn)
                    charged = len(times)
                    dry = round((times[KEPT - 1] - dawn) / H, 1) if charged >= KEPT else None
                if daemon.poll() is not None:
                    break
                time.sleep(0.1)
        finally:
            daemon.terminate()
            daemon.wait(60)
            refused = server.counts.get("429", 0)
            polls = server.counts.get("POST /message-bus/poll", 0)
            ended = any("Day 1 is over" in p.raw for p in server.forum.topics[topic].posts)
            server.stop()
    nominations = sum(1 for _, raw in day.made.values() if raw.startswith("/nominate"))
    return {"speed": speed, "forum_day_hours": 24, "message_bus": bus,
            "requests_charged_in_the_day": charged, "bus_polls_in_the_run": polls,
            "key_day_limit": 2880, "key_ran_dry_at_h": dry, "refused_429": refused,
            "day_ended_and_posted": ended,
            "action_posts": len(day.made), "read_s_median": _median(day.read),
            "read_s_worst": max(day.read.values(), default=None),
            "never_read": len(day.made) - len(day.read),
            "nomination_count_s_median": _median(day.counted),
            "nomination_count_s_worst": max(day.counted.values(), default=None),
            "nominations_never_counted": nominations - len(day.counted),
            "status_answer_s": [day.answered.get(i) for i in range(len(day.asked))],
            "vc_by_pm_count_in_thread_s": [day.vc_counted.get(i)
                                           for i in range(len(day.vc_by_pm))]}


def _median(values: dict) -> float | None:
    return round(statistics.median(values.values())) if values else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--speed", type=float, default=60.0,
                        help="forum seconds a real second (default 60: the day in 24 minutes)")
    parser.add_argument("--lead", type=float, default=30.0,
                        help="forum minutes from the daemon's start to day 1's dawn")
    parser.add_argument("--log", help="where the daemon's log goes (default: nowhere)")
    parser.add_argument("--no-bus", action="store_true",
                        help="the daemon without the MessageBus (message_bus = false): polling")
    args = parser.parse_args()
    print(json.dumps(run(args.speed, args.lead, args.log, bus=not args.no_bus)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
