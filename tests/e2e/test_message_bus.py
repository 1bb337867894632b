"""The forum pushes (issue 23): the daemon on a User API key long-polls the sandbox's
MessageBus, and a player's post is handled at once, though the bot's polling and its sweep are
ten minutes apart; the channels' last ids are stored for a restart; a forum without the bus
is left to polling."""

import os
import signal
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from modbot import cli
from modbot.adapters.budget import DAY_CURSOR, SLOT
from modbot.adapters.store import Store
from modbot.adapters.user_key import SavedKey, save_key
from modbot.sandbox.forum import Forum
from modbot.sandbox.message_bus import BACKLOG
from modbot.sandbox.server import SandboxServer

from ..sandbox_fixtures import KEY, Client

pytestmark = pytest.mark.slow  # the daemon against the sandbox over HTTP, in real time

PLAYERS = ("Alex", "Brianna", "Cameron", "Derek", "Ellen")


@pytest.fixture
def forum(tmp_path):
    forum = Forum(limits=False)  # real time: the players' posts come seconds apart
    bot = forum.add_user("modbot", moderator=True)
    for name in ("nightingale", *PLAYERS):
        forum.add_user(name)
    server = SandboxServer(0, api_key=KEY, forum=forum, admin_api_limit=0).start()
    server.user_keys.per_minute = 100  # as the config's requests_per_minute: see _config
    topic = forum.create(bot, {"title": "Bus test: the game thread", "category": 1,
                               "raw": "The opening post of the bus test."}, api=False).topic_id
    granted = server.user_keys.grant(bot, {"client_id": "c1", "application_name": "modbot",
                                           "scopes": "write,message_bus,session_info"})
    save_key(tmp_path / "modbot.key", SavedKey(server.url, "modbot", granted.key, "c1"))
    started = datetime.now(UTC) - timedelta(hours=37)  # now: day 1's nominations
    # every place's user id in the file, as `modbot check` writes them (no look-up at start)
    (tmp_path / "game.toml").write_text(
        f'[game]\nname = "Bus test"\nstorytellers = ["nightingale"]\ntopic_id = {topic}\n'
        f'storyteller_ids = [{forum.user("nightingale").id}]\nbot_id = {bot.id}\n'
        f'first_night_starts = "{started:%Y-%m-%dT%H:%M:%SZ}"\n'
        + "".join(f'[[seat]]\nplayer = "{n}"\nuser_id = {forum.user(n).id}\n' for n in PLAYERS))
    yield server, topic, tmp_path
    server.stop()


def _config(folder, server, bus: bool = True) -> str:
    path = folder / "modbot.toml"
    path.write_text(f'[forum]\nurl = "{server.url}"\nusername = "modbot"\n'
                    'user_api_key_file = "modbot.key"\n'
                    f'[bot]\ndatabase_url = "sqlite:///{folder}/bot.sqlite"\npoll_seconds = 600\n'
                    f'bus_sweep_seconds = 600\nvote_count_minutes = 0\nsettle_seconds = 0\n'
                    # this test is the bus's: the key's per-minute budget has its own tests
                    'requests_per_minute = 100\n'
                    f'message_bus = {"true" if bus else "false"}\n'
                    '[[game]]\nfile = "game.toml"\n')
    return str(path)


def _nominate_soon(server, topic) -> threading.Timer:
    timer = threading.Timer(2.0, lambda: Client(server).post(
        "Alex", "/nominate Brianna\nShe has been very quiet.", topic_id=topic))
    timer.start()
    return timer


def test_a_post_is_handled_at_once_over_the_bus(forum):
    server, topic, folder = forum
    timer = _nominate_soon(server, topic)
    assert cli.main(["run", "--config", _config(folder, server), "--max-cycles", "2"]) == 0
    timer.join()
    raws = [p.raw for p in server.forum.topics[topic].posts if p.username == "modbot"]
    assert any(":vc:1.1:open:execution:Brianna -->" in raw for raw in raws)
    assert server.bus.polls >= 1 and server.counts.get("POST /message-bus/poll", 0) >= 1
    # the start-up's listing (the first cycle started the game, whose thread it had just read
    # to its end: no second listing); the woken cycle read the thread alone
    assert server.counts["GET /latest.json"] == 1 and server.counts["GET /private-posts.json"] == 1
    store = Store(f"sqlite:///{folder}/bot.sqlite")
    nominated = next(n for n, data, _ in server.bus.channels[f"/topic/{topic}"]
                     if data["user_id"] == server.forum.user("Alex").id)
    try:  # a restart resumes from the backlog after the nomination's message, at least
        assert store.cursor(f"bus:/topic/{topic}") >= nominated
    finally:
        store.close()
    (granted,) = server.user_keys.keys.values()
    assert len(granted.day) < 40  # every request was the key's own, within its day


def test_a_forum_without_the_bus_is_polled(forum, caplog):
    server, topic, folder = forum
    server.bus.enabled = False
    path = _config(folder, server).replace("poll_seconds = 600", "poll_seconds = 1")
    text = (folder / "modbot.toml").read_text().replace("poll_seconds = 600", "poll_seconds = 1")
    (folder / "modbot.toml").write_text(text)
    # a post just before the start: the game is busy, so the User API key's day lets the bot poll at
    # the minute's pace (a quiet game's would be 123 s: request_plan.py)
    Client(server).post("Cameron", "Good morning, town. Who claims what today?", topic_id=topic)
    timer = _nominate_soon(server, topic)
    with caplog.at_level("WARNING", logger="modbot.app.reading.bus_watch"):
        assert cli.main(["run", "--config", path, "--max-cycles", "5"]) == 0
    timer.join()
    raws = [p.raw for p in server.forum.topics[topic].posts if p.username == "modbot"]
    assert any(":vc:1.1:open:execution:Brianna -->" in raw for raw in raws)
    assert sum("refuses MessageBus" in r.message for r in caplog.records) == 1


def _stored(folder, name: str) -> int:
    store = Store(f"sqlite:///{folder}/bot.sqlite")
    try:
        return store.cursor(name)
    finally:
        store.close()


def _first_day(server, topic, folder) -> tuple[str, int]:
    """The daemon runs the nomination in, then stops as a restart would; the stored last id."""
    config = _config(folder, server)
    timer = _nominate_soon(server, topic)
    assert cli.main(["run", "--config", config, "--max-cycles", "2"]) == 0
    timer.join()
    resumed = _stored(folder, f"bus:/topic/{topic}")
    assert resumed > 0
    return config, resumed


def _counted(server, topic) -> list[str]:
    return [p.raw for p in server.forum.topics[topic].posts
            if p.username == "modbot" and ":vc:1." in p.raw]


VOTERS = ("Alex", "Cameron", "Derek")  # Alex votes ahead of the hand; the others lock


def _vote(server, topic, voter: str) -> int:
    post = Client(server).post(voter, f"/vote Brianna yes\n{voter} agrees: too quiet.",
                               topic_id=topic)
    return post["post_number"]


def _locked(latest: str, topic, numbers) -> bool:
    return all(f"(/t/{topic}/{n})" in latest for n in numbers)


def test_a_restarted_daemon_resumes_from_the_bus_backlog_with_nothing_lost(forum):
    server, topic, folder = forum
    config, resumed = _first_day(server, topic, folder)
    counts_before = len(_counted(server, topic))
    numbers = [_vote(server, topic, voter) for voter in VOTERS]  # while the bot is down
    asked_before = len(server.bus.asked)
    assert cli.main(["run", "--config", config, "--max-cycles", "2"]) == 0
    restarted = list(server.bus.asked)[asked_before]
    assert restarted[f"/topic/{topic}"] == resumed  # from the stored id, not from now (-1)
    assert _locked(_counted(server, topic)[-1], topic, numbers[1:])
    counts = _counted(server, topic)[counts_before:]
    assert len(counts) == len(set(counts)) == len(VOTERS)  # a count a vote, none sent twice
    assert _stored(folder, f"bus:/topic/{topic}") >= resumed + len(VOTERS)
    (granted,) = server.user_keys.keys.values()  # the key's day is the forum's: the second
    assert _day_kept(folder) == len(granted.day)  # run counted the first's requests too


def _day_kept(folder) -> int:
    """The requests of the key's day the store keeps (adapters/budget.py's cursors)."""
    store = Store(f"sqlite:///{folder}/bot.sqlite")
    try:
        return sum(v % SLOT for v in store.cursors_with(DAY_CURSOR).values())
    finally:
        store.close()


def test_a_daemon_away_longer_than_the_backlog_catches_up_through_its_cursor(forum):
    server, topic, folder = forum
    config, resumed = _first_day(server, topic, folder)
    first = _vote(server, topic, "Cameron")  # soon out of the bus's backlog
    for n in range(BACKLOG + 20):
        Client(server).post(PLAYERS[n % 5], f"Talk while the bot is away, post {n}.",
                            topic_id=topic)
    last = _vote(server, topic, "Derek")
    oldest = server.bus.channels[f"/topic/{topic}"][0][0]
    assert oldest > resumed + 1  # the bus no longer holds what came just after the stored id
    assert cli.main(["run", "--config", config, "--max-cycles", "2"]) == 0
    assert _locked(_counted(server, topic)[-1], topic, (first, last))


def test_on_the_keys_own_limits_a_burst_of_votes_meets_no_429(forum):
    """The bus's held polls are charged to the daemon's budget (18 of the key's 20 a minute),
    so a burst of votes (a wake-up, reads and a count each) waits for the bot's own minute
    instead of meeting the forum's 429; every vote is counted in the end."""
    server, topic, folder = forum
    server.user_keys.per_minute = 20  # Discourse's default max_user_api_reqs_per_minute
    path = Path(_config(folder, server))  # the bot's own budget, as shipped, and the clock's
    # tick as shipped (poll_seconds = 15): a count owed after a read the budget put off falls
    # due between wake-ups, and the tick runs it (the bus wakes the bot only for new posts)
    path.write_text(path.read_text().replace("requests_per_minute = 100\n", "")
                    .replace("poll_seconds = 600", "poll_seconds = 15"))
    numbers: list[int] = []

    def players() -> None:
        try:
            time.sleep(2)
            Client(server).post("Alex", "/nominate Brianna\nShe has been very quiet.",
                                topic_id=topic)
            for voter in ("Alex", "Cameron", "Derek", "Ellen"):
                time.sleep(1.5)
                numbers.append(_vote(server, topic, voter))
            ends = time.monotonic() + 150
            while time.monotonic() < ends and not (
                    _counted(server, topic) and _locked(_counted(server, topic)[-1], topic,
                                                        numbers[1:])):
                time.sleep(0.2)
        finally:
            os.kill(os.getpid(), signal.SIGINT)  # the daemon stops after its cycle

    thread = threading.Thread(target=players, daemon=True)
    thread.start()
    assert cli.main(["run", "--config", str(path)]) == 0
    thread.join()
    assert _locked(_counted(server, topic)[-1], topic, numbers[1:])
    assert server.bus.polls >= 1 and server.user_keys.refused == 0


def test_a_bus_reset_is_adopted_without_a_spin_and_nothing_is_missed(forum):
    """The bus's store is flushed mid-day (its ids start again from 1): the watch adopts the
    bus's ids from its `/__status` answer instead of polling from ids the bus no longer has
    (today: ~110 instant polls a minute), and a full read finds the vote made after it."""
    server, topic, folder = forum
    config = _config(folder, server)
    seen: dict[str, float] = {}

    def players() -> None:
        try:
            time.sleep(2)
            Client(server).post("Alex", "/nominate Brianna\nShe has been very quiet.",
                                topic_id=topic)
            time.sleep(3)
            server.bus.reset()
            seen["polls"], seen["at"] = server.bus.polls, time.monotonic()
            time.sleep(1)
            number = _vote(server, topic, "Cameron")
            ends = time.monotonic() + 60
            while time.monotonic() < ends and not any(
                    f"(/t/{topic}/{number})" in raw for raw in _counted(server, topic)):
                time.sleep(0.2)
            seen["counted"] = any(f"(/t/{topic}/{number})" in raw for raw in _counted(server, topic))
            time.sleep(3)  # the watch settles on the bus's new ids: held polls again
            seen["polls_after"] = server.bus.polls - seen["polls"]
            seen["seconds"] = time.monotonic() - seen["at"]
        finally:
            os.kill(os.getpid(), signal.SIGINT)  # the daemon stops after its cycle

    thread = threading.Thread(target=players, daemon=True)
    thread.start()
    assert cli.main(["run", "--config", config]) == 0
    thread.join()
    assert seen["counted"]
    assert seen["polls_after"] <= 8, seen  # a handful in the seconds after it, not a spin
    assert server.bus.last[f"/topic/{topic}"] >= 1
