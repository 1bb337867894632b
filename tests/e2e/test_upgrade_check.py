"""An upgrade never changes a live game silently (app/recovery/upgrade.py), on the sandbox: when the
rules read a game's history differently, the game is held as its stored events describe it,
the Storytellers are told what differs, new posts apply on top, and `!confirm` adopts the new
reading for good. An upgrade that changes nothing says nothing."""

from datetime import datetime, timedelta

import pytest

import modbot.app.recovery.upgrade
import modbot.app.starting.startup
import modbot.core.engine

from ..sandbox_fixtures import played_demo
from .test_e2e import markers

pytestmark = pytest.mark.slow  # the bot against the sandbox over HTTP


def _at(item) -> datetime:
    return datetime.fromisoformat(item["created_at"])


def _voters(game, nominee: str = "Derek") -> set[str]:
    nomination = game.state.today.nomination_of(nominee)
    return set(nomination.cast) | {v.player for v in nomination.locked}


def _game(rehearsal):
    return next(iter(rehearsal.service.games.values()))


def _restart(rehearsal):
    rehearsal.store.close()
    rehearsal.start_bot()
    rehearsal.service.drain()
    return _game(rehearsal)


def _new_version(monkeypatch, number: int) -> None:
    for module in (modbot.app.starting.startup, modbot.app.recovery.upgrade):
        monkeypatch.setattr(module, "rules_version", lambda: number)


def _ghost_votes_no_longer_count(monkeypatch) -> None:
    """A "rules fix": a post that speaks of a ghost vote casts nothing (Gus's two votes)."""
    real = modbot.core.engine.parse_post

    def parse_post(raw, *args, **kwargs):
        return real("" if "ghost vote" in raw.lower() else raw, *args, **kwargs)
    monkeypatch.setattr(modbot.core.engine, "parse_post", parse_post)


@pytest.fixture
def played(tmp_path):
    """The demo's thread played past Gus's two ghost votes (10:05 on day 1)."""
    rehearsal = played_demo(tmp_path, 13, private=False)
    yield rehearsal
    rehearsal.stop()


def test_a_changed_reading_holds_the_game_until_a_storyteller_confirms(played, monkeypatch):
    assert "Gus" in _voters(_game(played))
    stored = _game(played).state
    _ghost_votes_no_longer_count(monkeypatch)
    _new_version(monkeypatch, 2)

    game = _restart(played)
    assert game.state == stored  # held: the history the players saw stands
    forum = played.server.forum
    note = next(p for p in forum.posts.values() if ":upgrade:2 -->" in p.raw)
    assert "Nothing changed in the game." in note.raw
    assert "by Gus](/t/" in note.raw
    assert "- before: Gus votes execute on Derek; Gus's vote on Derek locks as execute\n" \
        in note.raw and "- now: nothing\n" in note.raw
    assert "- day 1, the nomination of Derek: 3 execute votes, now 2\n" in note.raw  # game terms
    assert "- day 1, the nomination of Derek: Gus's vote execute, now none\n" in note.raw
    assert "To adopt the new reading, send `!confirm` with a line of words" in note.raw
    assert "<!-- modbot:g" not in note.raw.split("\n\n<!--")[0]  # no internal key in words

    played.play(played.script[13:15])  # new posts apply on top of the held history
    game = _game(played)
    assert "Gus" in _voters(game) and "Alex" in _voters(game)

    at = _at(played.script[14]) + timedelta(minutes=5)
    played.clock.set(at)
    played.post_pm("nightingale", "storytellers", "!confirm\nAdopting the new reading.",
                   at.isoformat())
    played.service.cycle(at)
    played.service.drain()
    game = _game(played)
    assert "Gus" not in _voters(game) and "Alex" in _voters(game)  # replayed, new posts too
    assert any(":upgrade-adopted:2 -->" in p.raw for p in forum.posts.values())

    adopted = game.state
    game = _restart(played)  # the adoption is recorded: a restart reads the game the same way
    assert game.state == adopted and game.upgrade is None
    assert len([m for m in markers(played) if ":upgrade:" in m]) == 1


def test_a_new_version_that_reads_the_game_the_same_says_nothing(played, monkeypatch):
    stored = _game(played).state
    _new_version(monkeypatch, 3)
    game = _restart(played)
    assert game.state == stored and game.upgrade is None
    assert not [m for m in markers(played) if ":upgrade" in m]
    assert played.store.cursor(f"rules_version:{game.options.key}") == 3
