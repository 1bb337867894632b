"""A host's Trouble Brewing script from the Script Tool, rehearsed over HTTP on the sandbox
(issues 53 and 54): `modbot setup --propose` deals it, `modbot rehearse`'s machinery plays it,
every player gets their role PM (none of them run by the Storytellers now: the bot runs all of
Trouble Brewing), and at the night's lock the Storytellers get the night's sheet with a row
for each character that wakes."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from modbot.app.running.settings import Settings
from modbot.cli import main
from modbot.cli.browser_rehearsal import start_rehearsal

from ..words.test_host_scripts import TROUBLE_BREWING

pytestmark = pytest.mark.slow  # a rehearsal over HTTP

SEATS = ("Alex", "Brianna", "Cameron", "Derek", "Ellen", "Fatima", "Gus", "Hana", "Ivan")
GAME = """[game]
name = "Trouble Brewing rehearsal"
topic_id = 1
storytellers = ["nightingale"]
script = "tb.json"
first_night_starts = "2026-12-01T18:00:00Z"
bot = "modbot"
""" + "".join(f'[[seat]]\nplayer = "{name}"\n' for name in SEATS)


def test_a_trouble_brewing_script_is_rehearsed_to_its_first_nights_sheet(tmp_path):
    (tmp_path / "tb.json").write_text(json.dumps(TROUBLE_BREWING), encoding="utf-8")
    game = tmp_path / "game.toml"
    game.write_text(GAME, encoding="utf-8")
    assert main(["setup", str(game), "--propose", "--seed", "3", "--write", str(game)]) == 0
    live = start_rehearsal(game, speed=60, data_dir=tmp_path / "data",
                           settings=Settings(bot_username="modbot", settle_seconds=0))
    try:
        start = live.setup.first_night_starts
        live.forum.clock.advance_to(start + timedelta(minutes=5))
        live.cycle()
        live.service.drain()
        pms = {t.title: t for t in live.forum.topics.values() if t.is_pm}
        roles = [p.raw for t in pms.values() for p in t.posts if "## Your character" in p.raw]
        assert len(roles) == len(SEATS)  # the bot runs all of Trouble Brewing (issue 54)
        assert all("The Storytellers run this character" not in r for r in roles)
        live.forum.clock.advance_to(start + timedelta(hours=22, minutes=1))  # the lock
        live.cycle()
        live.service.drain()
        state = next(iter(live.service.games.values())).state
        rows = [e for e in state.night.sheet if e.player]
        assert rows and all(e.suggestion is not None for e in rows)
        console = [p.raw for t in pms.values() for p in live.forum.topics[t.id].posts
                   if "nightingale" in t.title.lower() or "storytellers" in t.title.lower()]
        assert any("Night 1" in raw for raw in console)
    finally:
        live.stop()
