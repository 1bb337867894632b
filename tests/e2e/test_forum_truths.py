"""What a real Discourse does to a live day, third round (issue 58), on the sandbox over HTTP:
a split topic's reused post numbers, a hidden post's words, an edit after the deadline, a
wake that reads one source, a seated moderator's whisper. Each is played against what the
undisturbed day would have counted."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from .test_real_forum import RENAME_AT, _game, _start
from .test_who_is_who import _as, _cycle

pytestmark = pytest.mark.slow  # the bot against the sandbox over HTTP

AT = datetime.fromisoformat(RENAME_AT)  # day 1's nominations, after Fatima's vote on Derek


def _day(tmp_path, name: str):
    rehearsal, script = _start(tmp_path, name)
    cut = next(i for i, item in enumerate(script) if item["created_at"] > RENAME_AT)
    rehearsal.play(script[:cut])
    return rehearsal


def _votes(game, nominee: str) -> dict[str, str]:
    nomination = next(n for n in game.state.today.nominations if n.nominee == nominee)
    locked = {v.player: str(v.cast) for v in nomination.locked if v.cast is not None}
    return {**locked, **{p: str(v.value) for p, v in nomination.cast.items()}}


def test_posts_at_numbers_a_split_reused_are_read_and_counted(tmp_path):
    """A moderator splits the end of the thread (a side argument, one of its posts a vote)
    into a new topic; Discourse numbers the next posts from the highest left, so Gus's vote
    and Cameron's nomination take numbers the bot read before. Both count."""
    rehearsal = _day(tmp_path, "split")
    try:
        topic = rehearsal.setup.topic_id
        side = [_as(rehearsal, name, raw, AT + timedelta(minutes=m)) for name, raw, m in (
            ("Cameron", "An aside about the last game, nothing to do with votes.", 1),
            ("Brianna", "/vote Derek yes\nAnd on the aside, I disagree.", 2),
            ("Derek", "The aside goes on and on, let us stop it here.", 3))]
        _cycle(rehearsal, AT + timedelta(minutes=4))
        game = _game(rehearsal)
        cursor = game.last_post_number
        assert _votes(game, "Derek").get("Brianna") == "yes"
        other = rehearsal.request("POST", "/posts.json", as_user="nightingale", category=1,
                                  title="The aside, moved out of the game",
                                  raw="Posts moved here from the game thread.")["topic_id"]
        rehearsal.request("POST", f"/t/{topic}/move-posts.json", as_user="nightingale",
                          **{"post_ids[]": [p["id"] for p in side], "destination_topic_id": other})
        vote = _as(rehearsal, "Gus", "/vote Derek\nMy ghost vote goes here.", AT + timedelta(minutes=6))
        nomination = _as(rehearsal, "Cameron", "/nominate Fatima\nI want to hear her too.",
                         AT + timedelta(minutes=7))
        assert vote["post_number"] <= cursor and nomination["post_number"] <= cursor  # reused
        _cycle(rehearsal, AT + timedelta(minutes=8))
        game = _game(rehearsal)
        assert vote["id"] in game.seen and nomination["id"] in game.seen
        assert _votes(game, "Derek").get("Gus") == "yes"
        assert [n.nominee for n in game.state.today.nominations if n.nominator == "Cameron"] \
            == ["Fatima"]
    finally:
        rehearsal.stop()
