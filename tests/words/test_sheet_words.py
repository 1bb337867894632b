"""How the night sheet and the role PMs read (the rules are
tests/rules/test_night_as_it_happens.py): counts of one are singular, a Monk without a choice,
evil bluffs not called good, a pass acknowledged, and only the commands a character uses."""

from dataclasses import replace
from datetime import timedelta

from modbot.files.scripts import load_script

from ..conversation import ALL, Conversation, botf_setup, night_sheet, to
from ..helpers import START
from ..rules.test_rulings_oops import teams_game


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


def test_a_demons_role_pm_does_not_call_evil_bluffs_good():
    """Wording: seed 002's bluffs can be evil characters; the role PM then does not call
    them good."""
    characters = {"Alex": "goon", "Brianna": "acrobat", "Cameron": "golem", "Derek": "poisoner",
                  "Ellen": "imp", "Fatima": "witch", "Gus": "vortox"}
    setup = replace(teams_game(characters, {"Derek": 1, "Ellen": 1, "Fatima": 2, "Gus": 2}),
                    bluffs=("moonchild", "lunatic", "pukka"))
    said = Conversation(setup).tick(START)
    ellen = to(said, "pm:ellen")[0]
    assert "Characters not in play, for your bluffs: Moonchild, Lunatic, Pukka." in ellen
    assert "Good characters" not in ellen


def test_a_pass_from_a_character_who_never_chooses_is_acknowledged():
    """Messages that fit: a Clockmaker's /pass is recorded ("you pass tonight"), not refused."""
    characters = {"Alex": "clockmaker", "Brianna": "dreamer", "Cameron": "seamstress",
                  "Derek": "witch", "Ellen": "oracle", "Fatima": "nodashii", "Gus": "towncrier"}
    talk = Conversation(botf_setup(characters))
    talk.tick(START)
    said = talk.pm("Alex", "/pass", START + timedelta(hours=1))
    (answer,) = to(said, "pm:alex")
    assert "you pass tonight" in answer


def test_each_role_pm_shows_only_the_commands_its_character_uses():
    """Messages that fit: no /choose for a Clockmaker; the Dreamer's one form; an example of
    NAME as CHARACTER where it applies; the Artist's way to use its ability by day."""
    characters = {"Alex": "clockmaker", "Brianna": "dreamer", "Cameron": "gambler",
                  "Derek": "witch", "Ellen": "artist", "Fatima": "imp", "Gus": "towncrier"}
    said = Conversation(botf_setup(characters, script=ALL)).tick(START)
    role = {p: to(said, f"pm:{p.lower()}")[0] for p in characters}
    own = {p: text.split("If your character might change")[0] for p, text in role.items()}
    assert "/choose" not in own["Alex"] and "makes no choice at night" in role["Alex"]
    assert "`/choose NAME`" in role["Brianna"] and "as CHARACTER" not in role["Brianna"]
    assert "`/choose NAME as CHARACTER` (for example `/choose Alex as Oracle`)" in role["Cameron"]
    assert "`/whisper Storyteller`" in role["Ellen"] and "/choose" not in own["Ellen"]
    assert "`/choose NAME if CHARACTER`" in role["Alex"]  # the script has a Pit-Hag
