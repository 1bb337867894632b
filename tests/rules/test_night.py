"""Conversation tests: night choices by PM, the lock, the night sheet, the Storytellers' edits
and approval, the dawn post and the results (issue 5, seed 001 "Night Action Resolution")."""

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


def test_a_choice_is_accepted_restated_and_replaced_until_the_lock(night1):
    said = night1.pm("Derek", "/choose Alex", START + H)
    assert "Night 1: accepted: you chose Alex." in to(said, "pm:derek")[0]
    said = night1.pm("Derek", "Changed my mind.\n/choose Cameron", START + 2 * H)
    assert "you chose Cameron" in to(said, "pm:derek")[0]
    choice = night1.state.night.choice_of("Derek")
    assert choice.players == ("Cameron",) and len(night1.state.night.choices) == 1


def test_a_late_choice_is_refused_with_the_deadline_and_changes_nothing(night1):
    night1.pm("Derek", "/choose Alex", START + H)
    said = night1.pm("Derek", "/choose Cameron", NIGHT1_LOCK + timedelta(minutes=5))
    (reply,) = to(said, "pm:derek")
    assert "Choices for night 1 locked at Wed 02 Dec 16:00 UTC" in reply
    assert night1.state.night.choice_of("Derek").players == ("Alex",)


@pytest.mark.parametrize("author, raw, why", [
    ("Brianna", "/choose Brianna", "The Dreamer may not choose themselves."),
    ("Cameron", "/choose Alex", "The Seamstress chooses 2 players; you named 1 player."),
    ("Cameron", "/choose Alex Alex", "Alex is named twice."),
    ("Fatima", "/choose Alex", "Your character (No Dashii) makes no choice tonight."),
    ("Derek", "/choose Zed", "No seated player matches \"Zed\""),
    ("Derek", "/choose Alex as Imp", "No character on this script is called \"Imp\"."),
])
def test_an_illegal_choice_is_answered_with_the_reason(night1, author, raw, why):
    said = night1.pm(author, raw, START + H)
    assert why in to(said, f"pm:{author.lower()}")[0]
    assert night1.state.night is None or night1.state.night.choice_of(author) is None


def test_choices_follow_the_spec_characters_and_teams():
    talk = Conversation(botf_setup({"Alex": "philosopher", "Brianna": "cerenovus",
                                    "Cameron": "nodashii", "Derek": "oracle", "Ellen": "sage",
                                    "Fatima": "artist", "Gus": "juggler"}))
    talk.tick(START)
    said = talk.pm("Brianna", "/choose Alex as Vortox", START + H)
    assert "The Cerenovus chooses a Loyal character; Vortox is not one." in to(said, "pm:brianna")[0]
    said = talk.pm("Brianna", "/choose Alex as Oracle", START + H)
    assert "you chose Alex as Oracle" in to(said, "pm:brianna")[0]
    said = talk.pm("Alex", "/choose Snake Charmer", START + H)
    assert "you chose Snake Charmer" in to(said, "pm:alex")[0]
    said = talk.pm("Fatima", "/action I would like to ask my question tomorrow", START + H)
    assert "your request was recorded for the Storyteller" in to(said, "pm:fatima")[0]


def test_a_dead_player_and_a_player_outside_the_game_cannot_choose():
    talk = Conversation(botf_setup(dead=("Derek",)))
    talk.tick(START)
    said = talk.pm("Derek", "/choose Alex", START + H)
    assert "You are dead: your ability does not act tonight." in to(said, "pm:derek")[0]
    assert talk.pm("Stranger", "/choose Alex", START + H) == []


def test_reminders_go_to_players_who_owe_a_choice_before_the_lock(night1):
    night1.pm("Derek", "/choose Alex", START + H)
    said = night1.tick(NIGHT1_LOCK - 6 * H)
    reminded = sorted(s.thread for s in said if "Reminder" in s.raw)
    assert reminded == ["pm:brianna", "pm:cameron"]  # Dreamer, Seamstress; not the Witch


def test_at_the_lock_the_storytellers_get_the_sheet_in_night_order(night1):
    night1.pm("Derek", "/choose Cameron", START + H)
    night1.pm("Cameron", "/choose Alex and Ellen", START + H)
    night1.pm("Brianna", "/choose Derek", START + H)
    said = night1.tick(NIGHT1_LOCK)
    (sheet,) = to(said, "pm:storytellers")
    rows = [line for line in sheet.splitlines() if line.startswith("| ") and "---" not in line]
    order = [row.split("|")[3].strip() for row in rows[1:]]
    assert order == ["Minion info", "Demon info", "Witch", "Clockmaker", "Dreamer",
                     "Seamstress"]
    assert "The Demon is 2 steps from its nearest Minion." in sheet  # Fatima 5, Derek 3
    assert "one must be the Witch **(result needed)**" in sheet
    assert "Alex and Ellen are the same alignment: yes." in sheet
    assert "Cameron is cursed" in sheet


def test_approval_waits_for_every_result_and_dawn_waits_for_approval(night1):
    night1.pm("Brianna", "/choose Derek", START + H)
    night1.tick(NIGHT1_LOCK)
    said = night1.st("!approve", NIGHT1_LOCK + H)
    assert "These players still need a result: Brianna" in to(said, "pmtopic")[0]
    said = night1.tick(DAWN1)
    assert "## Dawn is delayed" in to(said, "topic")[0]
    assert night1.state.phase_label == "night 1"
    late = DAWN1 + 2 * H
    said = night1.st("!result Brianna Derek is the Witch or the Sage\n!approve", late)
    public = to(said, "topic")
    assert "## Day 1 begins" in public[0] and "Nobody died in the night." in public[0]
    assert night1.state.phase_label == "day 1 discussion"
    assert night1.state.phase_ends_at == late + timedelta(hours=12)  # counted from approval
    assert "Derek is the Witch or the Sage" in to(said, "pm:brianna")[0]
    assert "The Demon is 2 steps" in to(said, "pm:alex")[0]


def test_the_storytellers_are_reminded_an_hour_before_dawn(night1):
    night1.tick(NIGHT1_LOCK)
    said = night1.tick(DAWN1 - H)
    assert "Night 1 is not approved yet" in to(said, "pm:storytellers")[0]


def _to_night2(talk):
    talk.tick(NIGHT1_LOCK)
    talk.st("!result Brianna none\n!approve", NIGHT1_LOCK + H)
    talk.tick(DAWN1)
    talk.st("!endday --yes", DAWN1 + H)  # night 2 starts now
    return DAWN1 + H


def test_night_deaths_come_from_the_demon_and_the_storytellers_edits():
    talk = Conversation(botf_setup(dead=("Gus",)))
    talk.tick(START)
    talk.pm("Brianna", "/choose Derek", START + H)
    night2 = _to_night2(talk)
    assert talk.state.phase_label == "night 2"
    talk.pm("Fatima", "/choose Ellen", night2 + H)
    lock = talk.state.phase_ends_at - 2 * H
    sheet = to(talk.tick(lock), "pm:storytellers")[0]
    assert "**Deaths tonight:** Ellen" in sheet
    assert "killed earlier tonight: does not act" in sheet  # the Oracle wakes after the Demon
    said = talk.st("!dies Gus", lock + H)
    assert "Gus is already dead." in to(said, "pmtopic")[0]
    said = talk.st("!spare Ellen\n!dies Alex\n!tell Cameron \"You feel watched.\"\n"
                   "!result Brianna Fatima is the No Dashii or the Sage\n!approve", lock + H)
    assert "Done" in to(said, "pmtopic")[-1]
    said = talk.tick(talk.state.phase_ends_at)
    (dawn,) = to(said, "topic")
    assert "Alex died in the night." in dawn and "Ellen" not in dawn
    assert not talk.state.seat("Alex").alive and talk.state.seat("Ellen").alive
    assert "You feel watched." in to(said, "pm:cameron")[0]
    assert "No Dashii" not in dawn


def test_nodeath_clears_the_deaths_and_an_edit_needs_a_new_approval():
    talk = Conversation(botf_setup())
    talk.tick(START)
    night2 = _to_night2(talk)
    talk.pm("Fatima", "/choose Ellen", night2 + H)
    lock = talk.state.phase_ends_at - 2 * H
    talk.tick(lock)
    talk.approve(lock + H)
    talk.st("!nodeath", lock + 90 * timedelta(minutes=1))  # after approval: approve again
    said = talk.tick(talk.state.phase_ends_at)
    assert "## Dawn is delayed" in to(said, "topic")[0]
    said = talk.st("!approve", talk.state.phase_ends_at + H)
    assert "Nobody died in the night." in to(said, "topic")[0]


def test_a_once_per_game_ability_is_refused_the_second_time():
    talk = Conversation(botf_setup())
    talk.tick(START)
    talk.pm("Cameron", "/choose Alex Ellen", START + H)
    talk.pm("Brianna", "/choose Derek", START + H)
    night2 = _to_night2(talk)
    said = talk.pm("Cameron", "/choose Alex, Brianna", night2 + H)
    assert "already used your once-per-game ability (night 1)" in to(said, "pm:cameron")[0]


def test_night_commands_from_the_storyteller_are_refused_outside_a_night():
    talk = Conversation(botf_setup())
    talk.tick(START)
    said = talk.st("!approve", START + H)
    assert "The night sheet comes at the lock" in to(said, "pmtopic")[0]
    said = talk.st("!phase next", START + H)
    assert "Approve the night first" in to(said, "pmtopic")[0]


def test_status_shows_the_storytellers_the_night(night1):
    night1.pm("Derek", "/choose Cameron", START + H)
    said = night1.st("!status", START + 2 * H)
    assert "Night 1 (private): choices: Derek Cameron; open; not approved" in \
        to(said, "pmtopic")[0]


def _sheet_row(sheet: str, character: str) -> str:
    return next(line for line in sheet.splitlines() if f"| {character} |" in line)


@pytest.mark.parametrize("changes, expected", [
    ((), "The Demon is 2 steps from its nearest Minion."),
    ((("Alex", "poisoned", True),),
     "ST decides (malfunctioning); true answer: The Demon is 2 steps"),
    ((("Fatima", "character", "vortox"),),
     "false under the Vortox: The Demon is 1 step from its nearest Minion. (true: The "
     "Demon is 2 steps"),
    ((("Fatima", "character", "vortox"), ("Fatima", "poisoned", True)),
     "The Demon is 2 steps from its nearest Minion."),  # a poisoned Vortox does not work
])
def test_the_clockmaker_sober_malfunctioning_and_under_the_vortox(changes, expected):
    from dataclasses import replace
    setup = botf_setup()
    entries = dict(setup.grimoire)
    for player, field, value in changes:
        entries[player] = replace(entries[player], **{field: value})
    talk = Conversation(replace(setup, grimoire=tuple(entries.items())))
    talk.tick(START)
    sheet = to(talk.tick(NIGHT1_LOCK), "pm:storytellers")[0]
    assert expected in _sheet_row(sheet, "Clockmaker")


def test_night_2_information_oracle_town_crier_flowergirl():
    setup = botf_setup({"Alex": "oracle", "Brianna": "towncrier", "Cameron": "flowergirl",
                        "Derek": "witch", "Ellen": "clockmaker", "Fatima": "nodashii",
                        "Gus": "sage"})
    talk = Conversation(setup)
    talk.tick(START)
    talk.tick(NIGHT1_LOCK)
    talk.st("!result Ellen 2\n!approve", NIGHT1_LOCK + H)
    talk.tick(DAWN1)
    nominations = DAWN1 + timedelta(hours=12)
    talk.thread("Derek", "/nominate Gus", nominations + H)  # a Minion nominates
    talk.thread("Fatima", "/vote Gus yes", nominations + H)  # the Demon votes (locks later)
    talk.st("!kill Derek --yes", nominations + 2 * H)
    talk.st("!endday --yes", nominations + 3 * H)
    lock = talk.state.phase_ends_at - 2 * H
    sheet = to(talk.tick(lock), "pm:storytellers")[0]
    assert "Dead players on the Cultist team: 1." in _sheet_row(sheet, "Oracle")
    assert "A Minion nominated today: yes." in _sheet_row(sheet, "Town Crier")
    assert "The Demon voted today: yes." in _sheet_row(sheet, "Flowergirl")


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


def test_a_bare_number_replaces_a_computed_answer_inside_its_sentence(night1):
    """The Storytellers give a drunk Clockmaker a false count as a number: it reads as the
    Clockmaker's sentence."""
    night1.tick(NIGHT1_LOCK)
    said = night1.st("!result Alex 3\n!result Brianna none\n!approve", NIGHT1_LOCK + H)
    said += night1.tick(DAWN1)
    assert "The Demon is 3 steps from its nearest Minion." in to(said, "pm:alex")[0]


def test_status_names_characters_and_alignments_from_the_script(night1):
    """Messages that fit: with a script, `!status` writes each character's name and the
    alignment it implies in the script's words (BotF: Loyal, Cultist, as the role PMs say); a
    deadline is a [date] tag, never an ISO string outside the replay."""
    said = night1.st("!poison Alex\n!status", START + 2 * H)
    answer = to(said, "pmtopic")[0]
    assert "| 1 | Alex | Clockmaker | Loyal | alive | poisoned |  |" in answer
    assert "| 5 | Ellen | Oracle | Loyal | alive | malfunctioning |  |" in answer  # No Dashii
    assert "| 4 | Derek | Witch | Cultist | alive |  |  |" in answer
    head = answer.split('[details=')[0]
    assert "[date=" in head and not re.search(r"\d{4}-\d\d-\d\dT\d", head)
    assert re.search(r"\d{4}-\d\d-\d\dT\d", answer)  # the replay below keeps its own times
