"""`vote_counts = "edit"`: one running vote count a day, edited in place (issue 16)."""

from __future__ import annotations

import pytest
import requests

from modbot.adapters.forum import ForumClient
from modbot.adapters.outbox import Outbox, marker
from modbot.adapters.outgoing import Batch, Outgoing
from modbot.adapters.store import OutboxRow, Store
from modbot.app.posting.reactions import GameOptions, Reactor
from modbot.cli.rehearsal import DEMO_GAME
from modbot.files.gamefile import GameFileError, load_game

from ..sandbox_fixtures import game_thread
from ..words.test_vote_forms import H, _nominations_open


def test_the_days_first_count_is_posted_and_the_later_ones_edit_it():
    talk, at = _nominations_open()
    reactor = Reactor(GameOptions(1, "g1", pictures=False, vote_counts="edit"))
    first = _count(reactor, talk.state, at, "open:execution:Derek")
    second, third = _count(reactor, talk.state, at + H), _count(reactor, talk.state, at + 2 * H)
    assert first.kind == "post" and first.edit_of is None
    assert (second.kind, second.edit_of) == (third.kind, third.edit_of) == ("edit", first.key)
    assert third.raw.startswith("## Vote count 1.3")  # the running count shows its number
    posted = _count(Reactor(GameOptions(1, "g1", pictures=False)), talk.state, at)
    assert posted.kind == "post"  # the default: each count a post of its own


def _count(reactor, state, at, reason="vc"):
    return reactor.vote_count(state, at, reason)


def test_a_game_file_says_post_or_edit(tmp_path):
    path = tmp_path / "game.toml"
    path.write_text(DEMO_GAME.read_text().replace('bot = "modbot"', 'bot = "modbot"\nvote_counts = "edit"'))
    assert load_game(path).vote_counts == "edit"
    path.write_text(DEMO_GAME.read_text().replace('bot = "modbot"', 'bot = "modbot"\nvote_counts = "often"'))
    with pytest.raises(GameFileError, match="neither \"post\""):
        load_game(path)


@pytest.fixture
def thread(tmp_path):
    server, topic = game_thread("A game thread for running counts")
    store = Store(f"sqlite:///{tmp_path}/bot.sqlite")
    yield server, store, ForumClient(server.url, "modbot", "master"), topic
    store.close()
    server.stop()


def _count_then_its_edit(store, topic: int) -> None:
    """The day's first count (a post) and the next one (an edit of it), owed in order."""
    store.commit(Batch(outbox=[
        Outgoing("g1:vc:1.1:open", "g1:topic", "## Vote count 1.1\n\nDerek **0**/4", topic_id=topic),
        Outgoing("g1:vc:1.2:vc", "g1:topic", "## Vote count 1.2\n\nDerek **2**/4", topic_id=topic,
                 kind="edit", edit_of="g1:vc:1.1:open")]))


def test_the_outbox_edits_the_running_count_in_place(thread):
    server, store, client, topic = thread
    _count_then_its_edit(store, topic)
    assert Outbox(client, store).drain() == 2
    posts = server.forum.topics[topic].posts
    assert len(posts) == 2  # the opening post and one running count
    assert posts[1].raw.startswith("## Vote count 1.2") and marker("g1:vc:1.1:open") in posts[1].raw
    assert OutboxRow.get(OutboxRow.key == "g1:vc:1.2:vc").post_number == 2
    store.commit(Batch(outbox=[Outgoing("g1:vc:1.3:vc", "g1:topic", "## Vote count 1.3\n\nDerek **3**/4",
                                        topic_id=topic, kind="edit", edit_of="g1:vc:1.1:open")]))
    Outbox(client, store).drain()
    assert server.forum.topics[topic].posts[1].raw.startswith("## Vote count 1.3")
    assert len(server.forum.topics[topic].posts) == 2


def test_an_edit_whose_post_could_not_be_made_is_posted_instead(thread):
    server, store, client, topic = thread
    store.commit(Batch(outbox=[Outgoing("g1:vc:1.2:vc", "g1:topic", "## Vote count 1.2\n\nDerek **2**/4",
                                        topic_id=topic, kind="edit", edit_of="g1:vc:1.1:missing")]))
    assert Outbox(client, store).drain() == 1
    assert server.forum.topics[topic].posts[-1].raw.startswith("## Vote count 1.2")


def test_an_edit_the_forum_refuses_is_posted_instead(thread):
    server, store, client, topic = thread
    _count_then_its_edit(store, topic)
    Outbox(client, store).drain(limit=1)
    requests.post(server.url + "/_sandbox/faults.json", timeout=5, json={
        "path": "/posts/", "method": "PUT", "kind": "422", "count": 1}).raise_for_status()
    Outbox(client, store).drain()
    raws = [p.raw for p in server.forum.topics[topic].posts[1:]]
    assert [r.splitlines()[0] for r in raws] == ["## Vote count 1.1", "## Vote count 1.2"]
