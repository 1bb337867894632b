"""A vote count's picture goes out with it: uploaded once (`POST /uploads.json`, as Discourse's
composer does) and embedded as `upload://`; a failed upload never holds back or loses the
count; a crash between the upload and the post never makes a second upload."""

from __future__ import annotations

import time

import pytest
import requests

from modbot.adapters.forum import ForumClient
from modbot.adapters.outbox import Outbox
from modbot.adapters.outgoing import Batch, Outgoing, Rendered
from modbot.adapters.store import OutboxRow, PictureRow, Store
from modbot.app.picture import drawing

from ..sandbox_fixtures import game_thread
from .test_picture import _square

KEY = "g1:vc:1.1:post:5"


@pytest.fixture
def forum(tmp_path):
    server, topic = game_thread("A game thread for pictures")
    store = Store(f"sqlite:///{tmp_path}/bot.sqlite")
    picture = drawing.draw(_square())
    raw = (f"## Vote count 1.1\n\n![{picture.alt}|690x500](modbot-picture:{picture.sha1})\n\n"
           "Votes / needed: Derek **2**/5")
    store.commit(Batch(outbox=[Outgoing(KEY, "g1:topic",
                Rendered(raw, ((picture.sha1, picture.png),)), topic_id=topic)]))
    yield server, store, ForumClient(server.url, "modbot", "master"), topic
    store.close()
    server.stop()


def _fault(server, kind: str, **extra) -> None:
    requests.post(server.url + "/_sandbox/faults.json", timeout=5, json={
        "path": "/uploads", "method": "POST", "kind": kind, "count": 1, **extra}).raise_for_status()


def _posted(server, topic: int) -> list[str]:
    return [p.raw for p in server.forum.topics[topic].posts[1:]]


def test_the_picture_is_uploaded_and_embedded_in_two_requests(forum):
    server, store, client, topic = forum
    before = client.requests_made
    assert Outbox(client, store).drain() == 1
    assert client.requests_made - before == 2  # one upload, one post
    (raw,) = _posted(server, topic)
    (upload,) = server.uploads.by_sha1.values()
    assert f"|690x500](upload://{upload.base62}.png)" in raw
    assert "modbot-picture:" not in raw
    assert PictureRow.get().short_url == f"upload://{upload.base62}.png"


@pytest.mark.parametrize("kind", ["500", "422", "timeout"])
def test_a_failed_upload_posts_the_count_without_its_picture(forum, kind):
    server, store, client, topic = forum
    client.timeout = 1
    _fault(server, kind, delay=2)
    assert Outbox(client, store).drain() == 1
    (raw,) = _posted(server, topic)
    assert "Votes / needed: Derek **2**/5" in raw and "![" not in raw and "modbot-picture" not in raw
    assert OutboxRow.get().status == "sent"


def test_a_rate_limited_upload_holds_the_count_back_and_loses_nothing(forum):
    server, store, client, topic = forum
    _fault(server, "429", wait_seconds=1)
    assert Outbox(client, store).drain() == 0
    assert _posted(server, topic) == [] and OutboxRow.get().status == "pending"
    later = Outbox(client, store, wall=lambda: time.time() + 3600)
    assert later.drain() == 1
    (raw,) = _posted(server, topic)
    assert "(upload://" in raw


def test_a_crash_between_the_upload_and_the_post_never_uploads_twice(forum, monkeypatch):
    server, store, client, topic = forum

    def crash(*_args):
        raise SystemExit("the process died after the upload")
    monkeypatch.setattr(store, "mark_uploaded", crash)
    with pytest.raises(SystemExit):
        Outbox(client, store).drain()
    monkeypatch.undo()
    assert Outbox(client, store, wall=lambda: time.time() + 3600).drain() == 1
    assert len(server.uploads.by_sha1) == 1  # the same bytes: the same upload
    assert len(_posted(server, topic)) == 1
