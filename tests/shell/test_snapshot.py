"""Snapshots (app/recovery/snapshot.py): a restart restores a game's memory and folds only the inputs
stored after it, to exactly the game a full fold gives; a snapshot written by other code or
for another set-up, or one that cannot be read, is ignored and the inputs are folded."""

import dataclasses

import pytest

from modbot.adapters.store import SnapshotRow
from modbot.app.games.runtime import GameRuntime

from ..e2e.test_e2e import markers
from ..sandbox_fixtures import played_demo

pytestmark = pytest.mark.slow  # the bot against the sandbox over HTTP


@pytest.fixture
def played(tmp_path):
    rehearsal = played_demo(tmp_path, 25)
    yield rehearsal
    rehearsal.stop()


def _game(rehearsal) -> GameRuntime:
    return next(iter(rehearsal.service.games.values()))


def _folded(rehearsal, game: GameRuntime) -> GameRuntime:
    """The same game folded from all its stored inputs, as a start-up without snapshot."""
    fresh = GameRuntime(game.setup, game.options, game.game_id)
    fresh.load(rehearsal.store.inputs(game.game_id))
    return fresh


def _restart(rehearsal) -> GameRuntime:
    rehearsal.store.close()
    rehearsal.start_bot()
    return _game(rehearsal)


def test_a_restart_from_a_snapshot_is_the_full_fold(played, caplog):
    played.service.save_snapshots(every=0)
    played.play(played.script[25:30])  # inputs stored after the snapshot
    with caplog.at_level("INFO", logger="modbot.app.running.service"):
        game = _restart(played)
    assert f"game BotF demo: {len(game.inputs)} inputs restored from its snapshot, 0 new " \
        "posts caught up" in caplog.text  # a restart says what it replayed and caught up
    assert game.game_id in played.service.snapshots.taken  # restored, not folded
    folded = _folded(played, game)
    assert game.state == folded.state
    assert (game.inputs, game.history, game.seen, game.seen_pms, game.posts_by_day) == \
        (folded.inputs, folded.history, folded.seen, folded.seen_pms, folded.posts_by_day)
    assert game.reactor.counts.numbers == folded.reactor.counts.numbers
    before = markers(played)
    played.play(played.script[30:])
    assert markers(played)[:len(before)] == before and len(set(markers(played))) == \
        len(markers(played))  # nothing sent twice after the restart


def test_a_snapshot_for_another_set_up_is_ignored(played):
    played.service.save_snapshots(every=0)
    played.store.close()
    played.setup = dataclasses.replace(played.setup, hand_nudge_hours=3)  # the game file changed
    played.start_bot()
    game = _game(played)
    assert game.game_id not in played.service.snapshots.taken  # folded with the new set-up
    assert game.state.setup.hand_nudge_hours == 3


def test_a_snapshot_that_cannot_be_read_is_ignored(played, caplog):
    played.service.save_snapshots(every=0)
    SnapshotRow.update(data=b"not a snapshot").execute()
    with caplog.at_level("WARNING", logger="modbot.app.recovery.snapshot"):
        game = _restart(played)
    assert "its snapshot cannot be read" in caplog.text
    assert game.game_id not in played.service.snapshots.taken
    assert game.state == _folded(played, game).state



def test_a_fold_renders_nothing_until_a_post_is_read(played, monkeypatch):
    """Rendered late (adapters/outgoing.py): folding a game's stored inputs renders no template
    and draws no picture, yet every post it derives keeps its key and, once read, its words."""
    from modbot.app.posting import render as rendering
    calls: list[int] = []
    real = rendering.environment
    monkeypatch.setattr(rendering, "environment", lambda: calls.append(1) or real())
    game = _game(played)
    rows = played.store.inputs(game.game_id)
    fresh = GameRuntime(game.setup, game.options, game.game_id)
    owed = [o for row in rows for o in fresh.apply_input(row).outgoing]
    assert owed and calls == []  # the whole fold derived posts and rendered none of them
    assert all(o.raw.strip() for o in owed[-5:]) and calls  # read: rendered, in words
    assert fresh.state == _folded(played, game).state
