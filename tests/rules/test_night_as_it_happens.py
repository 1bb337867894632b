"""Issue: rules fidelity. Each rule in one line (the test's docstring); each test checks the
sheet row, the proposed result and the status as the Storytellers read them."""

from dataclasses import replace

import pytest

from modbot.files.scripts import load_script

from ..conversation import ALL, botf_setup, night_sheet
from .test_rulings_oops import teams_game

OOPS = load_script("oopsallevil")
CRIMSON = load_script("crimsonmoon").with_characters(load_script("botf").characters)


def test_a_step_sees_the_deaths_proposed_earlier_tonight():
    """Rule: information is as of the moment it is learned: an Oracle waking after the
    Vigormortis killed a Minion counts that Minion among the dead."""
    characters = {"Alex": "clockmaker", "Brianna": "dreamer", "Cameron": "seamstress",
                  "Derek": "witch", "Ellen": "oracle", "Fatima": "vigormortis",
                  "Gus": "towncrier"}
    entries, night, _ = night_sheet(botf_setup(characters), night=2,
                                    choices=(("Fatima", "/choose Derek"),))
    assert "Derek" in night.deaths
    assert entries["Ellen"].suggestion == "Dead players on the Cultist team: 1."
    assert dict(night.results)["Ellen"] == "Dead players on the Cultist team: 1."


def test_a_demon_killed_earlier_tonight_does_not_act_and_its_kill_does_not_land():
    """Rule: a player dead at their turn does not act (seed 001): with several evil teams, the
    Fang Gu wakes before the Imp and kills it; the Imp's choice does not die."""
    characters = {"Alex": "goon", "Brianna": "acrobat", "Cameron": "golem", "Derek": "poisoner",
                  "Ellen": "imp", "Fatima": "witch", "Gus": "fanggu"}
    setup = teams_game(characters, {"Derek": 1, "Ellen": 1, "Fatima": 2, "Gus": 2})
    entries, night, _ = night_sheet(setup, night=2, choices=(("Gus", "/choose Ellen"),
                                                             ("Ellen", "/choose Cameron")))
    assert "Ellen" in night.deaths and "Cameron" not in night.deaths
    assert entries["Ellen"].suggestion == "killed earlier tonight: does not act"


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
    assert entries["Gus"].suggestion == "killed earlier tonight: does not act"
    said = talk.dawn()
    assert [s.name for s in talk.state.seats if not s.alive] == ["Cameron", "Gus"]
    public = [s.raw for s in said if s.thread == "topic"]
    assert len(public) == 1 and "Cameron" in public[0] and "Gus" in public[0]  # one dawn post


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
    assert "cannot die tonight (the Innkeeper)" in entries["Brianna"].suggestion


def test_drunkenness_that_starts_tonight_shows_in_later_rows():
    """Rule: the Innkeeper's drunk (chosen first) is drunk at every later step: the Gambler
    malfunctions (its status says so) and its wrong guess kills nobody."""
    entries, night, _ = _innkeeper_night("/choose Brianna Cameron")
    assert "Brianna" not in night.deaths
    assert "drunk or poisoned" in entries["Brianna"].status or \
        "malfunctioning" in entries["Brianna"].status


def test_a_scarlet_woman_taking_over_at_night_is_proposed():
    """Rule: when a Demon is killed at night and a Scarlet Woman takes over, the sheet proposes
    her as the new Demon and she is told at night (seed 002)."""
    characters = {"Alex": "goon", "Brianna": "acrobat", "Cameron": "golem",
                  "Derek": "scarletwoman", "Ellen": "imp", "Fatima": "witch", "Gus": "fanggu"}
    setup = teams_game(characters, {"Derek": 1, "Ellen": 1, "Fatima": 2, "Gus": 2})
    _, night, _ = night_sheet(setup, night=2, choices=(("Gus", "/choose Ellen"),))
    changes = [(e.player, e.field, e.value) for e in night.effects]
    assert ("Derek", "character", "imp") in changes
    assert ("Derek", "The Demon died: you are now the Imp.") in night.tells


def test_a_philosopher_acts_as_its_new_ability_tonight_and_the_real_one_is_drunk():
    """Rule: the Philosopher has the chosen ability at once: it acts as it at that step
    tonight, and the player who really is that character is drunk from then on (their row
    malfunctions, its true-looking answer is not pre-filled)."""
    characters = {"Alex": "philosopher", "Brianna": "clockmaker", "Cameron": "seamstress",
                  "Derek": "witch", "Ellen": "oracle", "Fatima": "nodashii", "Gus": "towncrier"}
    entries, night, _ = night_sheet(botf_setup(characters), night=1,
                                    choices=(("Alex", "/choose Clockmaker"),))
    rows = [e for e in night.sheet if e.player == "Alex"]
    assert any(e.step == "clockmaker" and "step" in e.suggestion for e in rows)
    assert any(p == "Alex" and "step" in r for p, r in night.results)
    brianna = entries["Brianna"]
    assert "drunk or poisoned" in brianna.status or "malfunctioning" in brianna.status
    assert "Brianna" not in dict(night.results)


def test_a_monk_who_chose_no_one_protects_no_one():
    """Wording: a Monk without a choice protects nobody, and the sheet says so."""
    characters = {"Alex": "monk", "Brianna": "chef", "Cameron": "empath", "Derek": "poisoner",
                  "Ellen": "undertaker", "Fatima": "imp", "Gus": "soldier"}
    almanac = load_script("almanac")
    entries, _, _ = night_sheet(botf_setup(characters, script=almanac), night=2)
    assert entries["Alex"].suggestion == "no choice: nobody is protected"


def test_counts_of_one_are_singular():
    """Wording: "1 pair", "1 step"."""
    characters = {"Alex": "chef", "Brianna": "clockmaker", "Cameron": "seamstress",
                  "Derek": "witch", "Ellen": "nodashii", "Fatima": "oracle", "Gus": "towncrier"}
    entries, _, _ = night_sheet(botf_setup(characters, script=ALL), night=1)
    assert entries["Alex"].suggestion == "There is 1 pair of evil players sitting together."
    assert entries["Brianna"].suggestion == "The Demon is 1 step from its nearest Minion."



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
    assert "Ellen: Moonchild, Lunatic, Pukka" in text and "Gus: Sweetheart, Psychopath, Imp" in text
    assert "none set" not in text


def test_a_demons_role_pm_does_not_call_evil_bluffs_good():
    """Wording: seed 002's bluffs can be evil characters; the role PM then does not call
    them good."""
    from ..conversation import Conversation, to
    from ..helpers import START
    characters = {"Alex": "goon", "Brianna": "acrobat", "Cameron": "golem", "Derek": "poisoner",
                  "Ellen": "imp", "Fatima": "witch", "Gus": "vortox"}
    setup = replace(teams_game(characters, {"Derek": 1, "Ellen": 1, "Fatima": 2, "Gus": 2}),
                    bluffs=("moonchild", "lunatic", "pukka"))
    said = Conversation(setup).tick(START)
    ellen = to(said, "pm:ellen")[0]
    assert "Characters not in play, for your bluffs: Moonchild, Lunatic, Pukka." in ellen
    assert "Good characters" not in ellen


def test_a_lunatics_status_says_it_is_the_lunatic_not_drunk_or_poisoned():
    """Wording: the Lunatic only believes it is the Demon; its row says "is really the
    Lunatic", not "drunk or poisoned"."""
    characters = {"Alex": "clockmaker", "Brianna": "lunatic", "Cameron": "seamstress",
                  "Derek": "witch", "Ellen": "oracle", "Fatima": "imp", "Gus": "towncrier"}
    entries, _, _ = night_sheet(botf_setup(characters, script=ALL, thinks={"Brianna": "imp"}),
                                night=2, choices=(("Brianna", "/choose Alex"),))
    assert entries["Brianna"].status == ("is really the Lunatic",)


def _artist_day():
    from ..conversation import day_one
    characters = {"Alex": "artist", "Brianna": "dreamer", "Cameron": "seamstress",
                  "Derek": "witch", "Ellen": "oracle", "Fatima": "imp", "Gus": "towncrier"}
    return day_one(botf_setup(characters, script=ALL))


def test_an_ability_used_by_day_after_the_declaration_goes_to_the_storytellers():
    """Rule (seed 001): an ability used by day needs a public /whisper Storyteller first; then
    the request in the grimoire PM is acknowledged and put to the Storytellers to answer."""
    from datetime import timedelta

    from ..conversation import to
    talk, day = _artist_day()
    talk.thread("Alex", "/whisper Storyteller\nI have a question for the host.", day + timedelta(hours=1))
    said = talk.pm("Alex", "/action Is Fatima the Demon?", day + timedelta(hours=2))
    assert "is with the Storytellers" in to(said, "pm:alex")[0]
    note = to(said, "pm:storytellers")[0]
    assert "Is Fatima the Demon?" in note and "`!answer Alex TEXT`" in note
    answered = talk.st("!answer Alex Yes.", day + timedelta(hours=3))
    assert any("Yes." in raw for raw in to(answered, "pm:alex"))


def test_an_ability_used_by_day_without_the_declaration_is_sent_back_and_flagged():
    """Rule (seed 001): without the declaration the player is told to declare it first, and
    the Storytellers see the request flagged."""
    from datetime import timedelta

    from ..conversation import to
    talk, day = _artist_day()
    said = talk.pm("Alex", "/action Is Fatima the Demon?", day + timedelta(hours=2))
    assert "first declare it in the game thread" in to(said, "pm:alex")[0]
    assert to(said, "pm:storytellers")[0].startswith("Flagged:")


def test_a_step_sees_alignments_changed_earlier_tonight():
    """Rule: information is as of the moment: after the Snake Charmer swaps with the Demon,
    a later Chef counts the new alignments."""
    characters = {"Alex": "snakecharmer", "Brianna": "chef", "Cameron": "poisoner",
                  "Derek": "imp", "Ellen": "oracle", "Fatima": "empath", "Gus": "towncrier"}
    entries, _, _ = night_sheet(botf_setup(characters, script=ALL),
                                choices=(("Alex", "/choose Derek"), ("Cameron", "/choose Ellen")))
    assert entries["Brianna"].suggestion == "There are 0 pairs of evil players sitting together."


def test_a_step_sees_a_poisoning_made_earlier_tonight():
    """Rule: a player poisoned earlier tonight malfunctions at their step: the row says so and
    its true answer is not pre-filled as the result."""
    characters = {"Alex": "chef", "Brianna": "empath", "Cameron": "poisoner",
                  "Derek": "imp", "Ellen": "oracle", "Fatima": "librarian", "Gus": "towncrier"}
    entries, night, _ = night_sheet(botf_setup(characters, script=ALL),
                                    choices=(("Cameron", "/choose Brianna"),))
    assert "drunk or poisoned" in entries["Brianna"].status
    assert entries["Brianna"].suggestion.startswith("ST decides (drunk or poisoned)")
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


def test_a_pass_from_a_character_who_never_chooses_is_acknowledged():
    """Messages that fit: a Clockmaker's /pass is recorded ("you pass tonight"), not refused."""
    from ..conversation import Conversation, to
    from ..helpers import START
    characters = {"Alex": "clockmaker", "Brianna": "dreamer", "Cameron": "seamstress",
                  "Derek": "witch", "Ellen": "oracle", "Fatima": "nodashii", "Gus": "towncrier"}
    talk = Conversation(botf_setup(characters))
    talk.tick(START)
    from datetime import timedelta
    said = talk.pm("Alex", "/pass", START + timedelta(hours=1))
    (answer,) = to(said, "pm:alex")
    assert "you pass tonight" in answer


def test_each_role_pm_shows_only_the_commands_its_character_uses():
    """Messages that fit: no /choose for a Clockmaker; the Dreamer's one form; an example of
    NAME as CHARACTER where it applies; the Artist's way to use its ability by day."""
    from ..conversation import Conversation, to
    from ..helpers import START
    characters = {"Alex": "clockmaker", "Brianna": "dreamer", "Cameron": "gambler",
                  "Derek": "witch", "Ellen": "artist", "Fatima": "imp", "Gus": "towncrier"}
    said = Conversation(botf_setup(characters, script=ALL)).tick(START)
    role = {p: to(said, f"pm:{p.lower()}")[0] for p in characters}
    assert "/choose" not in role["Alex"] and "makes no choice at night" in role["Alex"]
    assert "`/choose NAME`" in role["Brianna"] and "as CHARACTER" not in role["Brianna"]
    assert "`/choose NAME as CHARACTER` (for example `/choose Alex as Oracle`)" in role["Cameron"]
    assert "`/whisper Storyteller`" in role["Ellen"] and "/choose" not in role["Ellen"]


def test_a_player_whose_character_changed_earlier_tonight_does_not_act_as_the_old_one():
    """Rule: the Pit-Hag turns the Empath into another character at its step; at the Empath's
    later step, that player does not act (neither as the Empath, nor as the new character)."""
    characters = {"Alex": "empath", "Brianna": "chef", "Cameron": "pithag",
                  "Derek": "imp", "Ellen": "oracle", "Fatima": "librarian", "Gus": "towncrier"}
    _entries, night, _ = night_sheet(botf_setup(characters, script=ALL), night=2,
                                    choices=(("Cameron", "/choose Alex as Sage"),))
    assert ("Alex", "character", "sage") in [(e.player, e.field, e.value) for e in night.effects]
    assert not [e for e in night.sheet if e.player == "Alex"]
