"""Benchmark: replay speed and the cost of one new post as the game grows.

Builds a synthetic 15-player BotF game of 10,000 posts (chatter, quotes of votes, code,
nominations, votes, unvotes, whispers; many rejected), then prints one JSON object:

- replay_posts_per_s: posts per second for a full replay (parse + rules), best of 3 runs;
- per_post_cost_ratio_10k_vs_100: the median cost of handling one new post when the game
  already has 10,000 posts, divided by the same cost at 100 posts. Both states are first
  advanced to the start of their next nomination window and fed the same 100 posts, so only
  the history differs. Near 1 means handling a new post does not replay the game (the live
  daemon keeps the state and feeds one post at a time).

Run: python benchmarks/replay.py [--posts N] [--seed S]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from modbot.core.engine import Post, advance, handle_post
from modbot.core.reporting import replay
from modbot.core.state.model import GameSetup, GameState, Phase, Seat

PLAYERS = tuple(f"Player{n:02d}" for n in range(1, 16))
START = datetime(2026, 12, 1, 18, tzinfo=UTC)
WORDS = ("I", "think", "the", "demon", "is", "probably", "lying", "about", "their", "claim",
         "and", "we", "should", "vote", "today", "because", "night", "info", "says", "so")


def make_setup() -> GameSetup:
    seats = tuple(Seat(p, aliases=(f"p{i + 1}",)) for i, p in enumerate(PLAYERS))
    return GameSetup("bench", seats, START, storytellers=("nightingale",))


def chatter(rng: random.Random) -> str:
    text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 60)))
    roll = rng.random()
    if roll < 0.15:
        return f'[quote="{rng.choice(PLAYERS)}, post:3, topic:1"]\n/vote {rng.choice(PLAYERS)}\n[/quote]\n{text}'
    if roll < 0.2:
        return f"{text}\n```\n/nominate {rng.choice(PLAYERS)}\n```"
    if roll < 0.25:
        return f"{text}\n~~/vote {rng.choice(PLAYERS)}~~"
    return text


def action(rng: random.Random) -> str:
    target = rng.choice(PLAYERS)
    return rng.choice([
        f"/nominate {target}", f"/vote {target}", f"/vote {target} no", f"/unvote {target}",
        f"[vote]{target}[/vote]", f"/whisper {rng.choice(PLAYERS)}", "/accept", "/unvote",
        f"Good point.\n/vote {target} yes",
    ])


def synthetic_posts(count: int, seed: int) -> list[Post]:
    rng = random.Random(seed)
    at = START + timedelta(hours=1)
    posts = []
    for number in range(1, count + 1):
        at += timedelta(seconds=rng.randint(30, 240))
        author = rng.choice(PLAYERS)
        raw = action(rng) if rng.random() < 0.3 else chatter(rng)
        posts.append(Post(number, author, at, raw))
    return posts


def best_replay_rate(setup: GameSetup, posts: list[Post], runs: int = 3) -> float:
    best = float("inf")
    for _ in range(runs):
        began = time.perf_counter()
        replay(GameState.from_setup(setup), posts)
        best = min(best, time.perf_counter() - began)
    return len(posts) / best


def per_post_cost(state: GameState, next_posts: list[Post], repeats: int = 30) -> float:
    """Median seconds to handle one new post from `state` (pure, so repeatable)."""
    samples = []
    for _ in range(repeats):
        began = time.perf_counter()
        for post in next_posts:
            handle_post(state, post)
        samples.append((time.perf_counter() - began) / len(next_posts))
    return statistics.median(samples)


def at_next_nomination_window(state: GameState) -> GameState:
    """Advance to the start of the next nomination window, so both states face the same day."""
    state = advance(state, state.phase_ends_at).state
    while state.phase is not Phase.NOMINATION:
        state = advance(state, state.phase_ends_at).state
    return state


def following(state: GameState, spare: list[Post]) -> list[Post]:
    """The same 100 new posts, one a minute from the start of the state's current phase."""
    begins = state.phase_ends_at - state.setup.lengths.of(state.phase)
    return [Post(10**6 + i, p.author, begins + timedelta(minutes=i + 1), p.raw)
            for i, p in enumerate(spare[:100])]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--posts", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    setup = make_setup()
    posts = synthetic_posts(args.posts + 200, args.seed)
    game, spare = posts[:args.posts], posts[args.posts:]
    rate = best_replay_rate(setup, game)
    small = at_next_nomination_window(replay(GameState.from_setup(setup), game[:100]).state)
    large = at_next_nomination_window(replay(GameState.from_setup(setup), game).state)
    cost_small = per_post_cost(small, following(small, spare))
    cost_large = per_post_cost(large, following(large, spare))
    result = {
        "posts": len(game),
        "players": len(PLAYERS),
        "days_played": len(large.past_days),
        "replay_posts_per_s": round(rate),
        "per_post_cost_us_100": round(cost_small * 1e6, 1),
        "per_post_cost_us_10k": round(cost_large * 1e6, 1),
        "per_post_cost_ratio_10k_vs_100": round(cost_large / cost_small, 3),
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
