"""Names asked in the fewest requests Discourse allows (deal_guard.py, identities.py): the
mention check answers many names at once; a place's id comes from the game file, or from one
look-up before the game starts, kept in the store, never from a post; a long thread is read by
id (thread_reads.py)."""

import dataclasses
from datetime import UTC, datetime

import pytest

from modbot.adapters.forum import ForumClient
from modbot.adapters.port import ForumPost
from modbot.adapters.store import Store
from modbot.app.games.identities import Identities
from modbot.app.reading.thread_reads import PagedReads
from modbot.app.starting.deal_guard import DealGuard
from modbot.core.state.model import GameSetup, Seat

from ..sandbox_fixtures import KEY, populated

CHECK = "GET /u/is_local_username(.json)"


@pytest.fixture()
def forum():
    server, client, topic = populated()
    yield server, client, topic
    server.stop()


def _setup(n: int, names: list[str], topic: int = 1) -> GameSetup:
    return GameSetup(f"game {n}", tuple(Seat(name) for name in names),
                     datetime(2026, 12, 1, tzinfo=UTC), storytellers=("modbot",),
                     topic_id=topic)


def test_forty_games_names_are_checked_fifty_to_a_request(forum):
    server, client, _ = forum
    setups = []
    for n in range(40):
        names = [f"g{n:02d}p{i}" for i in range(8)]
        for name in names:
            client.ok("POST", "/users.json", data={"username": name, "name": name})
        setups.append(_setup(n, names))
    setups[3] = _setup(3, ["g03p0", "Brianaa"])  # a typo: no such user
    guard = DealGuard(ForumClient(server.url, "modbot", KEY))
    before = server.counts[CHECK]
    guard.check(setups)
    names = {name.lower() for s in setups for name in [x.name for x in s.seats] + ["modbot"]}
    assert server.counts[CHECK] - before == -(-len(names) // 50)  # 316 names, 7 requests
    assert not any(label.startswith("GET /users/") for label in server.counts)
    assert guard.unknown_names(setups[0]) is None
    assert guard.unknown_names(setups[3]) == [(2, "Brianaa", ("Brianna",))]
    guard.check(setups)
    assert server.counts[CHECK] - before == -(-len(names) // 50)  # each name asked once


def test_the_mention_check_answers_as_discourse_does(forum):
    _, client, _ = forum
    body = client.ok("GET", "/u/is_local_username.json", "modbot",
                     params={"usernames[]": ["ALEX", "nobody", "Cameron"]})
    assert sorted(body["valid"]) == ["alex", "cameron"] and body["valid_groups"] == []
    one = client.ok("GET", "/u/is_local_username.json", "modbot", params={"username": "Brianna"})
    assert one["valid"] == ["brianna"]


class _Game:
    """What identities.py reads of a running game."""

    def __init__(self, setup: GameSetup) -> None:
        self.setup = setup
        self.topic_id = setup.topic_id
        self.state = type("State", (), {"seats": setup.seats, "setup": setup, "slots": ()})()
        self.options = type("Options", (), {"threads": ()})()
        self.inputs: list[tuple] = []


def test_places_are_bound_by_the_game_file_or_one_look_up_never_by_a_post(forum, tmp_path):
    server, _, topic = forum
    store = Store(f"sqlite:///{tmp_path}/names.sqlite")
    try:
        identities = Identities(ForumClient(server.url, "modbot", KEY), store)
        alex = server.forum.user("Alex")
        setup = _setup(1, ["Alex", "Brianna", "Cameron"], topic)
        game = _Game(dataclasses.replace(setup, user_ids=(("Alex", alex.id),)))
        binding = identities.bind(game)
        assert binding.names == {alex.id: "Alex"}  # the file's id, nothing asked
        assert binding.unbound == ("Brianna", "Cameron", "modbot")
        zed = server.forum.add_user("Zed")  # in no game
        stranger = ForumPost(1, topic, 2, "Brianna", "2026-12-02T10:00:00Z", user_id=zed.id)
        assert identities.stranger(game, stranger)  # an unbound name is no one's to take
        before = server.counts["GET /users/{username}.json"]
        found = identities.look_up(topic, list(binding.unbound))
        assert server.counts["GET /users/{username}.json"] - before == 3
        assert found == {n: server.forum.user(n).id for n in ("Brianna", "Cameron", "modbot")}
        again = Identities(ForumClient(server.url, "modbot", KEY), store)
        rebound = again.bind(game)  # a restart: the ids are in the store
        assert rebound.names == identities.bind(game).names and not rebound.unbound
        assert again.stranger(game, stranger)  # Zed's account under Brianna's name
        assert not again.stranger(game, dataclasses.replace(stranger, username="Zed"))
        cameron = dataclasses.replace(stranger, user_id=server.forum.user("Cameron").id)
        assert again.renamed_author(game, cameron) == ("Cameron", "Brianna")  # by id: a rename
    finally:
        store.close()


def test_a_thread_is_read_by_id_and_a_read_broken_off_goes_on_where_it_was(forum, tmp_path):
    server, client, topic = forum
    for i in range(100):
        client.post(("Alex", "Brianna")[i % 2], f"More table talk, line number {i}.",
                    topic_id=topic)
    store = Store(f"sqlite:///{tmp_path}/reads.sqlite")
    try:
        reads = PagedReads(pages=1, store=store)
        assert reads.read(ForumClient(server.url, "modbot", KEY), topic) is None  # not yet
        assert reads.progress(topic) == (70, 55)  # 20 by number, then 50 by id
        again = PagedReads(pages=2, store=store)  # a restart: the place is in the store
        posts = again.read(ForumClient(server.url, "modbot", KEY), topic)
        assert posts is not None
        numbers = [p.post_number for p in posts]
        assert numbers == list(range(1, len(server.forum.topics[topic].posts) + 1))
        assert store.thread_read(f"{topic}:") is None  # done: nothing kept
    finally:
        store.close()
