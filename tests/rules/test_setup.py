"""Set-up (issue 6): seed 001's composition table, the official 5 and 6, every set-up modifier
in the seeds, the Drunk, Lunatic and Marionette, the Djinn's several evil teams (seed 002);
random legal set-ups from a passed-in random source; `modbot setup` and `!setup`."""

import random
from dataclasses import replace
from pathlib import Path

import pytest

from modbot.core.setup.composition import composition, expected, problems
from modbot.core.setup.proposing import propose
from modbot.core.state.model import GrimoireEntry, Seat
from modbot.files.scripts import catalogue_script, load_script

from ..conversation import botf_setup
from ..helpers import START
from ..notices import Told, for_storytellers, of, says

ROOT = Path(__file__).resolve().parents[2]
BOTF, ALMANAC, OOPS = load_script("botf"), load_script("almanac"), load_script("oopsallevil")


def _seats(n):
    return tuple(Seat(f"P{i:02}") for i in range(1, n + 1))


def _deal(characters, thinks=None, teams=None):
    thinks, teams = thinks or {}, teams or {}
    return {f"P{i:02}": GrimoireEntry(character=c, thinks=thinks.get(i), evil_team=teams.get(i))
            for i, c in enumerate(characters, start=1)}


@pytest.mark.parametrize("players, counts", [
    (5, (3, 0, 1, 1)), (6, (3, 1, 1, 1)), (7, (5, 0, 1, 1)), (8, (5, 1, 1, 1)),
    (9, (5, 2, 1, 1)), (10, (7, 0, 2, 1)), (12, (7, 2, 2, 1)), (13, (9, 0, 3, 1)),
    (15, (9, 2, 3, 1)),
])
def test_the_composition_table(players, counts):
    assert tuple(composition(players).as_dict().values()) == counts


@pytest.mark.parametrize("in_play, counts, choices", [
    ({"fanggu"}, (4, 1, 1, 1), ()),  # [+1 Outsider]
    ({"vigormortis"}, (5, 0, 1, 1), ()),  # [-1 Outsider], never below zero
    ({"lilmonsta"}, (5, 0, 2, 0), ()),  # [+1 Minion], and no player holds the Demon
    ({"huntsman"}, (5, 0, 1, 1), (0, 1)),  # [+the Damsel], who may already be in play
    ({"godfather"}, (5, 0, 1, 1), (0, 1)),  # [-1 or +1 Outsider]
    ({"baron"}, (3, 2, 1, 1), ()),  # [+2 Outsiders]
    ({"baron", "godfather"}, (4, 1, 1, 1), (1, 3)),  # both shifts at once
    ({"balloonist"}, (5, 0, 1, 1), (0, 1)),  # [+0 or +1 Outsider]
    ({"lordoftyphon"}, (4, 0, 2, 1), ()),  # [+1 Minion], the Outsiders the Storytellers'
])
def test_modifiers_for_seven_players(in_play, counts, choices):
    found = expected(7, [catalogue_script().character(i) for i in in_play])
    assert tuple(found.as_dict().values()) == counts and found.outsider_choices == choices


BOTF_7 = ("clockmaker", "dreamer", "snakecharmer", "oracle", "savant", "witch", "nodashii")
BOTF_15 = ("clockmaker", "dreamer", "snakecharmer", "mathematician", "flowergirl",
           "towncrier", "oracle", "savant", "seamstress", "mutant", "sweetheart",
           "doppelganger", "witch", "cerenovus", "nodashii")
BLUFFS = ("sage", "artist", "juggler")


@pytest.mark.parametrize("characters", [BOTF_7, BOTF_15])
def test_seven_and_fifteen_player_botf_set_ups_are_legal(characters):
    assert problems(BOTF, _seats(len(characters)), _deal(characters), BLUFFS) == []


@pytest.mark.parametrize("script, characters, thinks, teams, bluffs, code, params", [
    (BOTF, (*BOTF_7[:-1], "fanggu"), {}, {}, BLUFFS,
     "setup.count", {"team": "outsider", "dealt": 0, "legal": (1,)}),  # +1 Outsider: Fang Gu
    (BOTF, (*BOTF_15[:-1], "vigormortis"), {}, {}, BLUFFS,
     "setup.count", {"team": "outsider", "dealt": 2, "legal": (1,)}),  # -1 Outsider
    (ALMANAC, ("chef", "librarian", "noble", "pixie", "empath", "poisoner", "lilmonsta"),
     {}, {}, ("monk", "soldier", "savant"), "setup.lil_monsta_dealt", {}),
    (ALMANAC, ("chef", "librarian", "noble", "huntsman", "mutant", "poisoner", "imp"),
     {}, {}, ("monk", "soldier", "savant"), "setup.requires", {"character": "Huntsman", "needed": "Damsel"}),
    (OOPS, ("goon", "acrobat", "puzzlemaster", "sweetheart", "godfather", "imp", "lunatic"),
     {7: "imp"}, {5: 1, 6: 1}, ("golem", "moonchild", "vortox"), "setup.two_teams", {}),
    (ALMANAC, ("chef", "librarian", "noble", "pixie", "drunk", "poisoner", "imp"),
     {5: "chef"}, {}, ("monk", "soldier", "savant"), "setup.drunk", {"player": "P05"}),
    (ALMANAC, ("chef", "librarian", "noble", "pixie", "lunatic", "poisoner", "imp"),
     {5: "chef"}, {}, ("monk", "soldier", "savant"), "setup.lunatic", {"player": "P05"}),
    (OOPS, ("goon", "marionette", "acrobat", "imp", "poisoner", "vortox", "witch"),
     {2: "goon"}, {2: 1, 4: 1, 5: 1, 6: 2, 7: 2}, ("golem", "moonchild", "lleech"),
     "setup.marionette_seat", {"player": "P02"}),
    (OOPS, ("goon", "acrobat", "imp", "poisoner", "witch", "vortox", "pukka"),
     {}, {3: 1, 4: 1, 5: 1, 6: 2, 7: 2}, ("golem", "moonchild", "lleech"),
     "setup.team_demons", {"team": 2, "demons": 2}),
    (BOTF, BOTF_7, {}, {}, ("sage", "oracle", "artist"), "setup.bluff_in_play",
     {"bluff": "Oracle"}),
    (BOTF, BOTF_7, {}, {}, ("sage", "artist"), "setup.bluff_count", {"given": 2, "wanted": 3}),
    (BOTF, (*BOTF_7[:-3], "witch", "witch", "nodashii"), {}, {}, BLUFFS, "setup.dealt_twice",
     {"character": "Witch"}),
])
def test_every_problem_is_found(script, characters, thinks, teams, bluffs, code, params):
    """Each problem as its code; among them seed 002's Marionette: "The Marionette neighbors
    their team's Demon." and the Djinn: "The game starts with at least two evil teams, each
    having one Demon and same number of Minions." (their words: tests/words/test_setup_words.py)"""
    found = problems(script, _seats(len(characters)), _deal(characters, thinks, teams), bluffs)
    assert says(found, code, **params), found


def test_the_godfather_allows_one_more_or_one_less_outsider():
    base = ("goon", "chef", "librarian", "noble", "pixie", "godfather", "imp")
    dealt = ("chef", "librarian", "noble", "pixie", "empath", "godfather", "imp")
    script = ALMANAC.with_characters((OOPS.find("godfather"), OOPS.find("goon")))
    bluffs = ("monk", "soldier", "savant")
    assert problems(script, _seats(7), _deal(base), bluffs) == []  # +1
    assert problems(script, _seats(7), _deal(dealt), bluffs) == []  # -1 (from 0: 0)


def test_the_djinn_teams_each_have_a_demon_and_as_many_minions():
    """Seed 002, Djinn: "The game starts with at least two evil teams, each having one Demon
    and same number of Minions." and "Not in play characters Demons are shown might include
    information about Demons not in play." (the bluffs here include the Lleech and Pukka)"""
    characters = ("goon", "acrobat", "imp", "poisoner", "witch", "vortox", "golem")
    teams = {3: 1, 4: 1, 5: 2, 6: 2}
    assert problems(OOPS, _seats(7), _deal(characters, teams=teams),
                    ("lleech", "pukka", "fanggu")) == []  # Demon bluffs may be shared


def test_the_djinn_teams_are_never_shown_the_same_other_bluff():
    """Seed 002, Djinn: "That information may be the same for multiple teams, information
    about characters of other types is unique between teams." (each Demon's own `bluffs`)"""
    characters = ("goon", "acrobat", "imp", "poisoner", "witch", "vortox", "golem")
    grimoire = _deal(characters, teams={3: 1, 4: 1, 5: 2, 6: 2})
    shared = ("lleech", "moonchild", "pukka")
    assert says(problems(OOPS, _seats(7), grimoire, shared), "setup.bluff_shared",
                bluff="Moonchild")
    grimoire["P03"] = replace(grimoire["P03"], bluffs=("lleech", "moonchild", "pukka"))
    grimoire["P06"] = replace(grimoire["P06"], bluffs=("lleech", "sweetheart", "pukka"))
    assert problems(OOPS, _seats(7), grimoire, ()) == []


@pytest.mark.parametrize("script", [BOTF, ALMANAC, OOPS], ids=["botf", "almanac", "oops"])
@pytest.mark.parametrize("players", [5, 7, 11, 15])
def test_random_set_ups_are_legal_and_repeatable(script, players):
    seats = _seats(players)
    for seed in range(25):
        grimoire, bluffs = propose(script, seats, random.Random(seed))
        assert problems(script, seats, grimoire, bluffs) == []
    assert propose(script, seats, random.Random(7)) == propose(script, seats, random.Random(7))


def _setup_notes(told: list) -> list:
    return [n for n in for_storytellers(told) if n.template.startswith("setup")]


def test_the_setup_command_answers_the_storytellers():
    talk = Told(botf_setup())
    said = talk.st("!setup", START.replace(hour=10))
    (note,) = _setup_notes(said)
    assert note.view["problems"] == ()
    talk.st("!character Alex Witch", START.replace(hour=11))
    (note,) = _setup_notes(talk.st("!setup", START.replace(hour=12)))
    assert says(note.view["problems"], "setup.dealt_twice", character="Witch")


def test_the_storytellers_can_draw_a_set_up_look_at_it_and_accept_it():
    talk = Told(botf_setup(bluffs=()))
    talk.st("!setup accept", START.replace(hour=9))
    assert says(talk.command.failed, "rejection.nothing_proposed")
    (proposal,) = _setup_notes(talk.st("!setup propose", START.replace(hour=10)))
    assert len(proposal.view["bluffs"]) == 3
    assert talk.state.grimoire == botf_setup().grimoire  # nothing changed yet
    again = Told(botf_setup(bluffs=()))
    again.st("!setup accept", START.replace(hour=9))
    assert _setup_notes(again.st("!setup propose", START.replace(hour=10))) == [proposal]
    # the same post draws the same set-up (a replay draws it again)
    talk.st("!setup accept", START.replace(hour=11))
    (note,) = _setup_notes(talk.st("!setup", START.replace(hour=12)))
    assert note.view["problems"] == ()
    assert len(talk.state.bluffs) == 3
    assert len(of(talk.tick(START), "role")) == 7


def test_setup_propose_for_several_evil_teams_gives_each_demon_its_bluffs():
    characters = {"Alex": "goon", "Brianna": "acrobat", "Cameron": "golem", "Derek": "poisoner",
                  "Ellen": "imp", "Fatima": "witch", "Gus": "vortox"}
    talk = Told(botf_setup(characters, script=OOPS, bluffs=()))
    (proposal,) = _setup_notes(talk.st("!setup propose", START.replace(hour=10)))
    assert not proposal.view["bluffs"]  # none shared: each Demon has its own
    own = [row["player"] for row in proposal.view["rows"] if says(row["text"], "setup.bluffs")]
    assert len(own) >= 2
