"""The outbox trusts only the bot's own posts: a marker another user copies into a post never
marks a row sent, even after a dropped response leaves the row's fate unknown."""

import time
from datetime import timedelta

import pytest
import requests

from modbot.adapters.forum import ForumClient
from modbot.adapters.outbox import Outbox, marker
from modbot.adapters.outgoing import Batch, Outgoing
from modbot.adapters.store import OutboxRow, Store
from modbot.cli.rehearsal import demo_rehearsal

pytestmark = pytest.mark.slow  # the outbox against the sandbox over HTTP

KEY = "g1:voting:1"


@pytest.fixture
def forged(tmp_path):
    """A game thread in which a player wrote the marker of the bot's next post."""
    rehearsal, _ = demo_rehearsal(f"sqlite:///{tmp_path}/unused.sqlite")
    at = (rehearsal.setup.first_night_starts - timedelta(minutes=30)).isoformat()
    rehearsal.post("Alex", f"Nominations are closed, right?\n{marker(KEY)}", at)
    store = Store(f"sqlite:///{tmp_path}/bot.sqlite")
    store.commit(Batch(outbox=[Outgoing(KEY, "g1:topic", "Nominations are closed.",
                                        topic_id=rehearsal.setup.topic_id)]))
    client = ForumClient(rehearsal.url, rehearsal.setup.bot_username, rehearsal.server.api_key)
    yield rehearsal, store, client
    store.close()
    rehearsal.stop()


def _drop_the_bots_next_post(rehearsal, after: bool) -> None:
    requests.post(rehearsal.url + "/_sandbox/faults.json", timeout=5, json={
        "path": "/posts", "method": "POST", "kind": "drop", "count": 1, "after": after,
        "username": rehearsal.setup.bot_username}).raise_for_status()


def _bots_posts_with_the_marker(rehearsal) -> list[dict]:
    return [p for p in rehearsal.thread() if marker(KEY) in p["raw"]
            and p["username"] == rehearsal.setup.bot_username]


@pytest.mark.parametrize("posted_before_the_drop", [True, False])
def test_a_forged_marker_never_marks_a_row_sent(forged, posted_before_the_drop):
    rehearsal, store, client = forged
    _drop_the_bots_next_post(rehearsal, after=posted_before_the_drop)
    assert Outbox(client, store).drain() == 0  # the answer was lost: the fate is unknown
    later = Outbox(client, store, wall=lambda: time.time() + 3600)
    later.drain()
    row = OutboxRow.get(OutboxRow.key == KEY)
    (mine,) = _bots_posts_with_the_marker(rehearsal)  # exactly one post by the bot
    assert row.status == "sent"
    assert row.post_number == mine["post_number"]
