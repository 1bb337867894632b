"""Fixtures several end-to-end modules share."""

from datetime import datetime, timedelta

import pytest

from modbot.cli.rehearsal import demo_rehearsal, play_demo


@pytest.fixture(scope="module")
def revealed(tmp_path_factory):
    """The demo game played with every private message, then `!win` and `!reveal`."""
    path = tmp_path_factory.mktemp("reveal") / "bot.sqlite"
    rehearsal, script = demo_rehearsal(f"sqlite:///{path}")
    try:
        play_demo(rehearsal, script)
        end = datetime.fromisoformat(script[-1]["created_at"]) + timedelta(hours=2)
        rehearsal.play([{"username": "nightingale", "raw": "!win good Fatima was found --yes",
                         "created_at": end.isoformat()},
                        {"username": "nightingale", "raw": "The grimoire, for all.\n!reveal --yes",
                         "created_at": (end + timedelta(minutes=1)).isoformat()}])
        yield rehearsal
    finally:
        rehearsal.stop()
