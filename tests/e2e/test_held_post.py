"""A post whose words fail to render (issue 38): a template that raises holds that post only.
The Storytellers are told (with the post's key), `!status` lists it, every other post goes
out and the game goes on; at the bot's next start, with the template mended, it is sent."""

from datetime import timedelta

import pytest

from modbot.adapters.store import OutboxRow, SnapshotRow
from modbot.app.posting import render as render_module
from modbot.cli.rehearsal import day_end, demo_rehearsal

from .test_e2e import markers

pytestmark = pytest.mark.slow  # the bot against the sandbox over HTTP

BROKEN = "phase_nomination.md.j2"


def test_a_template_that_raises_holds_its_post_and_the_game_goes_on(tmp_path, monkeypatch):
    original = render_module.render

    def broken(name, **view):
        if name == BROKEN:
            raise ValueError("a mistake in the template")
        return original(name, **view)

    monkeypatch.setattr(render_module, "render", broken)
    rehearsal, script = demo_rehearsal(f"sqlite:///{tmp_path}/held.sqlite")
    try:
        rehearsal.start_bot()
        rehearsal.clock.set(rehearsal.setup.first_night_starts)
        rehearsal.service.cycle(rehearsal.setup.first_night_starts)
        rehearsal.play(script, finish_at=day_end(rehearsal.setup, 1) + timedelta(hours=1))
        held = list(OutboxRow.select().where(OutboxRow.status == "held"))
        assert [r.key.split(":", 1)[1] for r in held] == ["nomination:1"]
        assert "a mistake in the template" in (held[0].last_error or "")
        told = [m for m in markers(rehearsal) if ":held:" in m]
        assert told == [f"g{rehearsal.setup.topic_id}:held:nomination:1"]
        assert any(":end:1" in m for m in markers(rehearsal))  # the day went on to its end
        game = next(iter(rehearsal.service.games.values()))
        assert game.reactor.held_posts() == [held[0].key]
        monkeypatch.setattr(render_module, "render", original)  # the template mended
        rehearsal.store.close()
        rehearsal.start_bot()  # the next start renders it again
        for _ in range(5):
            rehearsal.service.drain()
        assert OutboxRow.get(OutboxRow.key == held[0].key).status == "sent"
        assert held[0].key in markers(rehearsal)
        rehearsal.service.save_snapshots(every=0)  # its memory, held posts' wiring left out
        assert SnapshotRow.select().count() == 1
    finally:
        rehearsal.stop()
