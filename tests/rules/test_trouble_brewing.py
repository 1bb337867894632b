"""The Trouble Brewing characters the bot runs (issue 54, begun): one scenario each, on a host's
Trouble Brewing script, named after the ability it checks (in our words). The red herring is a
set-up choice (`modbot setup --propose` marks it; the grimoire keeps it as a reminder)."""

import random
from dataclasses import replace
from datetime import timedelta

import pytest

from modbot.core.characters.wins import WINS_DETECTED
from modbot.core.setup.composition import problems
from modbot.core.setup.proposing import propose
from modbot.core.state.model import Seat
from modbot.core.state.script import Script
from modbot.files.scripts import catalogue, official_jinxes

from ..conversation import botf_setup
from ..helpers import START
from ..notices import Told, day_one, night_sheet, rejected, says

H = timedelta(hours=1)
SEATS = ("Alex", "Brianna", "Cameron", "Derek", "Ellen", "Fatima", "Gus")
TB = Script.from_data("tb", [
    "washerwoman", "librarian", "investigator", "chef", "empath", "fortuneteller", "undertaker",
    "monk", "ravenkeeper", "virgin", "slayer", "soldier", "mayor", "butler", "drunk", "recluse",
    "saint", "poisoner", "spy", "scarletwoman", "baron", "imp", "thief", "bureaucrat",
    "gunslinger", "beggar", "scapegoat"],
    catalogue(),
    jinxes=official_jinxes())
BASE = ["chef", "empath", "soldier", "poisoner", "imp", "monk", "undertaker"]


def game(alex="chef", *, brianna="empath", dead=(), herring=None, **kw):
    characters = dict(zip(SEATS, [alex, brianna, *BASE[2:]], strict=True))
    setup = botf_setup(characters, script=TB, bluffs=("librarian", "virgin", "mayor"),
                       dead=dead, **kw)
    if herring:
        grimoire = dict(setup.grimoire)
        grimoire[herring] = replace(grimoire[herring], reminders=("red herring",))
        setup = replace(setup, grimoire=tuple(grimoire.items()))
    return setup


def _wins(told):
    return [(winner, reason.code) for winner, reason in WINS_DETECTED.of(told.state)]


def washerwoman_learns_a_townsfolk_among_two():
    entries, _, _ = night_sheet(game("washerwoman"))
    assert says(entries["Alex"].suggestion, "result.one_of", character="Empath")


def test_with_a_spy_in_play_the_answer_is_only_proposed():
    """The Spy "might register as good & as a Townsfolk": the Washerwoman's answer is the
    Storytellers' to judge, the true one proposed."""
    characters = dict(zip(SEATS, ["washerwoman", "empath", "soldier", "spy", "imp", "monk",
                                  "undertaker"], strict=True))
    setup = botf_setup(characters, script=TB, bluffs=("librarian", "virgin", "mayor"))
    entries, _, _ = night_sheet(setup)
    row = entries["Alex"]
    assert row.needs_result and says(row.suggestion, "info.might_register", characters=("Spy",))
    assert says(row.suggestion, "result.one_of", character="Empath")


def investigator_learns_a_minion_among_two():
    entries, _, _ = night_sheet(game("investigator"))
    assert says(entries["Alex"].suggestion, "result.one_of", character="Poisoner")


def fortune_teller_reads_the_demon_and_its_red_herring():
    ask = (("Alex", "/choose Ellen Brianna"),)
    entries, _, _ = night_sheet(game("fortuneteller", herring="Cameron"), choices=ask)
    assert says(entries["Alex"].suggestion, "result.fortune_teller", value="yes")
    ask = (("Alex", "/choose Cameron Brianna"),)
    entries, _, _ = night_sheet(game("fortuneteller", herring="Cameron"), choices=ask)
    assert says(entries["Alex"].suggestion, "result.fortune_teller", value="yes")
    entries, _, _ = night_sheet(game("fortuneteller", herring="Gus"), choices=ask)
    assert says(entries["Alex"].suggestion, "result.fortune_teller", value="no")
    entries, _, _ = night_sheet(game("fortuneteller"), choices=ask)  # no red herring marked
    assert says(entries["Alex"].suggestion, "info.no_red_herring")


def ravenkeeper_killed_at_night_learns_a_character():
    _, night, _ = night_sheet(game("ravenkeeper"), night=2, choices=(
        ("Ellen", "/choose Alex"), ("Alex", "/choose Derek")))
    assert "Alex" in night.deaths
    row = next(e for e in night.sheet if e.player == "Alex")
    assert says(row.suggestion, "result.is_the", player="Derek", character="Poisoner")


def slayer_shoots_the_demon_once():
    told, day = day_one(game("slayer"))
    told.thread("Alex", "/choose Brianna", day + H)  # not the Demon: nothing, but spent
    assert told.state.seat("Brianna").alive
    told.thread("Alex", "/choose Ellen", day + 2 * H)
    assert rejected(told) == ["public_used"] and told.state.seat("Ellen").alive
    told, day = day_one(game("slayer"))
    told.thread("Alex", "/choose Ellen", day + H)
    assert not told.state.seat("Ellen").alive


def saint_executed_loses_for_good():
    told, day = day_one(game(brianna="saint"))
    told.st("!execute Brianna --yes", day + H)
    assert ("evil", "win.saint") in _wins(told)


def mayor_wins_a_day_of_three_without_an_execution():
    told, day = day_one(game("mayor", dead=("Brianna", "Cameron", "Derek", "Fatima")))
    told.end_day(day + H)
    assert ("good", "win.mayor") in _wins(told)
    entries, night, _ = night_sheet(game("mayor"), night=2, choices=(("Ellen", "/choose Alex"),))
    assert night.deaths == ("Alex",)  # proposed: the bounce is the Storytellers' call
    row = entries["Ellen"]
    assert says(row.suggestion, "info.mayor_bounce", player="Alex")


def virgin_executes_a_townsfolk_nominator_at_once():
    told, day = day_one(game("virgin"))
    told.tick(day + 12 * H)  # nominations open
    told.thread("Derek", "/nominate Alex", day + 13 * H)  # a Minion: nothing happens
    assert told.state.phase.is_day and told.state.seat("Derek").alive
    told, day = day_one(game("virgin"))
    told.tick(day + 12 * H)
    told.thread("Brianna", "/nominate Alex", day + 13 * H)  # the Empath, a Townsfolk
    assert not told.state.seat("Brianna").alive
    assert told.state.past_days[-1].executed == "Brianna" and not told.state.phase.is_day


def _with_traveller(character: str):
    """Seven residents and Hana, a traveller holding `character`."""
    characters = dict(zip((*SEATS, "Hana"), [*BASE, character], strict=True))
    setup = botf_setup(characters, script=TB, bluffs=("librarian", "virgin", "mayor"))
    return replace(setup, seats=tuple(replace(s, traveller=s.name == "Hana")
                                      for s in setup.seats))


def _yes_votes(setup, night_choice: str, voters=("Alex", "Brianna"), chooser="Hana",
               no=()) -> int:
    """Night 1's choice by `chooser`, then day 1: Alex nominates Gus, `voters` vote yes and
    `no` vote no."""
    from ..conversation import to_dawn_one
    told = Told(setup)
    told.tick(START)
    told.pm(chooser, night_choice, START + H)
    told, day = to_dawn_one(told)
    told.tick(day + 12 * H)
    told.thread("Alex", "/nominate Gus", day + 13 * H)
    for i, voter in enumerate(voters):
        told.thread(voter, "/vote Gus yes", day + 14 * H + i * timedelta(minutes=1))
    for i, voter in enumerate(no):
        told.thread(voter, "/vote Gus no", day + 15 * H + i * timedelta(minutes=1))
    told.end_day(day + 30 * H)
    return told.state.past_days[-1].nomination_of("Gus").yes


def bureaucrat_makes_a_vote_count_three():
    assert _yes_votes(_with_traveller("bureaucrat"), "/choose Brianna") == 4  # 1 + 3


def thief_makes_a_vote_count_negatively():
    assert _yes_votes(_with_traveller("thief"), "/choose Brianna") == 0  # 1 - 1


def butler_votes_only_with_its_master():
    """Brianna, the Butler, chose Cameron, who sits after her: her yes locks first and counts
    only once his locks yes (docs/st-rulings.md)."""
    setup = game(brianna="butler")
    with_master = _yes_votes(setup, "/choose Cameron", ("Brianna", "Cameron"), "Brianna")
    without = _yes_votes(setup, "/choose Cameron", ("Brianna",), "Brianna", no=("Cameron",))
    assert (with_master, without) == (2, 0)


def gunslinger_shoots_a_voter_of_the_first_vote():
    from ..conversation import to_dawn_one
    told, day = to_dawn_one(Told(_with_traveller("gunslinger")))
    told.thread("Hana", "/choose Brianna", day + H)
    assert rejected(told) == ["gunslinger_too_soon"]
    told.tick(day + 12 * H)
    told.thread("Alex", "/nominate Gus", day + 13 * H)
    for i, voter in enumerate(("Alex", "Brianna")):
        told.thread(voter, "/vote Gus yes", day + 14 * H + i * timedelta(minutes=1))
    for i, voter in enumerate(("Cameron", "Derek", "Ellen", "Fatima", "Gus", "Hana")):
        told.thread(voter, "/vote Gus no", day + 15 * H + i * timedelta(minutes=1))
    assert not told.state.today.nomination_of("Gus").is_open  # tallied: every vote locked
    told.thread("Hana", "/choose Cameron", day + 16 * H)
    assert rejected(told) == ["gunslinger_not_a_voter"]
    told.thread("Hana", "/choose Brianna", day + 17 * H)
    assert not told.state.seat("Brianna").alive


def baron_adds_two_outsiders():
    setup = botf_setup(dict(zip(SEATS, ["saint", "butler", "soldier", "baron", "imp", "monk",
                                        "chef"], strict=True)), script=TB,
                       bluffs=("librarian", "virgin", "mayor"))
    assert problems(TB, setup.seats, dict(setup.grimoire), setup.bluffs) == []
    setup = botf_setup(dict(zip(SEATS, ["saint", "empath", "soldier", "baron", "imp", "monk",
                                        "chef"], strict=True)), script=TB,
                       bluffs=("librarian", "virgin", "mayor"))
    assert says(problems(TB, setup.seats, dict(setup.grimoire), setup.bluffs), "setup.count",
                team="outsider", dealt=1)


def test_a_proposed_set_up_with_the_fortune_teller_marks_its_red_herring():
    seats = tuple(Seat(n) for n in SEATS)
    for seed in range(40):
        grimoire, _ = propose(TB, seats, random.Random(seed))
        if any(e.character == "fortuneteller" for e in grimoire.values()):
            marked = [n for n, e in grimoire.items() if "red herring" in e.reminders]
            assert len(marked) == 1 and TB.character(grimoire[marked[0]].character).is_good
            return
    pytest.fail("no draw dealt the Fortune Teller")


TB_SCENARIOS = {
    "washerwoman": washerwoman_learns_a_townsfolk_among_two,
    "investigator": investigator_learns_a_minion_among_two,
    "fortuneteller": fortune_teller_reads_the_demon_and_its_red_herring,
    "ravenkeeper": ravenkeeper_killed_at_night_learns_a_character,
    "slayer": slayer_shoots_the_demon_once,
    "saint": saint_executed_loses_for_good,
    "mayor": mayor_wins_a_day_of_three_without_an_execution,
    "baron": baron_adds_two_outsiders,
    "virgin": virgin_executes_a_townsfolk_nominator_at_once,
    "bureaucrat": bureaucrat_makes_a_vote_count_three,
    "thief": thief_makes_a_vote_count_negatively,
    "butler": butler_votes_only_with_its_master,
    "gunslinger": gunslinger_shoots_a_voter_of_the_first_vote,
}


@pytest.mark.parametrize("character", sorted(TB_SCENARIOS))
def test_trouble_brewing(character):
    TB_SCENARIOS[character]()


def test_trouble_brewing_ships_as_a_script_a_game_names():
    """`script = "troublebrewing"`: the Script Tool's ids with no terms, so it runs as a host's
    script does (the official versions, the official night order)."""
    from modbot.files.scripts import load_script

    bundled = load_script("troublebrewing")
    assert len(bundled.characters) == 27 and bundled.official_jinxes == ()
    assert bundled.run_by_storytellers == ()  # the bot runs all 27
    assert bundled.first_night.index("minioninfo") < bundled.first_night.index("washerwoman")
