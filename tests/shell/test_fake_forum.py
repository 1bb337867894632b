"""The sandbox in memory (modbot/sandbox/local.py): the same answers as over HTTP, no socket,
so the service's logic runs in the fast loop. The demo day played on it leaves the bot posts
it leaves on the HTTP sandbox; faults act as a socket's would."""

from datetime import UTC, datetime, timedelta

import pytest

from modbot.adapters.forum import ForumClient, TransientError
from modbot.cli.rehearsal import day_end, demo_rehearsal
from modbot.sandbox.local import URL, LocalSandbox

from ..e2e.test_e2e import EXPECTED_PUBLIC, MARKER, markers


def _play(tmp_path, local: bool):
    rehearsal, script = demo_rehearsal(f"sqlite:///{tmp_path}/{local}.sqlite", private=True,
                                       local=local)
    rehearsal.start_bot()
    rehearsal.clock.set(rehearsal.setup.first_night_starts)
    rehearsal.service.cycle(rehearsal.setup.first_night_starts)
    last = datetime.fromisoformat(script[-1]["created_at"])
    rehearsal.play(script, finish_at=max(last, day_end(rehearsal.setup)) + timedelta(hours=1))
    return rehearsal


def test_the_demo_day_plays_out_in_memory(tmp_path):
    rehearsal = _play(tmp_path, local=True)
    try:
        assert isinstance(rehearsal.server, LocalSandbox)
        public = [m for p in rehearsal.thread() for m in MARKER.findall(p["raw"])]
        assert public[1] == "g1:seal"  # the private side deals: the grimoire is sealed
        public.remove("g1:seal")
        assert public[:len(EXPECTED_PUBLIC) - 1] == EXPECTED_PUBLIC[:-1]  # counts, execution
        assert not rehearsal.store.pending() and not rehearsal.store.outbox_counts().get("failed")
        assert rehearsal.server.counts["GET /latest.json"] > 0  # the bot's requests, counted
    finally:
        rehearsal.stop()


@pytest.mark.slow
def test_the_same_day_leaves_the_same_posts_in_memory_and_over_http(tmp_path):
    local, http = _play(tmp_path, local=True), _play(tmp_path, local=False)
    try:
        assert markers(local) == markers(http)
        assert [p["raw"] for p in local.thread()] == [p["raw"] for p in http.thread()]
    finally:
        local.stop()
        http.stop()


def test_faults_act_as_a_socket_would():
    sandbox = LocalSandbox(api_key="k", forum=None)
    sandbox.forum.add_user("modbot", moderator=True)
    client = sandbox.client("modbot", api_key="k")
    session = sandbox.session()
    for kind in ("timeout", "drop", "500"):
        session.post(URL + "/_sandbox/faults.json", json={"path": "/latest.json", "kind": kind})
        with pytest.raises(TransientError):
            client.topics_listed([1])
    assert client.topics_listed([1]).get("topics", []) == []  # the faults are spent
    assert session.get(URL + "/latest.json", headers={"Api-Key": "wrong"}).status_code == 403


def test_the_bot_acts_by_user_id_in_memory_too():
    sandbox = LocalSandbox(api_key="k")
    bot = sandbox.forum.add_user("modbot", moderator=True)
    client = ForumClient(URL, "someone-else", "k")
    client.session.mount(URL + "/", sandbox.session().get_adapter(URL + "/"))
    client.api_user_id = bot.id
    assert client.current_user()["username"] == "modbot"
    assert datetime.fromisoformat(client.forum_time().replace("Z", "+00:00")).tzinfo == \
        UTC
