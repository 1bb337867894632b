"""Benchmark: the bot under Discourse's default shared admin budget (60 requests a minute), on
simulated time: the sandbox's forum clock, the bot's `time.monotonic`/`time.time`/`time.sleep`
and its game clock all read one simulated clock, which the loop moves a second at a time
(a cycle every `poll_seconds` = 15, a drain every second, as `modbot run` does). So a minute of
the budget passes in well under a real second, and the figures are the forum's seconds.

Prints one JSON object:
- first_count_s_40_games_median / _max: 40 games the bot has never seen, every one in day 1's
  nominations; in 5 of them a player has just nominated. Seconds from the bot's start to each
  of those 5 games' first vote count in its thread (goal: under 120 s). Each game also owes its
  night, dawn and nominations posts, at the same budget.
- rebuild_s_3000_posts: a game whose database is lost, with a 3,000-post thread (and 10 more
  games running): seconds from the bot's start to the game being live again (goal: under 5
  minutes, about the 150 reads of 20 posts Discourse's post stream needs).
- requests_*: what the forum saw in each run; refused_by_the_budget_*: requests the bot held
  back itself because its minute was full (the forum itself refused none: a 429 from it is
  logged as "rate limited").

The game files carry every place's user id, as `modbot check` writes them (the README's
step 7); `--names-only` runs them with names only, so each game's start first looks up its ten
names (app/games/identities.py), at the same budget.

Run: python benchmarks/budget.py [--names-only]
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from modbot.adapters.forum import ForumClient
from modbot.adapters.store import Store
from modbot.app.running.service import Service, Settings
from modbot.core.state.model import GameSetup, Seat
from modbot.sandbox.forum import Forum
from modbot.sandbox.models import ManualClock
from modbot.sandbox.server import SandboxServer

KEY = "budget-key"
# the game files carry every place's forum user id, as `modbot check` writes them; with
# --names-only they name players only, and the bot binds each name at the game's first start
BOUND = "--names-only" not in sys.argv
START = datetime(2026, 12, 1, 18, tzinfo=UTC)
DAY1_NOMINATIONS = START + timedelta(hours=37)  # night 24 h, discussion 12 h, then nominations
POLL = 15


class Simulated:
    """One clock for the forum and the bot: `time` functions patched to it."""

    def __init__(self, clock: ManualClock) -> None:
        self.clock = clock
        self.t = 0.0
        self.real = (time.monotonic, time.time, time.sleep)
        time.monotonic = lambda: self.t
        time.time = lambda: 1_800_000_000 + self.t
        time.sleep = self.advance

    def now(self) -> datetime:
        return self.clock.now()

    def advance(self, seconds: float) -> None:
        self.t += seconds
        self.clock.set(self.clock.now() + timedelta(seconds=seconds))

    def restore(self) -> None:
        time.monotonic, time.time, time.sleep = self.real


def forum_with_games(at: datetime, games: int, players_per_game: int = 8):
    clock = ManualClock(at)
    server = SandboxServer(0, api_key=KEY, forum=Forum(clock), admin_api_limit=60).start()
    forum = server.forum
    forum.add_user("modbot", moderator=True, trust_level=4)
    forum.add_user("host", moderator=True, trust_level=4)
    setups = []
    for n in range(games):
        names = [f"g{n:02d}p{i}" for i in range(players_per_game)]  # every game its own players
        for name in names:
            forum.add_user(name)
        topic = forum.create(forum.user("host"), {
            "title": f"Budget game number {n + 1}", "category": 1,
            "raw": "The game thread of a benchmark game.", "created_at": START.isoformat()},
            api=False)
        ids = tuple((name, forum.user(name).id) for name in [*names, "host", "modbot"])
        setups.append(GameSetup(f"game {n + 1}", tuple(Seat(p) for p in names), START,
                                storytellers=("host",), topic_id=topic.topic_id,
                                user_ids=ids if BOUND else ()))
    return server, clock, setups


def run_until(sim: Simulated, service: Service, done, limit: float) -> float:
    """Run the daemon's loop (a cycle every POLL s, a drain every second) until `done()`;
    the simulated seconds it took (None past `limit`)."""
    began = sim.t
    while sim.t - began < limit:
        if int(sim.t - began) % POLL == 0:
            service.cycle(sim.now())
        service.drain()
        if done():
            return sim.t - began
        sim.advance(1)
    return None


def requests(server: SandboxServer) -> int:
    with server.counts_lock:
        return sum(server.counts.values())


def first_counts(folder: Path) -> dict:
    server, clock, setups = forum_with_games(DAY1_NOMINATIONS, 40)
    forum = server.forum
    active = setups[:5]
    for setup in active:  # a nomination just made in each active game
        first, second = setup.seats[0].name, setup.seats[1].name
        forum.create(forum.user(first), {"topic_id": setup.topic_id,
                                         "raw": f"I nominate {second}.\n/nominate {second}"},
                     api=False)
    sim = Simulated(clock)
    store = Store(f"sqlite:///{folder}/counts.sqlite")
    try:
        service = Service(ForumClient(server.url, "modbot", KEY), store, setups,
                          Settings(settle_seconds=0))
        began = sim.t
        service.start()
        seen: dict[int, float] = {}

        def counted() -> bool:
            for setup in active:
                topic = forum.topics[setup.topic_id]
                if setup.topic_id not in seen and any(
                        ":vc:" in p.raw and p.username == "modbot" for p in topic.posts):
                    seen[setup.topic_id] = sim.t - began
            return len(seen) == len(active)

        run_until(sim, service, counted, 1800)
        times = sorted(seen.values())
        return {"first_count_s_40_games_median": statistics.median(times) if times else None,
                "first_count_s_40_games_max": max(times) if len(times) == len(active) else None,
                "requests_40_games": requests(server),
                "refused_by_the_budget_40_games": service.client.budget.refused}
    finally:
        sim.restore()
        store.close()
        server.stop()


def rebuild(folder: Path) -> dict:
    server, clock, setups = forum_with_games(DAY1_NOMINATIONS, 11)
    forum = server.forum
    big = setups[0]
    sim = Simulated(clock)
    store = Store(f"sqlite:///{folder}/live.sqlite")
    try:
        service = Service(ForumClient(server.url, "modbot", KEY), store, [big],
                          Settings(settle_seconds=0))
        service.start()
        run_until(sim, service, lambda: not store.pending() and big.topic_id in service.games,
                  1800)
        topic = forum.topics[big.topic_id]
        names = [s.name for s in big.seats]
        for n in range(3000):  # a long day's table talk, as the bot saw it live
            forum.append(topic, names[n % len(names)], f"Table talk, line {n}.", sim.now())
        game = service.games[big.topic_id]
        run_until(sim, service, lambda: game.last_post_number >= topic.posts[-1].post_number
                  and not store.pending(), 3600)
        store.close()
        fresh = Store(f"sqlite:///{folder}/lost.sqlite")  # the database is lost
        service = Service(ForumClient(server.url, "modbot", KEY), fresh, setups,
                          Settings(settle_seconds=0))
        before = requests(server)
        service.start()
        took = run_until(sim, service, lambda: big.topic_id in service.games, 1800)
        total = requests(server) - before
        fresh.close()
        return {"rebuild_s_3000_posts": took, "requests_rebuild": total}
    finally:
        sim.restore()
        server.stop()


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        figures = {**first_counts(Path(folder)), **rebuild(Path(folder))}
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
