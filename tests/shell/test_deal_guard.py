"""`modbot run` deals no character to a name the forum does not know (issue 13): a new game
waits, its Storytellers are told in words (seat, name, near miss, the fix), and it starts
once every name is a forum user."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

import pytest

from modbot.app.starting import deal_guard
from modbot.cli.rehearsal import demo_rehearsal

pytestmark = pytest.mark.slow  # the bot against the sandbox over HTTP


@pytest.fixture
def misspelt(tmp_path):
    """The demo game with seat 5 written "Hanna" for the forum user "Hana"."""
    rehearsal, _ = demo_rehearsal(f"sqlite:///{tmp_path}/bot.sqlite")
    seats = tuple(dataclasses.replace(s, name="Hanna") if s.name == "Ellen" else s
                  for s in rehearsal.setup.seats)
    grimoire = tuple(("Hanna" if p == "Ellen" else p, entry) for p, entry in rehearsal.setup.grimoire)
    rehearsal.setup = dataclasses.replace(rehearsal.setup, seats=seats, grimoire=grimoire)
    rehearsal.server.forum.add_user("Hana")
    rehearsal.keys["hana"] = rehearsal.server.forum.new_user_key("Hana")
    rehearsal.start_bot()
    yield rehearsal
    rehearsal.stop()


def _role_pms(rehearsal) -> list[str]:
    return [t.title for t in rehearsal.server.forum.topics.values()
            if t.is_pm and "grimoire" in t.title]


def _storytellers_notes(rehearsal) -> list[str]:
    return [p.raw for t in rehearsal.server.forum.topics.values()
            if t.is_pm and "Storytellers" in t.title for p in t.posts]


def test_a_misspelt_seat_holds_the_game_and_the_storytellers_are_told(misspelt, monkeypatch):
    rehearsal = misspelt
    night = rehearsal.setup.first_night_starts
    for minutes in (1, 30, 90):
        rehearsal.clock.set(night + timedelta(minutes=minutes))
        rehearsal.service.cycle(night + timedelta(minutes=minutes))
    rehearsal.service.drain()
    assert _role_pms(rehearsal) == []  # nobody dealt
    assert rehearsal.setup.topic_id not in rehearsal.service.games
    (note,) = _storytellers_notes(rehearsal)  # told once, in words
    assert "seat 5, **Hanna**: no forum user has this name (did you mean Hana?)" in note
    assert "game file" in note and "g1:" not in note.split("<!--")[0]

    # the account appears (or the game file is fixed): the game starts and deals, once
    rehearsal.server.forum.add_user("Hanna")
    monkeypatch.setattr(deal_guard, "RECHECK_SECONDS", 0)
    at = night + timedelta(hours=2)
    for minutes in (1, 2, 3):
        rehearsal.clock.set(at + timedelta(minutes=minutes))
        rehearsal.service.cycle(at + timedelta(minutes=minutes))
    for _ in range(10):
        rehearsal.service.drain()
    assert sorted(_role_pms(rehearsal)) == sorted(f"{s.name}'s grimoire: {rehearsal.setup.name}"
                                                  for s in rehearsal.setup.seats)
    assert len(_storytellers_notes(rehearsal)) >= 1


def test_a_game_whose_names_are_all_users_starts_at_once(tmp_path):
    rehearsal, _ = demo_rehearsal(f"sqlite:///{tmp_path}/bot.sqlite")
    try:
        rehearsal.start_bot()
        night = rehearsal.setup.first_night_starts
        rehearsal.clock.set(night)
        rehearsal.service.cycle(night)
        assert rehearsal.setup.topic_id in rehearsal.service.games
        assert rehearsal.service.waiting == {}
    finally:
        rehearsal.stop()


def test_a_backup_who_is_no_forum_user_holds_the_game_too(tmp_path):
    """A backup is a place bound to a forum account before the game starts (`!sub` seats it
    by that account): a name nobody holds is the Storytellers' to fix first."""
    rehearsal, _ = demo_rehearsal(f"sqlite:///{tmp_path}/bot.sqlite")
    try:
        rehearsal.setup = dataclasses.replace(rehearsal.setup, backups=("Zedd",))
        rehearsal.start_bot()
        night = rehearsal.setup.first_night_starts
        rehearsal.clock.set(night)
        rehearsal.service.cycle(night)
        rehearsal.service.drain()
        assert rehearsal.setup.topic_id not in rehearsal.service.games
        (note,) = _storytellers_notes(rehearsal)
        assert "the backup **Zedd**: no forum user has this name" in note
    finally:
        rehearsal.stop()
