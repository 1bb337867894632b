"""Benchmark: a busy day on the bot's own User API key, in real time (issue 51).

The daemon process (`modbot run`, its own loop, MessageBus on, the README's configuration: no
`poll_seconds`, no `requests_per_minute`) runs as a regular forum account (trust level 1) on a
User API key (20 requests a minute, 2,880 a day) against the sandbox at its default limits.
Its 12-seat game is in day 1's nominations (a thread-only game: its deal is
benchmarks/key_busiest.py's). `--lead` seconds after the daemon starts (60 by default: its
start-up done), the 12 players post a day's 24 nominations and votes within two minutes, and
the Storyteller sends `!sub Kit Quinn --yes` in their conversation. Each post is timed to the
bot's reading of it (its input row in the bot's database), each nomination also to its vote
count in the thread, the `!sub` to its answer and to the thread's post that Quinn took the
seat (a thread-only game has no role PM to hand over: key_busiest.py times those).

Prints one JSON object: each figure's median and worst, how many were never answered within
`LONGEST`, the requests the key was charged and any 429.

Run: python benchmarks/key_busy_day.py [--lead SECONDS] [--log FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from modbot.adapters.user_key import SCOPES, SavedKey, save_key
from modbot.sandbox.forum import Forum
from modbot.sandbox.server import SandboxServer

ROOT = Path(__file__).resolve().parent.parent
KEY = "key-busy-day-admin"
PLAYERS = ["Alex", "Brianna", "Cameron", "Derek", "Ellen", "Fatima", "Gus", "Hana", "Ivan",
           "Jade", "Kit", "Lena"]
LONGEST = 600.0


def _forum(folder: Path):
    forum = Forum()
    server = SandboxServer(0, api_key=KEY, forum=forum).start()
    bot = forum.add_user("modbot", trust_level=1)
    host = forum.add_user("host", trust_level=1)
    for name in [*PLAYERS, "Quinn"]:
        forum.add_user(name)
    topic = forum.create(host, {"title": "Key busy day: the game thread", "category": 1,
                                "raw": "The game thread of the benchmark game."},
                         api=False).topic_id
    started = datetime.now(UTC) - timedelta(hours=37, minutes=30)  # day 1's nominations
    seats = "".join(f'[[seat]]\nplayer = "{p}"\nuser_id = {forum.user(p).id}\n' for p in PLAYERS)
    (folder / "game.toml").write_text(
        f'[game]\nname = "Key busy day"\nstorytellers = ["host"]\ntopic_id = {topic}\n'
        f'bot = "modbot"\nfirst_night_starts = "{started:%Y-%m-%dT%H:%M:%SZ}"\n'
        f'storyteller_ids = [{host.id}]\nbot_id = {bot.id}\nbackups = ["Quinn"]\n'
        f'backup_ids = [{forum.user("Quinn").id}]\n' + seats)
    bot_on_its_key(server, bot, folder)
    return server, topic


def bot_on_its_key(server: SandboxServer, bot, folder: Path, extra: str = "") -> None:
    """The bot's User API key, granted as `modbot login` gets it, and the daemon's
    configuration beside the game file (`extra`: more tables, such as `[rehearsal]`)."""
    granted = server.user_keys.grant(bot, {"client_id": "c1", "application_name": "modbot",
                                           "scopes": ",".join(SCOPES)})
    save_key(folder / "modbot.key", SavedKey(server.url, "modbot", granted.key, "c1"))
    (folder / "modbot.toml").write_text(
        f'[forum]\nurl = "{server.url}"\nusername = "modbot"\nuser_api_key_file = "modbot.key"\n'
        f'[bot]\ndatabase_url = "sqlite:///{folder}/bot.sqlite"\n{extra}[[game]]\nfile = "game.toml"\n')


def _day_posts() -> list[tuple[str, str]]:
    """24 posts: 6 nominations, then 18 votes on them, every player posting twice."""
    nominees = PLAYERS[6:]
    posts = [(nominator, f"/nominate {nominees[n]}\nI nominate {nominees[n]}, as said.")
             for n, nominator in enumerate(PLAYERS[:6])]
    voters = [p for p in PLAYERS if p not in nominees] + PLAYERS  # each player twice at most
    for n, voter in enumerate(voters[:18]):
        posts.append((voter, f"/vote {nominees[n % 6]} yes\nMy vote, reasons above ({n})."))
    return posts


def _read_ids(database: Path) -> set[int]:
    if not database.exists():
        return set()
    try:
        with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=1) as db:
            return {row[0] for row in db.execute(
                "SELECT post_id FROM input_row WHERE post_id IS NOT NULL")}
    except sqlite3.Error:
        return set()


def run(log: str | None, lead: float = 60.0) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        server, topic = _forum(folder)
        forum = server.forum
        try:
            sink = open(log, "w") if log else subprocess.DEVNULL  # noqa: SIM115
            daemon = subprocess.Popen([sys.executable, "-m", "modbot", "run", "--config",
                                       str(folder / "modbot.toml")], cwd=ROOT, stdout=sink,
                                      stderr=sink, env=dict(os.environ))
            try:
                time.sleep(lead)
                began = time.monotonic()
                made: dict[int, tuple[float, str, str]] = {}  # post id -> (t, author, raw)
                subs: list[tuple[int, int, float]] = []
                poster = threading.Thread(target=_post_the_day, daemon=True,
                                          args=(forum, topic, began, made, subs))
                poster.start()
                read, counted, sub_answer, told = {}, {}, None, None
                while time.monotonic() - began < LONGEST:
                    now = time.monotonic() - began
                    for post_id in _read_ids(folder / "bot.sqlite") - set(read):
                        if post_id in made:
                            read[post_id] = round(now - made[post_id][0], 1)
                    for post_id, (at, _author, raw) in list(made.items()):
                        if raw.startswith("/nominate") and post_id not in counted:
                            nominee = raw.split()[1]
                            if any(p.username == "modbot" and ":vc:" in p.raw and nominee in p.raw
                                   for p in forum.topics[topic].posts):
                                counted[post_id] = round(now - at, 1)
                    if subs:
                        sub_answer, told = _sub_answered(forum, topic, subs[0], sub_answer,
                                                         told, now)
                    if not poster.is_alive() and len(read) == len(made) and len(counted) == 6 \
                            and sub_answer and told:
                        break
                    time.sleep(0.25)
            finally:
                daemon.terminate()
                daemon.wait(60)
            charged = sum(len(k.day) for k in server.user_keys.keys.values())
            refused = server.counts.get("429", 0)
        finally:
            server.stop()
    return {"posts": len(made), "read_s_median": _median(read), "read_s_worst": _worst(read, made),
            "nomination_count_s_median": _median(counted),
            "nomination_count_s_worst": _worst(counted, {i: 0 for i in range(6)}),
            "never_read": len(made) - len(read), "sub_answered_s": sub_answer,
            "sub_told_in_thread_s": told, "requests_charged": charged, "refused_429": refused}


def _post_the_day(forum, topic: int, began: float, made: dict, subs: list) -> None:
    """The day's 24 posts within two minutes, the Storyteller's `!sub` with the last (after
    Kit's vote: a replaced player's posts count for nothing)."""
    posts = _day_posts()
    for index, (author, raw) in enumerate(posts):
        post = forum.create(forum.user(author), {"topic_id": topic, "raw": raw}, api=False)
        made[post.id] = (time.monotonic() - began, author, raw)
        if index == len(posts) - 1:
            subs.append(_sub(forum, began))
        time.sleep(120 / len(posts))


def _sub(forum, began: float) -> tuple[int, int, float]:
    """The Storyteller's `!sub`, in their conversation with the bot (opened for it if none)."""
    host = forum.user("host")
    conversation = next((t for t in forum.topics.values() if t.is_pm
                         and {u.lower() for u in t.allowed} == {"host", "modbot"}), None)
    raw = "!sub Kit Quinn --yes\nKit had to leave us."
    if conversation is None:
        post = forum.create(host, {"title": "Storyteller to the bot", "archetype": "private_message",
                                   "target_recipients": "modbot", "raw": raw}, api=False)
    else:
        post = forum.create(host, {"topic_id": conversation.id, "raw": raw}, api=False)
    return post.topic_id, post.post_number, time.monotonic() - began


def _sub_answered(forum, topic: int, sub, answer, told, now):
    """When the Storytellers' `!sub` was answered, and when the thread was told of it."""
    topic_id, number, at = sub
    if answer is None and any(p.username == "modbot" and p.post_number > number
                              for p in forum.topics[topic_id].posts):
        answer = round(now - at, 1)
    if told is None and any(p.username == "modbot" and ":sub:Kit:Quinn" in p.raw
                            for p in forum.topics[topic].posts):
        told = round(now - at, 1)
    return answer, told


def _median(values: dict) -> float | None:
    return round(statistics.median(values.values()), 1) if values else None


def _worst(values: dict, wanted: dict) -> float | None:
    return max(values.values()) if len(values) == len(wanted) and values else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--log", help="where the daemon's log goes (default: nowhere)")
    parser.add_argument("--lead", type=float, default=60.0,
                        help="seconds from the daemon's start to the first post (default 60)")
    args = parser.parse_args()
    print(json.dumps(run(args.log, args.lead)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
