"""One record per rehearsal (issue 42): the game file the rehearsal writes beside its database
is the game the bot played, so `modbot game status`, `modbot audit` and `modbot export` read
the rehearsal as it went, a `!confirm` sent after the rules' ten minutes (within the
rehearsal's least time to act at its speed) included."""

from __future__ import annotations

from datetime import timedelta

import pytest

from modbot.app.running.service import Settings
from modbot.cli import main
from modbot.cli.browser_rehearsal import start_rehearsal
from modbot.cli.rehearsal_record import commands
from modbot.files.gamefile import load_game

from .test_rehearse_browser import GAME

pytestmark = pytest.mark.slow  # a rehearsal over HTTP


def _post(live, username: str, raw: str, **where) -> None:
    live.forum.create(live.forum.account(username), {"raw": raw, **where}, api=False)
    live.cycle()
    live.service.drain()


def test_status_audit_and_export_read_the_rehearsal_the_bot_played(tmp_path, capsys):
    game = tmp_path / "game.toml"
    game.write_text(GAME, encoding="utf-8")
    live = start_rehearsal(game, speed=60, data_dir=tmp_path / "data",
                           settings=Settings(bot_username="modbot", settle_seconds=0))
    try:
        record = live.record
        assert record is not None and load_game(record).topic_id == live.topic_id
        start = live.setup.first_night_starts
        live.forum.clock.advance_to(start + timedelta(hours=1))
        live.cycle()
        live.service.drain()
        console = next(t.id for t in live.forum.topics.values()
                       if t.is_pm and "notes for the Storytellers" in t.title)
        _post(live, "nightingale", "!kill Gus\nThe Storyteller's kill.", topic_id=console)
        live.forum.clock.advance_to(live.forum.clock.now() + timedelta(minutes=30))
        _post(live, "nightingale", "!confirm\nYes, that kill.", topic_id=console)
        game_state = next(iter(live.service.games.values())).state
        assert not game_state.seat("Gus").alive  # confirmed within the rehearsal's window
        thread = live.export(tmp_path / "thread.json")
    finally:
        live.stop()
    status, audit, export, replay = commands(record, live.database, thread)
    capsys.readouterr()
    assert main(status.split()[1:]) == 0
    shown = capsys.readouterr().out
    assert "Gus" in shown and "dead" in shown.split("Gus", 1)[1].split("\n", 1)[0]
    assert main(audit.split()[1:]) == 0
    assert "reproduces the stored events: yes" in capsys.readouterr().out
    assert main([*export.split()[1:], "--output", str(tmp_path / "record.json")]) == 0
    assert main([*replay.split()[1:], "--text"]) == 0  # the thread's side, said to be so


def test_a_game_in_sign_ups_is_rehearsed_seated_with_placeholder_players(tmp_path):
    """Issue 56: `modbot rehearse` on a game file whose seats come from sign-ups plays it with
    placeholder players and a legal set-up, every account on the rehearsal's forum."""
    game = tmp_path / "game.toml"
    game.write_text(GAME.split("[[seat]]")[0].replace("topic_id = 1\n", "")
                    + 'script = "botf"\nplayers_max = 8\nsignup_topic_id = 3\n', encoding="utf-8")
    live = start_rehearsal(game, speed=60, data_dir=tmp_path / "data", players=7,
                           settings=Settings(bot_username="modbot", settle_seconds=0))
    try:
        assert [s.name for s in live.setup.seats] == [f"Player0{n}" for n in range(1, 8)]
        assert len(live.setup.grimoire) == 7
        assert all(live.forum.account(f"Player0{n}") for n in range(1, 8))
        assert live.forum.topics[live.topic_id].posts[0].username == "modbot"
    finally:
        live.stop()
