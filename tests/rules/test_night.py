"""The night's rules at the core, as codes and values (tests/notices.py): choices by PM, the
lock, the night sheet, the Storytellers' edits and approval, the dawn and the results (issue
5, seed 001 "Night Action Resolution"). What these messages read like is in
tests/words/test_night_words.py."""

from dataclasses import replace
from datetime import timedelta

import pytest

from ..conversation import ALL, DAWN1, NIGHT1_LOCK, botf_setup
from ..helpers import START
from ..notices import Told, failed, for_player, for_storytellers, public, rejected, says

H = timedelta(hours=1)


@pytest.fixture()
def night1():
    told = Told(botf_setup())
    told.tick(START)
    return told


def _choice(told: list, player: str):
    (notice,) = for_player(told, player, "night_choice")
    return notice.view["choice"]


def _sheet(told: list) -> dict:
    (notice,) = for_storytellers(told, "night_sheet")
    return notice.view["sheet"]


def _entry(sheet: dict, step: str):
    return next(e for e in sheet["entries"] if e.step == step)


def test_a_choice_is_accepted_restated_and_replaced_until_the_lock(night1):
    told = night1.pm("Derek", "/choose Alex", START + H)
    assert says(_choice(told, "Derek"), "choice.players", players=("Alex",))
    told = night1.pm("Derek", "Changed my mind.\n/choose Cameron", START + 2 * H)
    assert says(_choice(told, "Derek"), "choice.players", players=("Cameron",))
    choice = night1.state.night.choice_of("Derek")
    assert choice.players == ("Cameron",) and len(night1.state.night.choices) == 1


def test_a_late_choice_is_refused_with_the_deadline_and_changes_nothing(night1):
    night1.pm("Derek", "/choose Alex", START + H)
    night1.pm("Derek", "/choose Cameron", NIGHT1_LOCK + timedelta(minutes=5))
    (refused,) = night1.rejected
    assert refused.code == "night_locked" and refused.params == {"night": 1,
                                                                  "deadline": NIGHT1_LOCK}
    assert night1.state.night.choice_of("Derek").players == ("Alex",)


@pytest.mark.parametrize("author, raw, code", [
    ("Brianna", "/choose Brianna", "choice_self"),
    ("Cameron", "/choose Alex", "choice_count"),
    ("Cameron", "/choose Alex Alex", "choice_twice"),
    ("Fatima", "/choose Alex", "no_choice_tonight"),
    ("Derek", "/choose Zed", "unknown_player"),
    ("Derek", "/choose Alex as Imp", "unknown_character"),
])
def test_an_illegal_choice_is_refused_and_changes_nothing(night1, author, raw, code):
    night1.pm(author, raw, START + H)
    assert rejected(night1) == [code]
    assert night1.state.night is None or night1.state.night.choice_of(author) is None


def test_choices_follow_the_spec_characters_and_teams():
    told = Told(botf_setup({"Alex": "philosopher", "Brianna": "cerenovus",
                            "Cameron": "nodashii", "Derek": "oracle", "Ellen": "sage",
                            "Fatima": "artist", "Gus": "juggler"}))
    told.tick(START)
    told.pm("Brianna", "/choose Alex as Vortox", START + H)
    (refused,) = told.rejected
    assert refused.code == "choice_team" and refused.params["chosen"] == "Vortox"
    choice = _choice(told.pm("Brianna", "/choose Alex as Oracle", START + H), "Brianna")
    assert says(choice, "choice.players_as", players=("Alex",), character="Oracle")
    choice = _choice(told.pm("Alex", "/choose Snake Charmer", START + H), "Alex")
    assert says(choice, "choice.character", character="Snake Charmer")
    said = told.pm("Fatima", "/action I would like to ask my question tomorrow", START + H)
    (notice,) = for_player(said, "Fatima", "night_choice")
    assert notice.view["free"] and says(notice.view["choice"], "choice.text")


def test_a_dead_player_and_a_player_outside_the_game_cannot_choose():
    told = Told(botf_setup(dead=("Derek",)))
    told.tick(START)
    told.pm("Derek", "/choose Alex", START + H)
    assert rejected(told) == ["dead_no_ability"]
    assert told.pm("Stranger", "/choose Alex", START + H) == [] and told.rejected == ()


def test_reminders_go_to_players_who_owe_a_choice_before_the_lock(night1):
    night1.pm("Derek", "/choose Alex", START + H)
    told = night1.tick(NIGHT1_LOCK - 6 * H)
    reminded = sorted(n.player for n in told if n.template == "night_reminder")
    assert reminded == ["Brianna", "Cameron"]  # Dreamer, Seamstress; not the Witch


def test_at_the_lock_the_storytellers_get_the_sheet_in_night_order(night1):
    night1.pm("Derek", "/choose Cameron", START + H)
    night1.pm("Cameron", "/choose Alex and Ellen", START + H)
    night1.pm("Brianna", "/choose Derek", START + H)
    sheet = _sheet(night1.tick(NIGHT1_LOCK))
    assert [e.step for e in sheet["entries"]] == ["minioninfo", "demoninfo", "witch",
                                                  "clockmaker", "dreamer", "seamstress"]
    assert says(_entry(sheet, "clockmaker"), "result.clockmaker", value="2")  # Fatima 5, Derek 3
    dreamer = _entry(sheet, "dreamer")
    assert dreamer.needs_result and says(dreamer, "info.dreamer", player="Derek",
                                         character="Witch")
    assert says(_entry(sheet, "seamstress"), "result.seamstress", first="Alex", second="Ellen",
                value="yes")
    assert says(sheet["effects"], "effect.cursed_day", player="Cameron")


def test_approval_waits_for_every_result_and_dawn_waits_for_approval(night1):
    night1.pm("Brianna", "/choose Derek", START + H)
    night1.tick(NIGHT1_LOCK)
    night1.st("!approve", NIGHT1_LOCK + H)
    assert failed(night1) == ["rejection.results_missing"]
    assert says(night1.command.failed, "rejection.results_missing", players=("Brianna",))
    assert [n.template for n in public(night1.tick(DAWN1))] == ["dawn_delayed"]
    assert night1.state.phase_label == "night 1"
    late = DAWN1 + 2 * H
    told = night1.st("!result Brianna Derek is the Witch or the Sage\n!approve", late)
    (day,) = public(told)
    assert day.template == "phase_discussion" and day.view["deaths"] == ()
    assert night1.state.phase_label == "day 1 discussion"
    assert night1.state.phase_ends_at == late + timedelta(hours=12)  # counted from approval
    (brianna,) = for_player(told, "Brianna", "night_results")
    assert says(brianna.view["lines"], "free", text="Derek is the Witch or the Sage")
    (alex,) = for_player(told, "Alex", "night_results")
    assert says(alex.view["lines"], "result.clockmaker", value="2")


def test_the_storytellers_are_reminded_an_hour_before_dawn(night1):
    night1.tick(NIGHT1_LOCK)
    (reminder,) = for_storytellers(night1.tick(DAWN1 - H), "approval_reminder")
    assert reminder.view["night"] == 1 and reminder.view["dawn"] == DAWN1


def _to_night2(told: Told):
    told.tick(NIGHT1_LOCK)
    told.st("!result Brianna none\n!approve", NIGHT1_LOCK + H)
    told.tick(DAWN1)
    told.st("!endday --yes", DAWN1 + H)  # night 2 starts now
    return DAWN1 + H


def test_night_deaths_come_from_the_demon_and_the_storytellers_edits():
    told = Told(botf_setup(dead=("Gus",)))
    told.tick(START)
    told.pm("Brianna", "/choose Derek", START + H)
    night2 = _to_night2(told)
    assert told.state.phase_label == "night 2"
    told.pm("Fatima", "/choose Ellen", night2 + H)
    lock = told.state.phase_ends_at - 2 * H
    sheet = _sheet(told.tick(lock))
    assert sheet["deaths"] == ("Ellen",)
    assert says(_entry(sheet, "oracle"), "sheet.killed_earlier")  # the Oracle wakes after
    told.st("!dies Gus", lock + H)
    assert says(told.command.failed, "rejection.player_dead", nominee="Gus")
    told.st("!spare Ellen\n!dies Alex\n!tell Cameron \"You feel watched.\"\n"
            "!result Brianna Fatima is the No Dashii or the Sage\n!approve", lock + H)
    assert len(told.command.applied) == 5 and told.command.failed == ()
    dawn = told.tick(told.state.phase_ends_at)
    (day,) = public([n for n in dawn if n.template == "phase_discussion"])
    assert day.view["deaths"] == ("Alex",)
    assert not told.state.seat("Alex").alive and told.state.seat("Ellen").alive
    (cameron,) = for_player(dawn, "Cameron", "night_results")
    assert says(cameron.view["lines"], "free", text="You feel watched.")
    assert not any(says(n.view, "free") for n in public(dawn))  # no result reaches the thread


def test_nodeath_clears_the_deaths_and_an_edit_needs_a_new_approval():
    told = Told(botf_setup())
    told.tick(START)
    night2 = _to_night2(told)
    told.pm("Fatima", "/choose Ellen", night2 + H)
    lock = told.state.phase_ends_at - 2 * H
    told.tick(lock)
    told.approve(lock + H)
    told.st("!nodeath", lock + 90 * timedelta(minutes=1))  # after approval: approve again
    assert [n.template for n in public(told.tick(told.state.phase_ends_at))] == ["dawn_delayed"]
    (day,) = public(told.st("!approve", told.state.phase_ends_at + H))
    assert day.template == "phase_discussion" and day.view["deaths"] == ()


def test_a_once_per_game_ability_is_refused_the_second_time():
    told = Told(botf_setup())
    told.tick(START)
    told.pm("Cameron", "/choose Alex Ellen", START + H)
    told.pm("Brianna", "/choose Derek", START + H)
    night2 = _to_night2(told)
    told.pm("Cameron", "/choose Alex, Brianna", night2 + H)
    (refused,) = told.rejected
    assert refused.code == "once_used" and refused.params == {"night": 1}


def test_night_commands_from_the_storyteller_are_refused_outside_a_night():
    told = Told(botf_setup())
    told.tick(START)
    told.st("!approve", START + H)
    assert failed(told) == ["rejection.sheet_not_ready"]
    told.st("!phase next", START + H)
    assert failed(told) == ["rejection.approve_first"]


@pytest.mark.parametrize("changes, code, false, true", [
    ((), "result.clockmaker", None, "2"),
    ((("Alex", "poisoned", True),), "sheet.malfunctioning", None, "2"),
    ((("Fatima", "character", "vortox"),), "sheet.vortox", "1", "2"),
    ((("Fatima", "character", "vortox"), ("Fatima", "poisoned", True)),
     "result.clockmaker", None, "2"),  # a poisoned Vortox does not work
])
def test_the_clockmaker_sober_malfunctioning_and_under_the_vortox(changes, code, false, true):
    setup = botf_setup()
    entries = dict(setup.grimoire)
    for player, field, changed in changes:
        entries[player] = replace(entries[player], **{field: changed})
    told = Told(replace(setup, grimoire=tuple(entries.items())))
    told.tick(START)
    suggestion = _entry(_sheet(told.tick(NIGHT1_LOCK)), "clockmaker").suggestion
    assert suggestion.code == code
    answer = suggestion if code == "result.clockmaker" else suggestion.param("true")
    assert answer.param("value") == true  # the true answer, beside any other
    if false is not None:  # the Vortox's false answer is the one to give
        assert suggestion.param("false").param("value") == false


def test_night_2_information_oracle_town_crier_flowergirl():
    setup = botf_setup({"Alex": "oracle", "Brianna": "towncrier", "Cameron": "flowergirl",
                        "Derek": "witch", "Ellen": "clockmaker", "Fatima": "nodashii",
                        "Gus": "sage"})
    told = Told(setup)
    told.tick(START)
    told.tick(NIGHT1_LOCK)
    told.st("!result Ellen 2\n!approve", NIGHT1_LOCK + H)
    told.tick(DAWN1)
    nominations = DAWN1 + timedelta(hours=12)
    told.thread("Derek", "/nominate Gus", nominations + H)  # a Minion nominates
    told.thread("Fatima", "/vote Gus yes", nominations + H)  # the Demon votes (locks later)
    told.st("!kill Derek --yes", nominations + 2 * H)
    told.st("!endday --yes", nominations + 3 * H)
    sheet = _sheet(told.tick(told.state.phase_ends_at - 2 * H))
    assert says(_entry(sheet, "oracle"), "result.oracle", value="1")
    assert says(_entry(sheet, "towncrier"), "result.towncrier", value="yes")
    assert says(_entry(sheet, "flowergirl"), "result.flowergirl", value="yes")


def test_a_bare_number_replaces_a_computed_answer_inside_its_sentence(night1):
    """The Storytellers give a drunk Clockmaker a false count as a number: it is the
    Clockmaker's result with that value, not a free text."""
    night1.tick(NIGHT1_LOCK)
    told = night1.st("!result Alex 3\n!result Brianna none\n!approve", NIGHT1_LOCK + H)
    told += night1.tick(DAWN1)
    (alex,) = for_player(told, "Alex", "night_results")
    assert says(alex.view["lines"], "result.clockmaker", value="3")
    assert not says(alex.view["lines"], "free")


def test_a_bare_result_for_a_counting_character_is_its_sentence_and_words_pass_as_written():
    characters = {"Alex": "mathematician", "Brianna": "dreamer", "Cameron": "seamstress",
                  "Derek": "witch", "Ellen": "oracle", "Fatima": "nodashii", "Gus": "towncrier"}
    for typed, code in (("1", "result.mathematician"), ("Two of you were drunk.", "free")):
        told = Told(botf_setup(characters, script=ALL))
        told.tick(START)
        told.tick(NIGHT1_LOCK)
        said = told.st(f"!result Alex {typed}\n!result Brianna none\n!approve",
                       NIGHT1_LOCK + H)
        (alex,) = for_player(said + told.tick(DAWN1), "Alex", "night_results")
        assert [line.code for line in alex.view["lines"]] == [code]


def test_night_choices_are_rules_of_the_registry():
    """Issue 39: a night command is decided by the registry's rule for it (after its refusals
    for anyone not seated and for a game that is over), as a thread action is."""
    from modbot.core.night.choices import decide_choice
    from modbot.core.registry import RULES
    from modbot.core.state.night_actions import Choose, FreeAction, Help, Pass
    assert all(RULES[kind] is decide_choice for kind in (Choose, Pass, FreeAction, Help))


def test_a_substitutes_seat_credits_the_earlier_night_choice_to_who_made_it(night1):
    """Issue 56: a `!sub` renames the seat through the whole game; what the seat's earlier
    holder did (night 1's choice, a nomination) is reported as theirs, not the substitute's,
    and what the substitute does after is theirs."""
    from modbot.core import report
    night1.pm("Derek", "/choose Alex", START + H)
    night1.tick(NIGHT1_LOCK)
    night1.approve(NIGHT1_LOCK + H)
    night1.tick(DAWN1)
    night1.st("!sub Derek Zed --yes", DAWN1 + H)
    assert [s.name for s in night1.state.seats if s.name in ("Derek", "Zed")] == ["Zed"]
    assert list(report(night1.state)["nights"][0]["choices"]) == ["Derek"]
    later = DAWN1 + 13 * H  # the nominations
    night1.thread("Zed", "/nominate Alex", later)
    (nomination,) = report(night1.state)["days"][0]["nominations"]
    assert nomination["nominator"] == "Zed"
