"""What the newest features gave away (issue 50), each attack played on the sandbox over
HTTP: the thread index tells no death before the thread does; a contingency's answer reads
the same whatever the player secretly is; a replaced player's stray post neither counts nor
moves the seat's conversation; an observer who renames cannot be `!sub`bed in under the new
name; fifteen `/vc` asks get one count per ten forum minutes and one refusal a player."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest

from modbot.adapters.store import OutboxRow

from .test_e2e import markers
from .test_real_forum import RENAME_AT, _game, _start
from .test_substitute import _substituted
from .test_who_is_who import _as, _cycle

pytestmark = pytest.mark.slow  # the bot against the sandbox over HTTP

AT = datetime.fromisoformat(RENAME_AT)


def _storytellers_conversation(rehearsal):
    forum = rehearsal.server.forum
    return next(t for t in forum.topics.values() if t.is_pm and "notes for the Storytellers" in t.title)


def _st(rehearsal, raw: str, at: datetime) -> None:
    _as(rehearsal, "nightingale", raw, at, topic_id=_storytellers_conversation(rehearsal).id)
    _cycle(rehearsal, at)


def _index(rehearsal) -> str:
    key = f"g{rehearsal.setup.topic_id}:index"
    return rehearsal.store.latest_raw(OutboxRow.get(OutboxRow.key == key)) if \
        OutboxRow.get_or_none(OutboxRow.key == key) else ""


def _index_now(rehearsal) -> str:
    """The index as the thread shows it now (the bot's index post, in the forum)."""
    topic = rehearsal.server.forum.topics[rehearsal.setup.topic_id]
    return next(p.raw for p in topic.posts if ":index -->" in p.raw)


def test_the_index_tells_a_night_death_only_once_the_dawn_has(tmp_path):
    rehearsal, _script = _start(tmp_path, "index")
    try:
        night = rehearsal.setup.first_night_starts
        _st(rehearsal, "!kill Derek --yes\nHe left the game.", night + timedelta(hours=2))
        for minute in range(5, 300, 30):  # the index is revised at the vote counts' pace
            _cycle(rehearsal, night + timedelta(hours=2, minutes=minute))
        assert "**Deaths:** none" in _index_now(rehearsal)
        assert not _game(rehearsal).state.seat("Derek").alive  # dead in the grimoire
        dawn = night + timedelta(hours=24)
        _st(rehearsal, "!approve\nThe night is right.", dawn - timedelta(hours=1))
        for minute in range(0, 600, 30):
            _cycle(rehearsal, dawn + timedelta(minutes=minute))
        assert _game(rehearsal).state.phase.is_day
        assert re.search(r"\*\*Deaths:\*\* \[Derek\]", _index_now(rehearsal))
    finally:
        rehearsal.stop()


def _contingency_answers(tmp_path, name: str, change: str | None) -> list[str]:
    rehearsal, _script = _start(tmp_path, name)
    try:
        night = rehearsal.setup.first_night_starts
        if change:
            _st(rehearsal, change, night + timedelta(hours=1))
        rehearsal.post_pm("Cameron", "grimoire", "/choose Alex if Dreamer\nJust in case.",
                          (night + timedelta(hours=2)).isoformat())
        _cycle(rehearsal, night + timedelta(hours=2))
        for minute in range(1, 4):
            _cycle(rehearsal, night + timedelta(hours=2, minutes=minute))
        forum = rehearsal.server.forum
        return [re.sub(r"<!--.*?-->|\d{4}-\d{2}-\d{2}|time=\S+", "", p.raw).strip()
                for t in forum.topics.values() if t.is_pm and "Cameron" in t.allowed
                for p in t.posts if p.username == "modbot" and ":choice:" in p.raw]
    finally:
        rehearsal.stop()


def test_a_contingency_is_answered_the_same_whatever_the_player_secretly_is(tmp_path):
    secret = _contingency_answers(tmp_path, "secret", "!character Cameron dreamer\nQuietly.")
    plain = _contingency_answers(tmp_path, "plain", None)
    assert len(secret) == 1 and secret == plain
    assert "Dreamer" in secret[0]


def test_a_replaced_players_stray_post_counts_for_nothing_and_moves_nothing(tmp_path):
    rehearsal, _cal = _substituted(tmp_path)
    try:
        forum = rehearsal.server.forum
        seat = next(t for t in forum.topics.values() if t.is_pm and "Cal" in t.allowed
                    and any(":role:Cal:sub:" in p.raw for p in t.posts))
        before = set(forum.topics)
        for minute, vote in ((10, "/vote Derek yes"), (12, "/vote Fatima no")):
            _as(rehearsal, "Derek", f"{vote}\nStill here, reading along.", AT + timedelta(minutes=minute))
            _cycle(rehearsal, AT + timedelta(minutes=minute + 1))
        assert "Cal" in seat.allowed and "Derek" not in seat.allowed
        assert not [m for m in markers(rehearsal) if ":intruder" in m or ":moved:" in m]
        new_conversations = [t for i, t in forum.topics.items() if i not in before and t.is_pm]
        assert new_conversations == []
        state = _game(rehearsal).state
        for nomination in state.today.nominations:
            assert "Derek" not in nomination.cast and "Cal" not in {
                v.player for v in nomination.locked if v.cast is not None} - {"Cal"}
    finally:
        rehearsal.stop()


def test_an_observer_who_renamed_cannot_be_subbed_in_under_the_new_name(tmp_path):
    rehearsal, script = _start(tmp_path, "observer")
    try:
        forum = rehearsal.server.forum
        forum.add_user("Quinn")
        rehearsal.keys["quinn"] = forum.new_user_key("Quinn")
        cut = next(i for i, item in enumerate(script) if item["created_at"] > RENAME_AT)
        rehearsal.play(script[:cut])
        rehearsal.service.identities.check_seconds = 0  # no timed check: the race is real
        _st(rehearsal, "!observer Quinn --yes\nQuinn watches.", AT)
        for minute in range(1, 4):
            _cycle(rehearsal, AT + timedelta(minutes=minute))
        rehearsal.request("PUT", "/u/Quinn/preferences/username", as_user="Quinn",
                          new_username="Quinn_r")
        rehearsal.keys["quinn_r"] = rehearsal.keys.pop("quinn")
        _st(rehearsal, "!sub Gus Quinn_r --yes\nGus had to go.", AT + timedelta(minutes=5))
        for minute in range(6, 9):
            _cycle(rehearsal, AT + timedelta(minutes=minute))
        state = _game(rehearsal).state
        assert "Quinn_r" not in {s.name for s in state.seats}
        assert not any(":role:Quinn" in m for m in markers(rehearsal))
        answer = [p.raw for p in _storytellers_conversation(rehearsal).posts
                  if p.username == "modbot" and "!sub Gus Quinn_r" in p.raw]
        assert answer and "Nothing was done" in answer[-1]
    finally:
        rehearsal.stop()


def test_fifteen_vc_asks_get_one_count_per_ten_minutes_and_one_refusal_a_player(tmp_path):
    """A Storyteller's `!vc`, then fifteen `/vc` asks by three players, one a forum minute:
    no two counts less than ten minutes apart (from the last count posted, the Storytellers'
    included), and each player answered at most once between two counts."""
    rehearsal, script = _start(tmp_path, "vc")
    try:
        cut = next(i for i, item in enumerate(script) if item["created_at"] > RENAME_AT)
        rehearsal.play(script[:cut])
        start = AT + timedelta(hours=1)
        _st(rehearsal, "!vc\nA count for everyone, please.", start - timedelta(minutes=3))
        askers = ("Alex", "Brianna", "Ellen")
        for minute in range(15):
            player = askers[minute % 3]
            _as(rehearsal, player, f"/vc\nWhere do we stand, please? (ask {minute + 1})",
                start + timedelta(minutes=minute))
            _cycle(rehearsal, start + timedelta(minutes=minute, seconds=30))
        topic = rehearsal.server.forum.topics[rehearsal.setup.topic_id]
        counts = sorted(p.created_at for p in topic.posts if re.search(r"modbot:g\d+:vc:", p.raw)
                        and p.created_at >= start - timedelta(minutes=4))
        assert len(counts) == 2  # the Storytellers' at -3, then one asked for at +7
        assert counts[1] - counts[0] >= timedelta(minutes=10)
        forum = rehearsal.server.forum
        for player in askers:
            refusals = [p for t in forum.topics.values() if t.is_pm and player in t.allowed
                        for p in t.posts if p.username == "modbot" and "10 minutes" in p.raw]
            assert 1 <= len(refusals) <= 2, player  # one a window between two counts
    finally:
        rehearsal.stop()
