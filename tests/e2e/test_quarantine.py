"""An input that cannot be handled is quarantined, never fatal (issue 50): the game holds at
its time, its later inputs wait in order, the author and the Storytellers are told once, a
restart does not raise, `!status` lists it, `!retry qN` (after the fix) or `!discard qN --yes`
releases it and the game goes on; every other game goes on meanwhile. Over HTTP on the
sandbox; the fault is a core that raises on a marked post (a bug the next release mends)."""

from __future__ import annotations

import dataclasses
from datetime import datetime, timedelta

import pytest

from modbot.adapters.forum import ForumClient
from modbot.adapters.store import ParkedRow, QuarantineRow, SnapshotRow, Store
from modbot.app.games import runtime as runtime_module
from modbot.app.running.service import Service
from modbot.cli.rehearsal import day_end, demo_rehearsal

from .test_e2e import markers

pytestmark = pytest.mark.slow  # the bot against the sandbox over HTTP

BUG = "a bug the next release mends"


def _crash_on(monkeypatch, marker: str = "BOOM") -> None:
    original = runtime_module.handle_post

    def crashing(state, post):
        if marker in post.raw:
            raise RuntimeError(BUG)
        return original(state, post)

    monkeypatch.setattr(runtime_module, "handle_post", crashing)


def _mend(monkeypatch) -> None:
    monkeypatch.undo()


def _at(text: str) -> datetime:
    return datetime.fromisoformat(text)


def _pm_bodies(rehearsal, username: str) -> list[str]:
    """What the bot posted in the PM conversations `username` is in."""
    forum = rehearsal.server.forum
    return [p.raw for t in forum.topics.values() if t.is_pm
            and username.lower() in {u.lower() for u in t.allowed}
            for p in t.visible_posts() if p.username == "modbot"]


def _storytellers_say(rehearsal, text: str) -> list[str]:
    return [b for b in _pm_bodies(rehearsal, "nightingale") if text in b]


def _votes_on(game, nominee: str) -> dict[str, str]:
    """Each voter's vote on the nominee today (cast, or locked as cast)."""
    nomination = next(n for n in game.state.today.nominations if n.nominee == nominee)
    locked = {v.player: str(v.cast) for v in nomination.locked if v.cast is not None}
    return {**locked, **{p: str(v.value) for p, v in nomination.cast.items()}}


def _play_until(rehearsal, script, until: str) -> None:
    rehearsal.start_bot()
    rehearsal.clock.set(rehearsal.setup.first_night_starts)
    rehearsal.bot.cycle(rehearsal.setup.first_night_starts)
    rehearsal.play([i for i in script if i["created_at"] <= until])


def _tick(rehearsal, at: datetime) -> None:
    rehearsal.clock.set(at)
    rehearsal.bot.cycle(at)


@pytest.fixture
def held_day(tmp_path, monkeypatch):
    """Day 1's nominations, Fatima's post at 07:10 crashing the core: the game holds."""
    rehearsal, script = demo_rehearsal(f"sqlite:///{tmp_path}/held.sqlite", private=False)
    _crash_on(monkeypatch)
    try:
        _play_until(rehearsal, script, "2026-12-03T07:00:00Z")  # Alex nominates Derek (#8)
        rehearsal.post("Fatima", "/vote Derek\nBOOM, his claim does not add up.",
                       "2026-12-03T07:10:00Z")
        _tick(rehearsal, _at("2026-12-03T07:10:00Z"))
        yield rehearsal
    finally:
        rehearsal.stop()


def test_a_post_that_raises_holds_its_game_and_is_told_once(held_day):
    rehearsal = held_day
    game = next(iter(rehearsal.bot.games.values()))
    (row,) = QuarantineRow.select()
    assert (row.number, row.kind, row.status) == (1, "post", "open")
    assert BUG in row.error and "RuntimeError" in row.trace
    fatima = next(p for p in rehearsal.thread() if p["username"] == "Fatima" and "BOOM" in p["raw"])
    assert row.post_id == fatima["id"]
    key = f"g{game.topic_id}:quarantine:post:{fatima['id']}"
    assert markers(rehearsal).count(key) == 1
    (note,) = _storytellers_say(rehearsal, "could not handle a post")
    assert "q1" in note and f"/t/{game.topic_id}/{fatima['post_number']}" in note
    assert "!retry q1" in note and "!discard q1 --yes" in note and BUG in note
    told = [b for b in _pm_bodies(rehearsal, "Fatima") if "could not read your post" in b]
    assert len(told) == 1 and BUG not in told[0]  # no error, no game detail to the author
    assert "Fatima" not in _votes_on(game, "Derek")  # nothing of it was applied


def test_a_held_game_keeps_its_later_inputs_in_order_and_its_clock_still(held_day):
    rehearsal = held_day
    game = next(iter(rehearsal.bot.games.values()))
    phase = game.state.phase
    rehearsal.post("Ellen", "/vote Derek yes\nAgreed with Fatima.", "2026-12-03T08:30:00Z")
    _tick(rehearsal, _at("2026-12-03T08:30:00Z"))
    _tick(rehearsal, day_end(rehearsal.setup) + timedelta(hours=2))  # past every deadline
    assert [p.kind for p in ParkedRow.select()] == ["post"]
    assert "Ellen" not in _votes_on(game, "Derek")
    assert game.state.phase == phase  # the clock held at 07:10: no deadline applied
    rehearsal.store.close()
    rehearsal.start_bot()  # a restart: no raise, still held, nothing read twice
    _tick(rehearsal, day_end(rehearsal.setup) + timedelta(hours=3))
    game = next(iter(rehearsal.bot.games.values()))
    assert game.state.phase == phase and ParkedRow.select().count() == 1
    assert QuarantineRow.select().count() == 1


def test_status_lists_it_and_retry_after_the_fix_releases_the_game(held_day, monkeypatch):
    rehearsal = held_day
    rehearsal.post("Ellen", "/vote Derek yes\nAgreed with Fatima.", "2026-12-03T08:30:00Z")
    _tick(rehearsal, _at("2026-12-03T08:30:00Z"))
    rehearsal.post_pm("nightingale", "storytellers", "!status\nWhere are we?", "2026-12-03T09:00:00Z")
    _tick(rehearsal, _at("2026-12-03T09:00:00Z"))
    (status,) = _storytellers_say(rehearsal, "Inputs modbot could not handle")
    assert "q1" in status and "holding the game" in status
    rehearsal.post_pm("nightingale", "storytellers", "!retry q1\nTrying again.", "2026-12-03T09:05:00Z")
    _tick(rehearsal, _at("2026-12-03T09:05:00Z"))
    assert len(_storytellers_say(rehearsal, "q1 still could not be handled")) == 1
    assert QuarantineRow.get().status == "open" and QuarantineRow.get().attempts == 2
    _mend(monkeypatch)
    rehearsal.post_pm("nightingale", "storytellers", "!retry q1\nFixed now.", "2026-12-03T09:10:00Z")
    _tick(rehearsal, _at("2026-12-03T09:10:00Z"))
    game = next(iter(rehearsal.bot.games.values()))
    assert QuarantineRow.get().status == "retried" and QuarantineRow.get().resolved_by == "nightingale"
    assert ParkedRow.select().count() == 0
    votes = _votes_on(game, "Derek")
    assert votes["Fatima"] == votes["Ellen"] == "yes"
    (done,) = _storytellers_say(rehearsal, "Handled q1")
    assert "1 input that waited" in done
    end = day_end(rehearsal.setup) + timedelta(hours=1)
    _tick(rehearsal, end)
    assert game.state.phase.value == "night"  # the clock goes on once released
    inputs = [r for r in rehearsal.store.inputs(game.game_id) if r.kind in ("post", "tick")]
    fatima = next(i for i, r in enumerate(inputs) if "BOOM" in (r.raw or ""))
    ellen = next(i for i, r in enumerate(inputs) if r.author == "Ellen" and r.at.startswith("2026-12-03T08:30"))
    assert fatima < ellen  # in the order they were made


def test_a_rebuild_from_the_forum_quarantines_it_again_and_tells_no_one_twice(held_day,
                                                                             tmp_path):
    """The database lost while the game is held: the rebuild from the forum meets the post
    again, quarantines it the same way without raising, and adopts the notes the forum
    already shows (the author's and the Storytellers'), sending neither again."""
    rehearsal = held_day
    rehearsal.post("Ellen", "/vote Derek yes\nAgreed with Fatima.", "2026-12-03T08:30:00Z")
    _tick(rehearsal, _at("2026-12-03T08:30:00Z"))
    before = markers(rehearsal)
    rehearsal.store.close()
    rehearsal.database_url = f"sqlite:///{tmp_path}/rebuilt.sqlite"  # an empty one
    rehearsal.start_bot()
    _tick(rehearsal, _at("2026-12-03T08:45:00Z"))
    (row,) = QuarantineRow.select()
    assert (row.number, row.status, row.kind) == (1, "open", "post") and BUG in row.error
    assert ParkedRow.select().count() >= 1  # Ellen's vote waits behind it again
    after = markers(rehearsal)
    for kind in (":quarantine:post:", ":quarantined:"):
        assert sum(kind in m for m in after) == sum(kind in m for m in before) == 1
    assert any(":rebuilt:" in m for m in after)


def test_discard_needs_yes_then_drops_it_and_the_rest_follows(held_day):
    rehearsal = held_day
    rehearsal.post("Ellen", "/vote Derek yes\nAgreed.", "2026-12-03T08:30:00Z")
    _tick(rehearsal, _at("2026-12-03T08:30:00Z"))
    rehearsal.post_pm("nightingale", "storytellers", "!discard q1\nDrop it?", "2026-12-03T09:00:00Z")
    _tick(rehearsal, _at("2026-12-03T09:00:00Z"))
    assert QuarantineRow.get().status == "open"
    assert len(_storytellers_say(rehearsal, "!discard q1 --yes` drops this input")) == 1
    rehearsal.post_pm("nightingale", "storytellers", "!discard q1 --yes\nDrop it.", "2026-12-03T09:05:00Z")
    _tick(rehearsal, _at("2026-12-03T09:05:00Z"))
    game = next(iter(rehearsal.bot.games.values()))
    assert QuarantineRow.get().status == "discarded"
    votes = _votes_on(game, "Derek")
    assert "Fatima" not in votes and votes["Ellen"] == "yes"
    rehearsal.post_pm("nightingale", "storytellers", "!retry q1\nOnce more.", "2026-12-03T09:10:00Z")
    rehearsal.post_pm("nightingale", "storytellers", "!retry q7\nAnd this?", "2026-12-03T09:11:00Z")
    _tick(rehearsal, _at("2026-12-03T09:11:00Z"))
    assert len(_storytellers_say(rehearsal, "q1 is not held any more: it was discarded")) == 1
    assert len(_storytellers_say(rehearsal, "holds no input numbered q7")) == 1


def test_release_beside_other_commands_is_refused_and_changes_nothing(held_day):
    rehearsal = held_day
    rehearsal.bot.quarantine.held.clear()  # as if not held: the command goes to the core
    rehearsal.post_pm("nightingale", "storytellers", "!retry q1\n!vc", "2026-12-03T09:00:00Z")
    _tick(rehearsal, _at("2026-12-03T09:00:00Z"))
    assert len(_storytellers_say(rehearsal, "!retry and !discard must be alone")) == 1


def test_a_far_future_away_is_answered_and_nothing_is_quarantined(tmp_path):
    rehearsal, script = demo_rehearsal(f"sqlite:///{tmp_path}/away.sqlite", private=False)
    try:
        _play_until(rehearsal, script, "2026-12-03T07:00:00Z")
        for minute, line in enumerate(("/away until 9999-12-31 23:59 -14:00",
                                       "/away until 0001-01-01 00:00 +14:00")):
            at = f"2026-12-03T07:1{minute}:00Z"
            rehearsal.post("Fatima", f"{line}\nSee you all then.", at)
            _tick(rehearsal, _at(at))
        assert QuarantineRow.select().count() == 0
        answers = [b for b in _pm_bodies(rehearsal, "Fatima") if "out of range" in b]
        assert len(answers) == 2  # year 10000 and year 0 in UTC: neither a datetime holds
    finally:
        rehearsal.stop()


@pytest.fixture
def two_games(tmp_path):
    """The demo game and a second game with the same players in one daemon."""
    rehearsal, _ = demo_rehearsal(f"sqlite:///{tmp_path}/two.sqlite", private=False)
    first = rehearsal.setup
    second_topic = rehearsal.request("POST", "/posts.json", as_user="nightingale",
                                     title="Game 2: the second game of the evening",
                                     raw="The second game's thread opens here.",
                                     category=1, created_at="2026-12-01T18:00:00Z")["topic_id"]
    second = dataclasses.replace(first, name="Second game", topic_id=second_topic)

    def start() -> Service:
        rehearsal.store = Store(rehearsal.database_url)
        client = ForumClient(rehearsal.url, first.bot_username, rehearsal.server.api_key)
        client.budget.clock = rehearsal.server.forum.seconds
        rehearsal.service = Service(client, rehearsal.store, [first, second], rehearsal.settings)
        rehearsal.service.start()
        return rehearsal.service

    try:
        start()
        _tick(rehearsal, first.first_night_starts)
        yield rehearsal, first, second, start
    finally:
        rehearsal.stop()


DAWN = _at("2026-12-03T07:00:00Z")  # nominations are open


def _both_post(rehearsal, second, first_raw: str, second_raw: str, at: datetime) -> None:
    rehearsal.post("Alex", first_raw, at.isoformat())
    rehearsal.request("POST", "/posts.json", as_user="Brianna", topic_id=second.topic_id,
                      raw=second_raw, created_at=(at + timedelta(minutes=5)).isoformat())
    _tick(rehearsal, at + timedelta(minutes=10))


def test_one_game_holds_while_another_goes_on(two_games, monkeypatch):
    rehearsal, first, second, _start = two_games
    _crash_on(monkeypatch)
    _both_post(rehearsal, second, "BOOM goes the first game.",
               "Derek has been very quiet.\n/nominate Derek", DAWN)
    games = rehearsal.bot.games
    assert games[first.topic_id].game_id in rehearsal.bot.quarantine.held
    assert games[second.topic_id].game_id not in rehearsal.bot.quarantine.held
    assert [n.nominee for n in games[second.topic_id].state.today.nominations] == ["Derek"]


def test_a_history_that_no_longer_folds_stops_that_game_only(two_games, monkeypatch):
    rehearsal, first, second, start = two_games
    _both_post(rehearsal, second, "Nothing odd here: BOOM.", "Just chatting with everyone here.", DAWN)
    rehearsal.store.close()
    _crash_on(monkeypatch)  # an upgrade whose core raises on a stored post
    Store(rehearsal.database_url).close()
    SnapshotRow.delete().execute()  # the fold runs (a snapshot is code-bound anyway)
    start()
    rehearsal.bot.drain()
    assert first.topic_id not in rehearsal.bot.games and second.topic_id in rehearsal.bot.games
    (fold,) = QuarantineRow.select().where(QuarantineRow.kind == "fold")
    assert fold.status == "open" and BUG in fold.error
    assert len(_storytellers_say(rehearsal, "could not start this game")) == 1
    _tick(rehearsal, DAWN + timedelta(hours=1))  # the daemon goes on with the other game
    rehearsal.store.close()
    start()  # tried again at each start: told once
    rehearsal.bot.drain()
    assert len(_storytellers_say(rehearsal, "could not start this game")) == 1
    rehearsal.store.close()
    _mend(monkeypatch)
    start()  # mended: it starts, and the failed fold is over
    assert first.topic_id in rehearsal.bot.games
    assert QuarantineRow.get(QuarantineRow.kind == "fold").status == "retried"


DAEMON_WITH_A_BUG = """
import sys
import modbot.app.games.runtime as runtime
original = runtime.handle_post
def crashing(state, post):
    if "BOOM" in post.raw:
        raise RuntimeError("a bug the next release mends")
    return original(state, post)
runtime.handle_post = crashing
from modbot import cli
sys.exit(cli.main(["run", "--config", sys.argv[1]]))
"""


def test_the_daemon_process_survives_a_post_it_cannot_handle_and_a_restart_does_not_raise(
        tmp_path):
    """`modbot run` itself (its loop, in its own process), with a core that raises on one
    post of the thread: it goes on to the end of the thread, the game holds there, the
    Storytellers are told once; run again, it starts, holds the same game, tells no one twice."""
    import os
    import subprocess
    import sys

    from .test_crash import ROOT, Scenario

    scenario = Scenario(tmp_path, "bug")
    forum = scenario.server.forum
    topic = forum.topics[scenario.topic_id]
    made = topic.posts[-1].created_at + timedelta(minutes=5)
    forum.create(forum.user("Ellen"), {"topic_id": scenario.topic_id, "created_at": made.isoformat(),
                                       "raw": "BOOM, and a vote for nobody in particular."})
    forum.create(forum.user("Alex"), {"topic_id": scenario.topic_id,
                                      "created_at": (made + timedelta(minutes=5)).isoformat(),
                                      "raw": "After the odd post: still chatting here."})
    scenario.last_number = forum.topics[scenario.topic_id].posts[-1].post_number

    def start():
        env = {**os.environ, "MODBOT_API_KEY": "sandbox-master-key", "PYTHONPATH": str(ROOT)}
        env.pop("DATABASE_URL", None)
        return subprocess.Popen([sys.executable, "-c", DAEMON_WITH_A_BUG, str(scenario.config)],
                                env=env, cwd=ROOT, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)

    scenario.start = start
    try:
        log = scenario.run_to_completion()
        assert "q1" in log and BUG in log and "Traceback" in log
        store = Store(f"sqlite:///{scenario.database}")
        (row,) = QuarantineRow.select()
        assert row.status == "open" and row.kind == "post"
        waiting = ParkedRow.select().count()
        store.close()
        assert waiting > 0  # the rest of the thread waits behind it, in order
        _public, private = scenario.markers()
        assert sum(1 for m in private if ":quarantine:post:" in m) == 1
        scenario.run_to_completion()  # a restart: no raise, nothing told twice
        _public, private = scenario.markers()
        assert sum(1 for m in private if ":quarantine:post:" in m) == 1
        store = Store(f"sqlite:///{scenario.database}")
        assert QuarantineRow.select().count() == 1 and ParkedRow.select().count() == waiting
        store.close()
    finally:
        scenario.stop()
