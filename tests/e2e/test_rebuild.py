"""The forum is the source of truth: a game whose database is lost in the middle of a day is
rebuilt from the forum alone (thread and PMs), posts nothing the forum already shows, and then
plays on exactly as an uninterrupted run does."""

import dataclasses
import hashlib
from datetime import datetime, timedelta

import pytest

from modbot.app.games.runtime import GameRuntime
from modbot.cli.rehearsal import day_end, demo_rehearsal
from modbot.core import report

from .test_e2e import markers

pytestmark = pytest.mark.slow  # the bot against the sandbox over HTTP

REBUILT = ":rebuilt:"


def _finish(rehearsal, script):
    last = datetime.fromisoformat(script[-1]["created_at"])
    return max(last, day_end(rehearsal.setup)) + timedelta(hours=1)


def _play(tmp_path, lose_database_after=(), **game):
    rehearsal, script = demo_rehearsal(f"sqlite:///{tmp_path}/bot-0.sqlite")
    rehearsal.setup = dataclasses.replace(rehearsal.setup, **game)
    rehearsal.start_bot()
    rehearsal.clock.set(rehearsal.setup.first_night_starts)
    rehearsal.service.cycle(rehearsal.setup.first_night_starts)
    done = 0
    for number, cut in enumerate(lose_database_after, start=1):
        rehearsal.play(script[done:cut])
        rehearsal.store.close()
        rehearsal.database_url = f"sqlite:///{tmp_path}/bot-{number}.sqlite"  # an empty one
        rehearsal.start_bot()
        done = cut
    rehearsal.play(script[done:], finish_at=_finish(rehearsal, script))
    return rehearsal


def _stable(rehearsal) -> list[str]:
    """The bot's markers with each post id replaced by that post's author and text: a rebuild's
    note to the Storytellers takes a post id, so later posts' ids differ from the reference."""
    posts = rehearsal.server.forum.posts

    def part(text: str) -> str:
        post = posts.get(int(text)) if text.isdigit() else None
        return f"{post.username}/{hashlib.sha1(post.raw.encode()).hexdigest()[:8]}" if post \
            else text
    return [":".join(part(p) for p in m.split(":")) for m in markers(rehearsal)
            if REBUILT not in m]


def _game(rehearsal) -> GameRuntime:
    return next(iter(rehearsal.service.games.values()))


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    rehearsal = _play(tmp_path_factory.mktemp("ref"))
    yield rehearsal
    rehearsal.stop()


@pytest.mark.parametrize("cuts", [(9,), (30,), (14, 40)])
def test_a_lost_database_is_rebuilt_from_the_forum_and_the_game_plays_on(reference, tmp_path,
                                                                          cuts):
    rehearsal = _play(tmp_path, lose_database_after=cuts)
    try:
        found = markers(rehearsal)
        rebuilt = [m for m in found if REBUILT in m]
        assert len(rebuilt) == len(cuts)  # one note to the Storytellers a rebuild
        assert _stable(rehearsal) == _stable(reference)  # none missing, none twice
        assert report(_game(rehearsal).state) == report(_game(reference).state)
        done = next(iter(rehearsal.service.rebuilt.values()))
        assert done.recognised > 0  # owed: what the post read with the rebuild caused
        assert not done.left_out and not done.unmatched
    finally:
        rehearsal.stop()


def test_the_storytellers_are_told_in_words(tmp_path):
    rehearsal = _play(tmp_path, lose_database_after=(30,))
    try:
        forum = rehearsal.server.forum
        note = next(p.raw for p in forum.posts.values() if REBUILT in p.raw)
        assert "rebuilt the game from the forum" in note
        assert "were recognised: they are not posted again" in note
        assert "Nothing was left out." in note
        visible = note.split("<!--")[0]
        assert "g" + str(rehearsal.setup.topic_id) + ":" not in visible  # no internal key
        topic = forum.topics[next(p.topic_id for p in forum.posts.values() if REBUILT in p.raw)]
        assert topic.is_pm and {u.lower() for u in topic.allowed} == {"modbot", "nightingale"}
    finally:
        rehearsal.stop()


def test_a_running_vote_count_shows_the_rebuilt_count(tmp_path):
    """`vote_counts = "edit"`: the running count the forum shows after a rebuild and the rest
    of the day is the one an uninterrupted run shows (its last edit is sent again)."""
    reference = _play(tmp_path / "ref", vote_counts="edit")
    rebuilt = _play(tmp_path / "lost", lose_database_after=(24,), vote_counts="edit")
    try:
        def counts(rehearsal):
            topic = rehearsal.server.forum.topics[rehearsal.setup.topic_id]
            return [p.raw for p in topic.posts if p.username == "modbot" and ":vc:" in p.raw]
        assert counts(rebuilt) == counts(reference) and counts(reference)
        assert _stable(rebuilt) == _stable(reference)
    finally:
        reference.stop()
        rebuilt.stop()
