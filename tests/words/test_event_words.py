"""`!log` and the upgrade check speak in game terms (app/posting/event_words.py): every event type,
and every grimoire field a change can touch, has its sentence; no line shows an event's class
name, a `field=value` pair, an ISO time or a character's id."""

from __future__ import annotations

import dataclasses
import re
from datetime import timedelta

from modbot.app.posting.catalogue import words
from modbot.app.posting.event_words import described
from modbot.core import EVENT_TYPES, GrimoireEntry

from ..conversation import NIGHT1_LOCK, START, Conversation, botf_setup, to

RAW = re.compile(r"\b[A-Z][a-z]+[A-Z]\w*\b|\w=\w|\d{4}-\d\d-\d\dT\d")


def test_every_event_and_every_grimoire_change_has_its_sentence():
    for name in EVENT_TYPES:
        if name != "GrimoireChanged":
            said = described(name, {})
            assert said.code == f"event.{name}", name
            assert not RAW.search(words(said)), name
    for field in (f.name for f in dataclasses.fields(GrimoireEntry)):
        said = described("GrimoireChanged", {"player": "Ben", "field": field, "value": "twin"})
        assert said.code == f"event.GrimoireChanged.{field}"
    assert words(described("GrimoireChanged", {"player": "Ben", "field": "character",
                                                "value": "snakecharmer"})) == \
        "Ben is now the Snake Charmer"
    assert words(described("GrimoireChanged", {"player": "Ben", "field": "poisoned",
                                                "value": True})) == "Ben is poisoned: yes"
    assert words(described("NoSuchEvent", {"x": 1})) == "a change an earlier version recorded"


def test_the_log_of_a_first_night_is_in_game_terms():
    talk = Conversation(botf_setup())
    talk.tick(START)
    talk.st("!reminder Alex twin\n!poison Brianna --yes", START + timedelta(minutes=30))
    talk.tick(NIGHT1_LOCK)
    said = talk.st("!log 30", NIGHT1_LOCK + timedelta(minutes=5))
    log = to(said, "pmtopic")[0].split("event", 1)[1]
    lines = [line for line in log.splitlines() if line.startswith("- ")]
    assert len(lines) >= 4
    assert any("the characters are dealt" in line for line in lines)
    assert any("night 1's choices lock" in line for line in lines)
    assert any("Alex's reminders: twin" in line for line in lines)
    for line in lines:
        assert not RAW.search(line.split(": ", 1)[1]), line
