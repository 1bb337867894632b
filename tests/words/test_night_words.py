"""What the night's messages read like (the rules are tests/rules/test_night.py): a choice
restated, a refusal's reason, the sheet's table in night order, the results' sentences, and
`!status` in the script's words; through the app's renderer and the catalogue (Conversation),
so rewording a message breaks these tests and no rule test."""

import re
from datetime import timedelta

import pytest

from ..conversation import ALL, DAWN1, NIGHT1_LOCK, Conversation, botf_setup, to
from ..helpers import START

H = timedelta(hours=1)


@pytest.fixture()
def night1():
    talk = Conversation(botf_setup())
    talk.tick(START)
    return talk


def test_a_choice_is_restated_in_the_players_pm(night1):
    said = night1.pm("Derek", "/choose Alex", START + H)
    assert "Night 1: accepted: you chose Alex." in to(said, "pm:derek")[0]


def test_a_late_choice_is_told_when_the_night_locked(night1):
    night1.pm("Derek", "/choose Alex", START + H)
    said = night1.pm("Derek", "/choose Cameron", NIGHT1_LOCK + timedelta(minutes=5))
    (reply,) = to(said, "pm:derek")
    assert "Choices for night 1 locked at Wed 02 Dec 16:00 UTC" in reply


@pytest.mark.parametrize("author, raw, why", [
    ("Brianna", "/choose Brianna", "The Dreamer may not choose themselves."),
    ("Cameron", "/choose Alex", "The Seamstress chooses 2 players; you named 1 player."),
    ("Cameron", "/choose Alex Alex", "Alex is named twice."),
    ("Fatima", "/choose Alex", "Your character (No Dashii) makes no choice tonight."),
    ("Derek", "/choose Zed", "No seated player matches \"Zed\""),
    ("Derek", "/choose Alex as Imp", "No character on this script is called \"Imp\"."),
    ("Derek", "/choose Alex", None),  # accepted: no reason
])
def test_an_illegal_choice_is_answered_with_its_reason(night1, author, raw, why):
    (reply,) = to(night1.pm(author, raw, START + H), f"pm:{author.lower()}")
    if why is None:
        assert "accepted" in reply
    else:
        assert why in reply


def test_the_sheet_is_a_table_in_night_order_with_the_results_needed(night1):
    night1.pm("Derek", "/choose Cameron", START + H)
    night1.pm("Cameron", "/choose Alex and Ellen", START + H)
    night1.pm("Brianna", "/choose Derek", START + H)
    (sheet,) = to(night1.tick(NIGHT1_LOCK), "pm:storytellers")
    rows = [line for line in sheet.splitlines() if line.startswith("| ") and "---" not in line]
    order = [row.split("|")[3].strip() for row in rows[1:]]
    assert order == ["Minion info", "Demon info", "Witch", "Clockmaker", "Dreamer",
                     "Seamstress"]
    assert "The Demon is 2 steps from its nearest Minion." in sheet
    assert "one must be the Witch **(result needed)**" in sheet
    assert "Alex and Ellen are the same alignment: yes." in sheet
    assert "Cameron is cursed" in sheet


def test_the_storytellers_read_who_still_needs_a_result_and_the_dawn_post(night1):
    night1.pm("Brianna", "/choose Derek", START + H)
    night1.tick(NIGHT1_LOCK)
    said = night1.st("!approve", NIGHT1_LOCK + H)
    assert "These players still need a result: Brianna" in to(said, "pmtopic")[0]
    assert "## Dawn is delayed" in to(night1.tick(DAWN1), "topic")[0]
    said = night1.st("!result Brianna Derek is the Witch or the Sage\n!approve", DAWN1 + 2 * H)
    public = to(said, "topic")
    assert "## Day 1 begins" in public[0] and "Nobody died in the night." in public[0]
    assert "Derek is the Witch or the Sage" in to(said, "pm:brianna")[0]


@pytest.mark.parametrize("typed, told", [
    ("1", "1 player's ability worked abnormally since dawn, due to another character's ability."),
    ("3", "3 players' abilities worked abnormally since dawn"),
    ("Two of you were drunk.", "Two of you were drunk."),
])
def test_a_bare_result_reads_as_the_characters_sentence(typed, told):
    """Messages that fit: `!result Alex 1` for a Mathematician tells a sentence, not "1";
    words the Storyteller wrote pass as written."""
    characters = {"Alex": "mathematician", "Brianna": "dreamer", "Cameron": "seamstress",
                  "Derek": "witch", "Ellen": "oracle", "Fatima": "nodashii", "Gus": "towncrier"}
    talk = Conversation(botf_setup(characters, script=ALL))
    talk.tick(START)
    talk.tick(NIGHT1_LOCK)
    said = talk.st(f"!result Alex {typed}\n!result Brianna none\n!approve", NIGHT1_LOCK + H)
    said += talk.tick(DAWN1)
    (pm,) = to(said, "pm:alex")
    assert told in pm and typed not in pm.replace(told, "").splitlines()


def test_status_shows_the_storytellers_the_night(night1):
    night1.pm("Derek", "/choose Cameron", START + H)
    said = night1.st("!status", START + 2 * H)
    assert "Night 1 (private): choices: Derek Cameron; open; not approved" in \
        to(said, "pmtopic")[0]


def test_status_names_characters_and_alignments_from_the_script(night1):
    """Messages that fit: with a script, `!status` writes each character's name and the
    alignment it implies in the script's words (BotF: Loyal, Cultist, as the role PMs say); a
    deadline is a [date] tag, and the replay folded below names times and characters as people
    write them (no ISO time, no `character=` field)."""
    said = night1.st("!poison Alex\n!status", START + 2 * H)
    answer = to(said, "pmtopic")[0]
    assert "| 1 | Alex | Clockmaker | Loyal | alive | poisoned |  |" in answer
    assert "| 5 | Ellen | Oracle | Loyal | alive | malfunctioning |  |" in answer  # No Dashii
    assert "| 4 | Derek | Witch | Cultist | alive |  |  |" in answer
    head = answer.split('[details=')[0]
    assert "[date=" in head and not re.search(r"\d{4}-\d\d-\d\dT\d", head)
    assert not re.search(r"\d{4}-\d\d-\d\dT\d", answer) and "character=" not in answer
    assert "Alex: Clockmaker, poisoned" in answer.split('[details=')[1]
