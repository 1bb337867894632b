"""A running game's memory is kept whole across a restart (app/recovery/snapshot.py): no list of names
to forget a new field in."""

from modbot.app.games.runtime import GameRuntime
from modbot.app.posting.reactions import GameOptions
from modbot.app.recovery.snapshot import CONFIG, memory_names, restore, take

from ..helpers import FIVE, setup


def test_the_whole_memory_is_kept_a_new_field_included(monkeypatch):
    """No list of field names: every attribute of the runtime but its configuration, and
    every field of its reactor but its options, goes into the snapshot and comes back."""
    def runtime():
        game = GameRuntime(setup(FIVE), GameOptions(7, "g7"), 1)
        game.remembered_since_v9 = set()  # as a field added to __init__ tomorrow would be
        return game

    game = runtime()
    game.remembered_since_v9 = {42}
    game.reactor.hinted["alex"] = game.setup.first_night_starts
    game.last_post_number = 12
    assert "remembered_since_v9" in memory_names(game) and "setup" in CONFIG
    fresh = runtime()
    assert restore(fresh, take(game))
    assert fresh.remembered_since_v9 == {42} and fresh.last_post_number == 12
    assert fresh.reactor.hinted == {"alex": game.setup.first_night_starts} and fresh.options.topic_id == 7  # options: config
