"""Benchmark: the town square picture of a vote count, against the text of the same count.

Prints one JSON object:
- picture_ms_20_seats: the best of 20 renderings of the picture for 20 seats (long names, the
  dead, vote tokens, a traveller, locked and cast votes, the clock hand), PNG encoding included;
- text_ms_20_seats: the best of 20 renderings of the same vote count's text (the template);
- picture_to_text_ratio: the two, divided;
- picture_bytes_20_seats: the PNG's size (the budget is 80 KB);
- requests_per_vote_count: requests the outbox makes to deliver one vote count with its
  picture (one upload, one post), on the sandbox over loopback;
- requests_per_idle_cycle: requests of a poll cycle with nothing new, pictures on (as before: 2).

Run: python benchmarks/picture.py
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from modbot.adapters.forum import ForumClient
from modbot.adapters.outbox import Outbox
from modbot.adapters.outgoing import Batch, Outgoing, Rendered
from modbot.adapters.store import Store
from modbot.app.picture import vote_picture
from modbot.app.posting.render import render
from modbot.app.posting.views import vote_count_view
from modbot.app.running.service import Service, Settings
from modbot.core import GameSetup, GameState, Post, Seat, replay
from modbot.sandbox.forum import Forum
from modbot.sandbox.models import ManualClock
from modbot.sandbox.server import SandboxServer

START = datetime(2026, 12, 1, 18, tzinfo=UTC)
NAMES = tuple(f"{name}_{n}" for n, name in enumerate(
    ["Alexandra", "Bartholomew", "Cassiopeia", "Dmitri", "Evangeline", "Fitzgerald", "Gus",
     "Hildegard", "Ignatius", "Josephine", "Kazimierz", "Leopoldine", "Maximilian", "Nadia",
     "Octavian", "Persephone", "Quentin", "Rosalind", "Sebastian", "Theodora"], 1))


def twenty_seats() -> GameState:
    seats = tuple(Seat(name, alive=index not in (3, 9, 14), ghost_vote=index != 9,
                       traveller=index == 19) for index, name in enumerate(NAMES))
    setup = GameSetup(name="Benchmark", seats=seats, first_night_starts=START, topic_id=1)
    day = START + timedelta(hours=24 + 12)  # nominations open
    posts = [Post(1, "host", START, "The game thread."),
             Post(2, NAMES[0], day + timedelta(minutes=5), f"/nominate {NAMES[7]}")]
    posts += [Post(3 + i, NAMES[8 + i], day + timedelta(minutes=10 + i),
                   f"/vote {NAMES[7]} {'yes' if i % 3 else 'no'}") for i in range(10)]
    return replay(GameState.from_setup(setup), posts, day + timedelta(hours=1)).state


def best_ms(function, repeats: int = 20) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best * 1000


def requests_per_vote_count(state: GameState, view: dict) -> int:
    picture = vote_picture(state, view)
    raw = render("votecount.md.j2", vc=view, picture=picture)
    server = SandboxServer(0, api_key="k", forum=Forum(ManualClock(START))).start()
    try:
        forum = server.forum
        forum.add_user("modbot", moderator=True)
        topic = forum.create(forum.user("modbot"), {"title": "Benchmark game thread",
                                                    "category": 1, "raw": "The game thread of the benchmark."},
                             api=False).topic_id
        with tempfile.TemporaryDirectory() as folder:
            store = Store(f"sqlite:///{folder}/bench.sqlite")
            store.commit(Batch(outbox=[Outgoing("g1:vc:1.1", "g1:topic",
                Rendered(raw, ((picture.sha1, picture.png),)), topic_id=topic)]))
            client = ForumClient(server.url, "modbot", "k")
            Outbox(client, store).drain()
            store.close()
            return client.requests_made
    finally:
        server.stop()


def requests_per_idle_cycle() -> int:
    clock = ManualClock(START)
    server = SandboxServer(0, api_key="k", forum=Forum(clock)).start()
    try:
        forum = server.forum
        forum.add_user("modbot", moderator=True)
        for name in NAMES[:7]:
            forum.add_user(name)
        topic = forum.create(forum.user("modbot"), {"title": "Benchmark game thread",
                                                    "category": 1, "raw": "The game thread of the benchmark."},
                             api=False).topic_id
        setup = GameSetup(name="Idle", seats=tuple(Seat(n) for n in NAMES[:7]),
                          first_night_starts=START, topic_id=topic)
        with tempfile.TemporaryDirectory() as folder:
            store = Store(f"sqlite:///{folder}/bench.sqlite")
            client = ForumClient(server.url, "modbot", "k")
            service = Service(client, store, [setup], Settings(settle_seconds=0))
            service.start()
            at = START + timedelta(minutes=1)
            clock.set(at)
            for _ in range(3):
                service.cycle(at)
                service.drain()
            before = client.requests_made
            service.cycle(at + timedelta(seconds=15))
            store.close()
            return client.requests_made - before
    finally:
        server.stop()


def main() -> int:
    state = twenty_seats()
    view = vote_count_view(state, number=1, as_of=12, topic_id=1)
    picture = vote_picture(state, view)
    picture_ms = best_ms(lambda: vote_picture(state, view))
    text_ms = best_ms(lambda: render("votecount.md.j2", vc=view, picture=None))
    print(json.dumps({
        "picture_ms_20_seats": round(picture_ms, 1),
        "text_ms_20_seats": round(text_ms, 2),
        "picture_to_text_ratio": round(picture_ms / text_ms, 1),
        "picture_bytes_20_seats": len(picture.png),
        "requests_per_vote_count": requests_per_vote_count(state, view),
        "requests_per_idle_cycle": requests_per_idle_cycle(),
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
