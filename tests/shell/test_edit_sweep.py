"""The edit sweep on a request budget (app/reading/edit_sweep.py): a read the forum puts off
(its limit, a 5xx, a timeout) is nothing a host could see fail: said at INFO, the game read
again later in turn; a read the forum refuses for good is an error, and the others go on
(issue 56: 18 lines of "edit sweep failed" in a game where nothing failed)."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

from modbot.adapters.forum import PermanentError, TransientError
from modbot.app.reading.edit_sweep import EditSweep

T = datetime(2026, 12, 3, 12, tzinfo=UTC)


def _games():
    return {7: SimpleNamespace(topic_id=7, sweep_posts={1, 2}),
            8: SimpleNamespace(topic_id=8, sweep_posts={3})}


def test_a_read_the_forum_puts_off_is_no_error_and_is_read_again_in_turn(caplog):
    sweep, games, read = EditSweep(10), _games(), []

    def limited(game):
        read.append(game.topic_id)
        if len(read) == 1:
            raise TransientError("GET /t/7/posts.json: rate limited", 429, 30.0)

    with caplog.at_level(logging.INFO, logger="modbot"):
        sweep.step(T, games, limited)
        assert read == [7] and list(sweep.queue) == [7, 8]  # put back first, nothing spent
        sweep.step(T + timedelta(minutes=2), games, limited)
    assert read == [7, 7, 8]
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert any("edit sweep put off" in r.getMessage() for r in caplog.records)


def test_a_read_refused_for_good_is_an_error_and_the_other_games_go_on(caplog):
    sweep, games, read = EditSweep(10), _games(), []

    def refused(game):
        read.append(game.topic_id)
        if game.topic_id == 7:
            raise PermanentError("GET /t/7/posts.json: 403", 403)

    with caplog.at_level(logging.INFO, logger="modbot"):
        sweep.step(T, games, refused)
    assert read == [7, 8]
    assert [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR] == [
        "game 7: edit sweep failed (tried again next round): GET /t/7/posts.json: 403"]
