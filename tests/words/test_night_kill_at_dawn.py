"""A Storyteller's `!kill` at night is a night death (issue 42): the dawn names it with the
night's other deaths, and the record's night has it."""

from datetime import timedelta

from modbot.core import game_record

from ..conversation import NIGHT1_LOCK, START, Conversation, botf_setup, to


def test_a_storytellers_kill_at_night_is_named_at_dawn_and_recorded():
    talk = Conversation(botf_setup())
    talk.tick(START)
    killed = talk.st("!kill Gus --yes", START + timedelta(hours=3))
    assert any("died" in raw.lower() for raw in to(killed, "pm:gus"))
    talk.tick(NIGHT1_LOCK)
    said = talk.dawn()
    day = next(raw for raw in to(said, "topic") if "## Day 1 begins" in raw)
    assert "Gus died in the night." in day
    night = game_record(talk.state)["nights"][0]
    assert "Gus" in night["deaths"]
