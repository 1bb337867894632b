"""What the set-up's problems and the Storytellers' set-up answers read like (the rules are
tests/rules/test_setup.py): each problem explained in words, `!setup` and `!setup propose`."""

import pytest

from modbot.core.setup.composition import problems

from ..conversation import Conversation, botf_setup, to
from ..helpers import START
from ..rules.test_setup import ALMANAC, BLUFFS, BOTF, BOTF_7, BOTF_15, OOPS, _deal, _seats
from ..wording import worded


@pytest.mark.parametrize("script, characters, thinks, teams, bluffs, expected_problem", [
    (BOTF, (*BOTF_7[:-1], "fanggu"), {}, {}, BLUFFS,
     "0 outsider dealt; 7 players need 1 (+1 Outsider: Fang Gu)"),
    (BOTF, (*BOTF_15[:-1], "vigormortis"), {}, {}, BLUFFS,
     "2 outsider dealt; 15 players need 1 (-1 Outsider: Vigormortis)"),
    (ALMANAC, ("chef", "librarian", "noble", "pixie", "empath", "poisoner", "lilmonsta"),
     {}, {}, ("monk", "soldier", "savant"), "Lil' Monsta is not a player: deal one more "
     "Minion instead and set game.lil_monsta = true"),
    (ALMANAC, ("chef", "librarian", "noble", "huntsman", "mutant", "poisoner", "imp"),
     {}, {}, ("monk", "soldier", "savant"), "the Huntsman needs the Damsel in play"),
    (OOPS, ("goon", "acrobat", "puzzlemaster", "sweetheart", "godfather", "imp", "lunatic"),
     {7: "imp"}, {5: 1, 6: 1}, ("golem", "moonchild", "vortox"),
     "the Djinn's rules need at least two evil teams"),
    (ALMANAC, ("chef", "librarian", "noble", "pixie", "drunk", "poisoner", "imp"),
     {5: "chef"}, {}, ("monk", "soldier", "savant"),
     "P05 is the Drunk: they must think they are a Townsfolk not in play"),
    (ALMANAC, ("chef", "librarian", "noble", "pixie", "lunatic", "poisoner", "imp"),
     {5: "chef"}, {}, ("monk", "soldier", "savant"),
     "P05 is the Lunatic: they must think they are a Demon"),
    (OOPS, ("goon", "marionette", "acrobat", "imp", "poisoner", "vortox", "witch"),
     {2: "goon"}, {2: 1, 4: 1, 5: 1, 6: 2, 7: 2}, ("golem", "moonchild", "lleech"),
     "P02 is the Marionette: they must neighbour the Demon"),
    (OOPS, ("goon", "acrobat", "imp", "poisoner", "witch", "vortox", "pukka"),
     {}, {3: 1, 4: 1, 5: 1, 6: 2, 7: 2}, ("golem", "moonchild", "lleech"),
     "evil team 2 has 2 Demons; each team has exactly one"),
    (BOTF, BOTF_7, {}, {}, ("sage", "oracle", "artist"), "bluff Oracle is in play"),
    (BOTF, BOTF_7, {}, {}, ("sage", "artist"), "the Demon needs 3 bluffs (2 given)"),
    (BOTF, (*BOTF_7[:-3], "witch", "witch", "nodashii"), {}, {}, BLUFFS, "Witch is dealt twice"),
])
def test_every_problem_is_explained(script, characters, thinks, teams, bluffs,
                                    expected_problem):
    """Each problem in words; among them seed 002's Marionette: "The Marionette neighbors
    their team's Demon." and the Djinn: "The game starts with at least two evil teams, each
    having one Demon and same number of Minions." """
    found = worded(problems(script, _seats(len(characters)), _deal(characters, thinks, teams),
                            bluffs))
    assert any(expected_problem in p for p in found), found


def test_the_storytellers_read_the_set_up_check_and_a_proposal():
    talk = Conversation(botf_setup(bluffs=()))
    said = talk.st("!setup accept", START.replace(hour=9))
    assert "There is no proposed set-up" in to(said, "pmtopic")[0]
    (proposal,) = to(talk.st("!setup propose", START.replace(hour=10)), "pm:storytellers")
    assert "A random legal set-up" in proposal and "Bluffs for the Demon:" in proposal
    talk.st("!setup accept", START.replace(hour=11))
    said = talk.st("!setup", START.replace(hour=12))
    assert "The set-up is legal" in to(said, "pm:storytellers")[0]
    talk = Conversation(botf_setup())
    talk.st("!character Alex Witch", START.replace(hour=13))
    said = talk.st("!setup", START.replace(hour=14))
    assert "Witch is dealt twice" in to(said, "pm:storytellers")[0]


def test_a_proposal_for_several_evil_teams_lists_each_demons_bluffs():
    characters = {"Alex": "goon", "Brianna": "acrobat", "Cameron": "golem", "Derek": "poisoner",
                  "Ellen": "imp", "Fatima": "witch", "Gus": "vortox"}
    talk = Conversation(botf_setup(characters, script=OOPS, bluffs=()))
    said = to(talk.st("!setup propose", START.replace(hour=10)), "pm:storytellers")[0]
    assert said.count("(bluffs: ") >= 2 and "Bluffs for the Demon" not in said
