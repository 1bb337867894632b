"""The daemon's start-up spends the forum's minute where it matters first (issue 37): the games
whose threads were posted in last start first, and a place the game file binds by user id is
not asked by name again."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from modbot.adapters.forum import ForumClient
from modbot.adapters.store import Store
from modbot.app.running.service import Service, Settings
from modbot.app.starting.deal_guard import DealGuard
from modbot.core.state.model import GameSetup, Seat
from modbot.sandbox.forum import Forum
from modbot.sandbox.models import ManualClock
from modbot.sandbox.server import SandboxServer

START = datetime(2026, 12, 1, 18, tzinfo=UTC)


def _setup(n: int, topic: int, ids=()) -> GameSetup:
    return GameSetup(f"game {n}", tuple(Seat(f"g{n}p{i}") for i in range(5)), START,
                     storytellers=("host",), topic_id=topic, user_ids=ids)


def test_the_games_posted_in_last_start_first(tmp_path):
    clock = ManualClock(START)
    server = SandboxServer(0, api_key="k", forum=Forum(clock)).start()
    forum = server.forum
    forum.add_user("modbot", moderator=True)
    host = forum.add_user("host", moderator=True)
    setups = []
    for n in range(4):
        for i in range(5):
            forum.add_user(f"g{n}p{i}")
        topic = forum.create(host, {"title": f"Start-up order game {n}", "category": 1,
                                    "raw": "The game thread of a test game."}, api=False)
        setups.append(_setup(n, topic.topic_id))
    for n in (2, 1):  # game 2's thread, then game 1's, had a post lately
        clock.set(clock.now() + timedelta(minutes=5))
        forum.create(forum.user(f"g{n}p0"), {"topic_id": setups[n].topic_id,
                                             "raw": "I nominate g1p1 for being quiet."}, api=False)
    store = Store(f"sqlite:///{tmp_path}/bot.sqlite")
    try:
        service = Service(ForumClient(server.url, "modbot", "k"), store, setups,
                          Settings(settle_seconds=0))
        service.start()
        order = [service.waiting[t].name for t in service.waiting]
        assert order[:2] == ["game 1", "game 2"]  # the latest post first
    finally:
        store.close()
        server.stop()


class Asked:
    """A forum client that records the names asked (DealGuard's one request)."""

    def __init__(self) -> None:
        self.asked: list[list[str]] = []

    def local_usernames(self, names):
        self.asked.append(list(names))
        return set(names)


def test_names_the_game_file_binds_by_id_are_not_asked_again():
    client = Asked()
    guard = DealGuard(client)  # type: ignore[arg-type]
    ids = (*((f"g0p{i}", 100 + i) for i in range(5)), ("host", 99))
    bound = _setup(0, 7, ids)
    guard.check([bound])
    assert client.asked == [] and guard.unknown_names(bound) is None  # starts at once
    half = _setup(1, 8, ids=(("g1p0", 200),))
    guard.check([half])
    assert client.asked == [["g1p1", "g1p2", "g1p3", "g1p4", "host"]]
    assert guard.unknown_names(half) is None


def test_the_busiest_games_names_are_asked_first():
    """Issue 51: the games come busiest first (the start-up's order, test above); their names
    are asked in that order, so the busiest game's are in the first request whatever they are
    called, and a request the budget puts off holds back the quieter games only."""
    client = Asked()
    guard = DealGuard(client)  # type: ignore[arg-type]
    games = [_setup(n, 10 + n) for n in (9, *range(9), 10, 11)]  # 13 games, 66 names: 2 asks
    guard.check(games)
    assert len(client.asked) == 2
    assert {f"g9p{i}" for i in range(5)} <= set(client.asked[0])  # sorted, they would be last
    assert guard.unknown_names(games[0]) is None
