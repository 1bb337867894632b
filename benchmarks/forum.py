"""Benchmark: how many requests the bot makes against the sandbox, over real HTTP on loopback.

Prints one JSON object:
- requests_per_idle_cycle_1_game / _50_games: requests of one poll cycle with nothing new
  (after start-up, once everything the bot owed has gone out within its request budget, its
  client counting the forum's minutes as the sandbox's limiter does, and one cycle that reads
  back the bot's own posts; the edit sweep, which runs every few minutes, is not counted);
- read_requests_per_100_new_posts: GET requests of the cycle after 100 new posts arrived in
  one game thread (writes of the posts the bot owes are not reads and are not counted);
- cycle_ms_idle_50_games: wall time of one idle cycle with 50 games;
- startup_requests_50_games: requests of start-up with 50 games, under Discourse's default
  limits (the account, then one read of each game topic, which also proves it exists);
- requests_per_cycle_over_a_sweep_period_50_games_*: requests per cycle averaged over one edit
  sweep period (3 minutes, 12 cycles), nothing new arriving, the sweep included: with no post
  that carried actions today, and with 10 such posts in each game (the sweep spends at most 2
  requests a minute: 0.5 a cycle at 15 s polls).

- restart_ratio_10k_over_100: the time from a restart to the end of its first cycle with a
  10,000-post history over the same with 100 posts (both printed, in seconds), the bot having
  stopped as the daemon does (with a snapshot of the game); restart_s_10k_without_snapshot:
  the same after a crash that left no snapshot (every stored input folded); the snapshot's
  time to take and size at 10,000 posts.

Run: python benchmarks/forum.py
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from modbot.adapters.forum import ForumClient
from modbot.adapters.store import OutboxRow, Store
from modbot.app.running.service import Service, Settings
from modbot.core import Post
from modbot.core.state.model import GameSetup, Seat
from modbot.sandbox.forum import Forum
from modbot.sandbox.models import ManualClock
from modbot.sandbox.server import SandboxServer

KEY = "bench-key"
START = datetime(2026, 12, 1, 18, tzinfo=UTC)
PLAYERS = tuple(f"player{n:02d}" for n in range(1, 16))


def make_forum(games: int, limits: bool = False):
    """`limits`: Discourse's defaults (post lengths, 60 admin requests a minute); without,
    the figures count requests only (the rate limit would only slow them down)."""
    clock = ManualClock(START)
    server = SandboxServer(0, api_key=KEY, forum=Forum(clock, limits=limits),
                           admin_api_limit=60 if limits else 0).start()
    forum = server.forum
    forum.add_user("modbot", moderator=True)
    forum.add_user("host", moderator=True)
    for name in PLAYERS:
        forum.add_user(name)
    setups = []
    for n in range(games):
        topic = forum.create(forum.user("host"), {
            "title": f"Benchmark game number {n + 1}", "category": 1,
            "raw": "The game thread of a benchmark game.", "created_at": START.isoformat()})
        seats = tuple(Seat(p) for p in PLAYERS[:7 + n % 9])
        setups.append(GameSetup(f"game {n + 1}", seats, START, storytellers=("host",),
                                topic_id=topic.topic_id))
    return server, clock, setups


def _client(server: SandboxServer) -> ForumClient:
    """The bot's client, its request budget counted on the forum's clock (as the sandbox's
    limiter is): the benchmark's forum minutes pass in no time."""
    client = ForumClient(server.url, "modbot", KEY)
    client.budget.clock = server.forum.seconds
    return client


def counts(server: SandboxServer) -> dict[str, int]:
    with server.counts_lock:
        return dict(server.counts)


def requests_in(server: SandboxServer, action, only_reads: bool = False) -> int:
    before = counts(server)
    action()
    after = counts(server)
    return sum(n - before.get(k, 0) for k, n in after.items()
               if not only_reads or k.startswith("GET "))


def idle_cycle(games: int, folder: Path) -> tuple[int, float]:
    server, clock, setups = make_forum(games)
    store = Store(f"sqlite:///{folder}/idle-{games}.sqlite")
    try:
        service = Service(_client(server), store, setups,
                          Settings(settle_seconds=0))
        service.start()
        now = START + timedelta(hours=1)
        clock.set(now)
        for _ in range(300):  # the posts owed (night 1 begins) go out, within the budget
            now += timedelta(seconds=15)
            clock.set(now)
            report = service.cycle(now)
            if not report.deferred and not service.waiting and not store.pending():
                break
        service.intake.last_sweep = now
        now += timedelta(seconds=15)
        clock.set(now)
        service.cycle(now)  # reads back the bot's own burst of posts
        now += timedelta(seconds=15)
        clock.set(now)
        began = time.perf_counter()
        used = requests_in(server, lambda: service.cycle(now))
        return used, (time.perf_counter() - began) * 1000
    finally:
        store.close()
        server.stop()


def new_posts(count: int, folder: Path) -> int:
    server, clock, setups = make_forum(1)
    store = Store(f"sqlite:///{folder}/new-posts.sqlite")
    try:
        service = Service(_client(server), store, setups,
                          Settings(settle_seconds=0, vote_count_minutes=10**6))
        service.start()
        now = START + timedelta(hours=37)  # day 1, nominations open
        clock.set(now)
        service.cycle(now)
        service.intake.last_sweep = now + timedelta(hours=1)
        forum, topic = server.forum, setups[0].topic_id
        for n in range(count):
            author = forum.user(PLAYERS[n % 7])
            forum.create(author, {"topic_id": topic, "created_at": (now + timedelta(seconds=n)).isoformat(),
                                  "raw": f"Post {n}: chatter, and /vote nobody in particular."})
        later = now + timedelta(minutes=5)
        clock.set(later)
        return requests_in(server, lambda: service.cycle(later), only_reads=True)
    finally:
        store.close()
        server.stop()


def start_up(games: int, folder: Path) -> int:
    """Requests made by start-up (account, then each game's topic read once), under
    Discourse's default limits."""
    server, _clock, setups = make_forum(games, limits=True)
    store = Store(f"sqlite:///{folder}/start-{games}.sqlite")
    try:
        service = Service(_client(server), store, setups,
                          Settings(settle_seconds=0))
        return requests_in(server, service.start)
    finally:
        store.close()
        server.stop()


def sweep_period(games: int, folder: Path, action_posts: int) -> float:
    """Requests per cycle, averaged over one sweep period (12 cycles of 15 s, the sweep
    included), nothing new arriving; each game thread holds `action_posts` of today's posts
    that carried actions (the only ones the sweep reads again)."""
    server, clock, setups = make_forum(games)
    store = Store(f"sqlite:///{folder}/sweep-{games}-{action_posts}.sqlite")
    try:
        service = Service(_client(server), store, setups,
                          Settings(settle_seconds=0, vote_count_minutes=10**6, sweep_minutes=3))
        service.start()
        now = START + timedelta(hours=37)  # day 1, nominations open
        clock.set(now)
        service.cycle(now)
        for setup in setups:
            for n in range(action_posts):
                author = server.forum.user(PLAYERS[n % 7])
                server.forum.create(author, {
                    "topic_id": setup.topic_id,
                    "raw": f"/vote {PLAYERS[(n + 1) % 7]}\nMy vote for today, after some thought.",
                    "created_at": (now + timedelta(seconds=n + 1)).isoformat()})
        for _ in range(300):  # every game started, the posts read, what the bot owes sent
            now += timedelta(seconds=15)  # (within its request budget of 55 a forum minute)
            clock.set(now)
            report = service.cycle(now)
            if not report.deferred and not service.waiting and not store.pending():
                break
        total = 0
        for _ in range(12):
            now += timedelta(seconds=15)
            clock.set(now)
            total += requests_in(server, lambda now=now: service.cycle(now))
        return total / 12
    finally:
        store.close()
        server.stop()


def time_to_first_cycle(history: int, folder: Path, snapshot: bool = True) -> dict:
    """Seconds from a restart to the end of its first cycle, for one game whose store holds
    `history` thread posts (the forum has nothing new). The history is committed through the
    service itself, as if read from the forum; the bot then stops as the daemon does (taking
    a snapshot of the game: `snapshot=False` measures a restart after a crash that left none,
    which folds every stored input). The best of 3; also the snapshot's time and size."""
    from replay import make_setup, synthetic_posts  # benchmarks/replay.py: the same game
    setup = make_setup()
    forum = Forum(ManualClock(START))
    server = SandboxServer(0, api_key=KEY, forum=forum, admin_api_limit=0).start()
    try:
        forum.add_user("modbot", moderator=True)
        for name in (*setup.storytellers, *(s.name for s in setup.seats)):
            forum.add_user(name)
        topic = forum.create(forum.user("modbot"), {"title": "Restart benchmark game thread",
                                                    "category": 1, "created_at": START.isoformat(),
                                                    "raw": "The game thread of a benchmark."},
                             api=False).topic_id
        setup = replace(setup, topic_id=topic)
        url = f"sqlite:///{folder}/restart-{history}.sqlite"
        store = Store(url)
        first = Service(_client(server), store, [setup],
                        Settings(settle_seconds=0))
        first.start()
        first.cycle(START)
        game = first.games[topic]
        for post in synthetic_posts(history, seed=7):
            first.handling._commit(game, game.on_post(Post(
                post.post_number + 1, post.author, post.created_at, post.raw,
                post.post_number + 10_000)))
        OutboxRow.update(status="sent").execute()  # what the history owed went out long ago
        taken = time.perf_counter()
        if snapshot:
            first.save_snapshots(every=0)  # as `modbot run` does when it stops
        taken = time.perf_counter() - taken
        size = len(bytes(store.snapshot(game.game_id).data)) if snapshot else 0
        store.close()
        now = START + timedelta(days=30)
        best = float("inf")
        for _ in range(3):
            began = time.perf_counter()
            again = Service(_client(server), Store(url), [setup],
                            Settings(settle_seconds=0))
            again.start()
            again.cycle(now)
            best = min(best, time.perf_counter() - began)
            again.store.close()
        return {"restart_s": best, "snapshot_s": taken, "snapshot_bytes": size}
    finally:
        server.stop()


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        one, _ = idle_cycle(1, folder)
        fifty, fifty_ms = idle_cycle(50, folder)
        reads = new_posts(100, folder)
        started = start_up(50, folder)
        quiet_period = sweep_period(50, folder, 0)
        busy_period = sweep_period(50, folder, 10)
        restart_100 = time_to_first_cycle(100, folder)["restart_s"]
        big = time_to_first_cycle(10_000, folder)
        restart_10k = big["restart_s"]
        crash_10k = time_to_first_cycle(10_000, folder, snapshot=False)["restart_s"]
    print(json.dumps({
        "requests_per_idle_cycle_1_game": one,
        "requests_per_idle_cycle_50_games": fifty,
        "startup_requests_50_games": started,
        "requests_per_cycle_over_a_sweep_period_50_games_no_action_today": round(quiet_period, 2),
        "requests_per_cycle_over_a_sweep_period_50_games_10_actions_each": round(busy_period, 2),
        "read_requests_per_100_new_posts": reads,
        "cycle_ms_idle_50_games": round(fifty_ms, 1),
        "restart_s_100": round(restart_100, 3),
        "restart_s_10k": round(restart_10k, 3),
        "restart_ratio_10k_over_100": round(restart_10k / restart_100, 2),
        "restart_s_10k_without_snapshot": round(crash_10k, 3),
        "snapshot_ms_10k": round(big["snapshot_s"] * 1000, 1),
        "snapshot_bytes_10k": big["snapshot_bytes"],
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
