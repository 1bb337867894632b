"""A substitute who can play (issue 42): after `!sub Derek Cal` mid-game, on the sandbox over
HTTP, the thread says who replaced whom, Derek is told and leaves the seat's conversation,
Cal joins it and gets the seat's role PM there, Cal's vote counts for the seat (by Cal's
id), and the record keeps who held the seat when, each by their own account's id."""

from datetime import datetime, timedelta

import pytest

from modbot.cli.export import export_game

from .test_e2e import markers
from .test_real_forum import RENAME_AT, _game, _start
from .test_who_is_who import _as, _cycle

pytestmark = pytest.mark.slow  # the bot against the sandbox over HTTP

AT = datetime.fromisoformat(RENAME_AT)


def _substituted(tmp_path):
    rehearsal, script = _start(tmp_path, "substitute")
    forum = rehearsal.server.forum
    cal = forum.add_user("Cal")
    rehearsal.keys["cal"] = forum.new_user_key("Cal")
    cut = next(i for i, item in enumerate(script) if item["created_at"] > RENAME_AT)
    rehearsal.play(script[:cut])
    conversation = next(t for t in forum.topics.values()
                        if t.is_pm and "notes for the Storytellers" in t.title)
    _as(rehearsal, "nightingale", "!sub Derek Cal --yes\nDerek had to leave.", AT,
        topic_id=conversation.id)
    for minute in range(1, 6):  # the posts it owes go out at the forum's pace
        _cycle(rehearsal, AT + timedelta(minutes=minute))
    return rehearsal, cal


def test_a_substitute_joins_the_seats_conversation_and_the_replaced_player_leaves(tmp_path):
    rehearsal, cal = _substituted(tmp_path)
    try:
        forum = rehearsal.server.forum
        seat = next(t for t in forum.topics.values()
                    if t.is_pm and any(marker(p) == "role:Derek" for p in t.posts))
        assert "Cal" in seat.allowed and "Derek" not in seat.allowed
        said = [p.raw for p in seat.posts if p.raw]
        farewell = next(i for i, r in enumerate(said) if ":sub-out:Derek" in r)
        handed = next(i for i, r in enumerate(said) if ":role:Cal:sub:" in r)
        assert farewell < handed and "takes over your seat" in said[farewell]
        assert "take over Derek's seat" in said[handed]
        thread = forum.topics[rehearsal.setup.topic_id].posts
        notice = next(p.raw for p in thread if ":sub:Derek:Cal" in p.raw)
        assert "Cal replaces Derek" in notice
        assert not [m for m in markers(rehearsal) if ":stranger:" in m or ":intruder" in m]
        _as(rehearsal, "Cal", "/vote Cal no\nCal here, in Derek's seat (on its nomination).",
            AT + timedelta(minutes=7))
        _cycle(rehearsal, AT + timedelta(minutes=8))
        state = _game(rehearsal).state
        nomination = next(n for n in state.today.nominations if n.nominee == "Cal")
        assert "Cal" in nomination.cast or "Cal" in {v.player for v in nomination.locked}
        record = export_game(rehearsal.store, rehearsal.setup, before_the_end=True)
        seats = {s["player"]: s for s in record["seats"]}
        derek = forum.user("Derek").id
        assert [(h["player"], h["user_id"]) for h in seats["Cal"]["held_by"]] == \
            [("Derek", derek), ("Cal", cal.id)]
        assert seats["Cal"]["user_id"] == cal.id
    finally:
        rehearsal.stop()


def marker(post) -> str:
    """The key of the bot's post (without the game's prefix), or ""."""
    text = post.raw or ""
    start = text.find("<!-- modbot:")
    return text[start + 12:text.find(" -->", start)].split(":", 1)[-1] if start >= 0 else ""
