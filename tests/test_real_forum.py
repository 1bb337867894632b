"""The real forum: players known by their user id, moderators' actions survived, a revoked key
outlived. Each disturbance is made on the sandbox as Discourse makes it (see
modbot/sandbox/moderation.py), in the middle of the demo game, and the game must end as the
undisturbed one does: the same bot posts (by outbox marker), the same outcome, or the
documented difference with the Storytellers told."""

import json
from datetime import datetime, timedelta

import pytest

from modbot.core import report
from modbot.rehearsal import day_end, demo_rehearsal

from .test_e2e import markers

pytestmark = pytest.mark.slow  # the bot against the sandbox over HTTP

OLD, NEW = "Fatima", "Fatimah"
RENAME_AT = "2026-12-03T07:30:00Z"  # after Fatima's vote on Derek, before Fatima is nominated


def _finish(rehearsal, script):
    last = datetime.fromisoformat(script[-1]["created_at"])
    return max(last, day_end(rehearsal.setup)) + timedelta(hours=1)


def _start(folder, name: str):
    rehearsal, script = demo_rehearsal(f"sqlite:///{folder}/{name}.sqlite")
    rehearsal.start_bot()
    rehearsal.clock.set(rehearsal.setup.first_night_starts)
    rehearsal.service.cycle(rehearsal.setup.first_night_starts)
    return rehearsal, script


def _game(rehearsal):
    return next(iter(rehearsal.service.games.values()))


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    rehearsal, script = _start(tmp_path_factory.mktemp("ref"), "reference")
    rehearsal.play(script, finish_at=_finish(rehearsal, script))
    yield rehearsal
    rehearsal.stop()


def _renamed_item(item: dict, others_say_new: bool) -> dict:
    """A scripted post after the rename: Fatima posts as Fatimah; another player names her by
    her new name where `others_say_new` (the old name, an alias now, elsewhere)."""
    item = dict(item)
    if item.get("username") == OLD:
        item["username"] = NEW
    elif others_say_new and "raw" in item:
        item["raw"] = item["raw"].replace(f"/vote {OLD}", f"/vote {NEW}")
    if isinstance(item.get("to"), list):
        item["to"] = [NEW if n == OLD else n for n in item["to"]]
    return item


def _rename(rehearsal, old: str, new: str) -> None:
    rehearsal.clock.set(datetime.fromisoformat(RENAME_AT))
    rehearsal.request("PUT", f"/u/{old}/preferences/username", as_user=old, new_username=new)
    rehearsal.keys[new.lower()] = rehearsal.keys.pop(old.lower())


def _as_before(rehearsal) -> list[str]:
    """The bot's markers with the new name read as the old one, the rename note left out, and
    each post id replaced by that post's author and time (the note to the Storytellers is a
    post, so the ids of the posts after it differ from the reference's by one)."""
    posts = rehearsal.server.forum.posts

    def part(text: str) -> str:
        post = posts.get(int(text)) if text.isdigit() else None
        return f"{post.username}@{post.created_at.isoformat()}" if post else text
    return [":".join(part(p) for p in m.split(":")).replace(NEW, OLD).replace(NEW.lower(), OLD.lower())
            for m in markers(rehearsal) if ":renamed:" not in m]


def _outcome(rehearsal) -> dict:
    state = json.loads(json.dumps(report(_game(rehearsal).state), default=str)
                       .replace(NEW, OLD))
    for seat in state.get("seats", []):
        seat.pop("aliases", None)
    return state


@pytest.mark.parametrize("others_say_new, name_check", [(False, False), (True, True)])
def test_a_renamed_player_keeps_their_seat_votes_and_conversation(reference, tmp_path,
                                                                  others_say_new, name_check):
    """Without the names' check the bot learns the rename from Fatimah's own next post (the
    others still name her Fatima, an alias now); with it (every 10 forum minutes) before she
    posts, so a vote naming Fatimah counts too."""
    rehearsal, script = _start(tmp_path, "renamed")
    if not name_check:
        rehearsal.service.identities.check_seconds = 0  # off: only her own posts tell
    try:
        cut = next(i for i, item in enumerate(script) if item["created_at"] > RENAME_AT)
        rehearsal.play(script[:cut])
        _rename(rehearsal, OLD, NEW)
        rest = [_renamed_item(item, others_say_new) for item in script[cut:]]
        rehearsal.play(rest, finish_at=_finish(rehearsal, script))
        found = markers(rehearsal)
        assert len([m for m in found if ":renamed:fatima:fatimah" in m]) == 1  # told once
        assert _as_before(rehearsal) == _as_before(reference)
        assert _outcome(rehearsal) == _outcome(reference)
        game = _game(rehearsal)
        seat = game.state.seat(NEW)
        assert OLD in seat.aliases
        forum = rehearsal.server.forum
        conversations = [t for t in forum.topics.values() if t.is_pm and NEW in t.allowed]
        assert len(conversations) == 1  # her grimoire: the same conversation as before
        assert not rehearsal.store.outbox_counts().get("failed")
    finally:
        rehearsal.stop()


def test_a_rename_is_seen_by_the_name_check_before_the_player_posts(tmp_path):
    rehearsal, script = _start(tmp_path, "checked")
    try:
        cut = next(i for i, item in enumerate(script) if item["created_at"] > RENAME_AT)
        rehearsal.play(script[:cut])
        _rename(rehearsal, OLD, NEW)
        service = rehearsal.service
        before = rehearsal.server.counts["GET /user-cards.json"]
        at = datetime.fromisoformat(RENAME_AT) + timedelta(minutes=11)
        rehearsal.clock.set(at)
        service.cycle(at)
        assert _game(rehearsal).state.is_seated(NEW)  # nobody posted: the check found it
        assert rehearsal.server.counts["GET /user-cards.json"] == before + 1  # one for all
    finally:
        rehearsal.stop()
