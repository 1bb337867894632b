"""Issue: rules fidelity. Each rule in one line (the test's docstring); each test checks the
sheet row, the proposed result and the status as the core keeps them (codes and values:
tests/notices.py). How they read is in tests/words/test_sheet_words.py."""

from dataclasses import replace
from datetime import timedelta

import pytest

from modbot.core.wording import say
from modbot.files.scripts import load_script

from ..conversation import ALL, botf_setup
from ..notices import day_one, for_player, for_storytellers, night_sheet, public, says
from .test_rulings_oops import teams_game

OOPS = load_script("oopsallevil")
CRIMSON = load_script("crimsonmoon").with_characters(load_script("botf").characters)
H = timedelta(hours=1)


def test_a_step_sees_the_deaths_proposed_earlier_tonight():
    """Rule: information is as of the moment it is learned: an Oracle waking after the
    Vigormortis killed a Minion counts that Minion among the dead."""
    characters = {"Alex": "clockmaker", "Brianna": "dreamer", "Cameron": "seamstress",
                  "Derek": "witch", "Ellen": "oracle", "Fatima": "vigormortis",
                  "Gus": "towncrier"}
    entries, night, _ = night_sheet(botf_setup(characters), night=2,
                                    choices=(("Fatima", "/choose Derek"),))
    assert "Derek" in night.deaths
    assert says(entries["Ellen"].suggestion, "result.oracle", team="Cultist", value="1")
    assert says(dict(night.results)["Ellen"], "result.oracle", value="1")


def test_a_demon_killed_earlier_tonight_does_not_act_and_its_kill_does_not_land():
    """Rule: a player dead at their turn does not act (seed 001): with several evil teams, the
    Fang Gu wakes before the Imp and kills it; the Imp's choice does not die."""
    characters = {"Alex": "goon", "Brianna": "acrobat", "Cameron": "golem", "Derek": "poisoner",
                  "Ellen": "imp", "Fatima": "witch", "Gus": "fanggu"}
    setup = teams_game(characters, {"Derek": 1, "Ellen": 1, "Fatima": 2, "Gus": 2})
    entries, night, _ = night_sheet(setup, night=2, choices=(("Gus", "/choose Ellen"),
                                                             ("Ellen", "/choose Cameron")))
    assert "Ellen" in night.deaths and "Cameron" not in night.deaths
    assert entries["Ellen"].suggestion.code == "sheet.killed_earlier"


def test_a_lleech_dies_with_its_host_in_the_same_night_and_does_not_act():
    """Rule: a Lleech whose host the Demon killed before the Lleech's turn is dead at its turn:
    its own choice does not die, and its death is in the night's one deaths line."""
    characters = {"Alex": "goon", "Brianna": "acrobat", "Cameron": "golem", "Derek": "poisoner",
                  "Ellen": "imp", "Fatima": "witch", "Gus": "lleech"}
    setup = teams_game(characters, {"Derek": 1, "Ellen": 1, "Fatima": 2, "Gus": 2})
    entries, night, talk = night_sheet(
        setup, night=2, choices=(("Ellen", "/choose Cameron"), ("Gus", "/choose Brianna")),
        night1=(("Gus", "/choose Cameron"),))
    assert night.deaths == ("Cameron", "Gus")
    assert entries["Gus"].suggestion.code == "sheet.killed_earlier"
    said = talk.dawn()
    assert [s.name for s in talk.state.seats if not s.alive] == ["Cameron", "Gus"]
    (dawn,) = [n for n in public(said) if n.template == "phase_discussion"]
    assert dawn.view["deaths"] == ("Cameron", "Gus")  # one dawn post names both


def _innkeeper_night(innkeeper_choice: str):
    """Night 2: the Innkeeper's choice, and the Gambler's wrong guess (Gus is the Chef)."""
    characters = {"Alex": "innkeeper", "Brianna": "gambler", "Cameron": "seamstress",
                  "Derek": "poisoner", "Ellen": "oracle", "Fatima": "imp", "Gus": "chef"}
    return night_sheet(botf_setup(characters, script=CRIMSON), night=2,
                       choices=(("Alex", innkeeper_choice), ("Brianna", "/choose Gus as Empath")))


def test_the_innkeepers_players_cannot_die_by_their_own_ability():
    """Rule: the Innkeeper's two players "can't die tonight" from any cause (seed 003): a
    protected Gambler's wrong guess kills nobody."""
    entries, night, _ = _innkeeper_night("/choose Cameron Brianna")
    assert "Brianna" not in night.deaths
    assert says(entries["Brianna"].suggestion, "sheet.protected", player="Brianna")
    assert says(entries["Brianna"].suggestion, "by.character", character="Innkeeper")


def test_drunkenness_that_starts_tonight_shows_in_later_rows():
    """Rule: the Innkeeper's drunk (chosen first) is drunk at every later step: the Gambler
    malfunctions (its status says so) and its wrong guess kills nobody."""
    entries, night, _ = _innkeeper_night("/choose Brianna Cameron")
    assert "Brianna" not in night.deaths
    assert says(entries["Brianna"].status, "status.malfunctioning")
    assert entries["Brianna"].suggestion.code == "info.gambler_malfunctions"


def test_a_scarlet_woman_taking_over_at_night_is_proposed():
    """Rule: when a Demon is killed at night and a Scarlet Woman takes over, the sheet proposes
    her as the new Demon and she is told at night (seed 002)."""
    characters = {"Alex": "goon", "Brianna": "acrobat", "Cameron": "golem",
                  "Derek": "scarletwoman", "Ellen": "imp", "Fatima": "witch", "Gus": "fanggu"}
    setup = teams_game(characters, {"Derek": 1, "Ellen": 1, "Fatima": 2, "Gus": 2})
    _, night, _ = night_sheet(setup, night=2, choices=(("Gus", "/choose Ellen"),))
    changes = [(e.player, e.field, e.value) for e in night.effects]
    assert ("Derek", "character", "imp") in changes
    assert any(p == "Derek" and says(t, "tell.scarlet_woman", character="Imp")
               for p, t in night.tells)


def test_a_philosopher_acts_as_its_new_ability_tonight_and_the_real_one_is_drunk():
    """Rule: the Philosopher has the chosen ability at once: it acts as it at that step
    tonight, and the player who really is that character is drunk from then on (their row
    malfunctions, its true-looking answer is not pre-filled)."""
    characters = {"Alex": "philosopher", "Brianna": "clockmaker", "Cameron": "seamstress",
                  "Derek": "witch", "Ellen": "oracle", "Fatima": "nodashii", "Gus": "towncrier"}
    entries, night, _ = night_sheet(botf_setup(characters), night=1,
                                    choices=(("Alex", "/choose Clockmaker"),))
    rows = [e for e in night.sheet if e.player == "Alex"]
    assert any(e.step == "clockmaker" and says(e.suggestion, "result.clockmaker", value="2")
               for e in rows)
    assert any(p == "Alex" and says(r, "result.clockmaker") for p, r in night.results)
    brianna = entries["Brianna"]
    assert says(brianna.status, "status.malfunctioning")
    assert "Brianna" not in dict(night.results)



def test_the_first_nights_demon_info_shows_each_demons_bluffs():
    """Rule: the first night's Demon-info row shows the bluffs each Demon was given (seed 002:
    each evil team's Demon has its own), not "none set"."""
    characters = {"Alex": "goon", "Brianna": "acrobat", "Cameron": "golem", "Derek": "poisoner",
                  "Ellen": "imp", "Fatima": "witch", "Gus": "vortox"}
    setup = teams_game(characters, {"Derek": 1, "Ellen": 1, "Fatima": 2, "Gus": 2})
    own = {"Ellen": ("moonchild", "lunatic", "pukka"), "Gus": ("sweetheart", "psychopath", "imp")}
    setup = replace(setup, bluffs=(), grimoire=tuple(
        (p, replace(e, bluffs=own.get(p, ()))) for p, e in setup.grimoire))
    entries, _, _ = night_sheet(setup)
    text = entries["demoninfo"].suggestion
    assert says(text, "sheet.demon_learned", demon="Ellen", bluffs=("Moonchild", "Lunatic", "Pukka"))
    assert says(text, "sheet.demon_learned", demon="Gus",
                bluffs=("Sweetheart", "Psychopath", "Imp"))
    assert not says(text, "sheet.none_set")


def test_a_lunatics_status_says_it_is_the_lunatic_not_drunk_or_poisoned():
    """Rule: the Lunatic only believes it is the Demon; its row says it is really the
    Lunatic, not that it malfunctions."""
    characters = {"Alex": "clockmaker", "Brianna": "lunatic", "Cameron": "seamstress",
                  "Derek": "witch", "Ellen": "oracle", "Fatima": "imp", "Gus": "towncrier"}
    entries, _, _ = night_sheet(botf_setup(characters, script=ALL, thinks={"Brianna": "imp"}),
                                night=2, choices=(("Brianna", "/choose Alex"),))
    (status,) = entries["Brianna"].status
    assert says(status, "status.is_really", character="Lunatic")


def _artist_day():
    characters = {"Alex": "artist", "Brianna": "dreamer", "Cameron": "seamstress",
                  "Derek": "witch", "Ellen": "oracle", "Fatima": "imp", "Gus": "towncrier"}
    return day_one(botf_setup(characters, script=ALL))


def test_an_ability_used_by_day_after_the_declaration_goes_to_the_storytellers():
    """Rule (seed 001): an ability used by day needs a public /whisper Storyteller first; then
    the request in the grimoire PM is acknowledged and put to the Storytellers to answer."""
    talk, day = _artist_day()
    talk.thread("Alex", "/whisper Storyteller\nI have a question for the host.", day + H)
    said = talk.pm("Alex", "/action Is Fatima the Demon?", day + 2 * H)
    (ack,) = for_player(said, "Alex", "day_request")
    (note,) = for_storytellers(said, "day_request_st")
    assert ack.view["event"].declared and note.view["event"].text == "Is Fatima the Demon?"
    (answer,) = for_player(talk.st("!answer Alex Yes.", day + 3 * H), "Alex", "night_results")
    assert answer.view["lines"] == ["Yes."]


def test_an_ability_used_by_day_without_the_declaration_is_sent_back_and_flagged():
    """Rule (seed 001): without the declaration the player is told to declare it first, and
    the Storytellers see the request flagged."""
    talk, day = _artist_day()
    said = talk.pm("Alex", "/action Is Fatima the Demon?", day + 2 * H)
    (ack,) = for_player(said, "Alex", "day_request")
    (note,) = for_storytellers(said, "day_request_st")
    assert not ack.view["event"].declared and not note.view["event"].declared  # flagged


def test_a_step_sees_alignments_changed_earlier_tonight():
    """Rule: information is as of the moment: after the Snake Charmer swaps with the Demon,
    a later Chef counts the new alignments."""
    characters = {"Alex": "snakecharmer", "Brianna": "chef", "Cameron": "poisoner",
                  "Derek": "imp", "Ellen": "oracle", "Fatima": "empath", "Gus": "towncrier"}
    entries, _, _ = night_sheet(botf_setup(characters, script=ALL),
                                choices=(("Alex", "/choose Derek"), ("Cameron", "/choose Ellen")))
    assert says(entries["Brianna"].suggestion, "result.chef", value="0")


def test_a_step_sees_a_poisoning_made_earlier_tonight():
    """Rule: a player poisoned earlier tonight malfunctions at their step: the row says so and
    its true answer is not pre-filled as the result."""
    characters = {"Alex": "chef", "Brianna": "empath", "Cameron": "poisoner",
                  "Derek": "imp", "Ellen": "oracle", "Fatima": "librarian", "Gus": "towncrier"}
    entries, night, _ = night_sheet(botf_setup(characters, script=ALL),
                                    choices=(("Cameron", "/choose Brianna"),))
    assert says(entries["Brianna"].status, "status.malfunctioning", term="drunk or poisoned")
    assert entries["Brianna"].suggestion.code == "sheet.malfunctioning"
    assert "Brianna" not in dict(night.results)


PROTECTION = {"Alex": "monk", "Brianna": "gambler", "Cameron": "chef", "Derek": "assassin",
              "Ellen": "innkeeper", "Fatima": "imp", "Gus": "soldier"}


@pytest.mark.parametrize("choices, victim, dies", [
    ((("Fatima", "/choose Cameron"), ("Alex", "/choose Cameron")), "Cameron", False),
    ((("Fatima", "/choose Cameron"), ("Ellen", "/choose Alex Cameron")), "Cameron", False),
    ((("Fatima", "/choose Gus"),), "Gus", False),  # the Soldier
    ((("Brianna", "/choose Cameron as Imp"), ("Ellen", "/choose Alex Brianna")), "Brianna",
     False),  # the Innkeeper: any cause, the Gambler's own guess too
    ((("Brianna", "/choose Cameron as Imp"), ("Alex", "/choose Brianna")), "Brianna",
     True),  # the Monk: only the Demon
    ((("Derek", "/choose Cameron"), ("Alex", "/choose Cameron")), "Cameron", True),
    ((("Derek", "/choose Cameron"), ("Ellen", "/choose Alex Cameron")), "Cameron", True),
])
def test_every_protection_covers_the_causes_it_names(choices, victim, dies):
    """Rule: the Innkeeper's players cannot die tonight by any cause; the Monk's choice and the
    Soldier are safe from the Demon only; the Assassin's kill lands through every protection."""
    _, night, _ = night_sheet(botf_setup(PROTECTION, script=ALL), night=2, choices=choices)
    assert (victim in night.deaths) is dies


def test_a_player_whose_character_changed_earlier_tonight_does_not_act_as_the_old_one():
    """Rule: the Pit-Hag turns the Empath into another character at its step; at the Empath's
    later step, that player does not act as the Empath. Since issue 40 they act as the new
    character at its step, that step being still to come (seed 001: "All actions are
    processed in a specific order each night"): the Sage, not killed, learns nothing."""
    characters = {"Alex": "empath", "Brianna": "chef", "Cameron": "pithag",
                  "Derek": "imp", "Ellen": "oracle", "Fatima": "librarian", "Gus": "towncrier"}
    _entries, night, _ = night_sheet(botf_setup(characters, script=ALL), night=2,
                                    choices=(("Cameron", "/choose Alex as Sage"),))
    assert ("Alex", "character", "sage") in [(e.player, e.field, e.value) for e in night.effects]
    rows = {e.step: e.suggestion for e in night.sheet if e.player == "Alex"}
    assert rows == {"sage": say("info.sage_none"), "empath": say(
        "sheet.changed_before_step", character="Empath", now="Sage")}
