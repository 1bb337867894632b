"""True information for every information character of the four scripts (issue 6): the
night sheet's answer when sober, "ST decides" with the true answer when malfunctioning, and
a false answer under a working Vortox. Seeds: 000 (almanac "How to Run"), 001, 002, 003."""

from dataclasses import replace

import pytest

from modbot.core.state.model import GrimoireEntry, Seat
from modbot.files.scripts import load_script

from ..conversation import Conversation, botf_setup, night_sheet
from ..helpers import START

ALMANAC = load_script("almanac")
OOPS = load_script("oopsallevil")
CRIMSON = load_script("crimsonmoon").with_characters(
    (ALMANAC.find("imp"), ALMANAC.find("poisoner"), ALMANAC.find("drunk")))
SEATS = ("Alex", "Brianna", "Cameron", "Derek", "Ellen", "Fatima", "Gus")


def _setup(script, characters, **kwargs):
    names = dict(zip(SEATS, characters, strict=False))
    spare = [c.id for c in script.characters if c.is_good and c.id not in characters]
    return botf_setup(names, script=script, bluffs=tuple(spare[:3]), **kwargs)


# Evil: Derek (Poisoner, seat 4) and Ellen (Imp, seat 5), side by side.
ALMANAC_7 = ("chef", "librarian", "empath", "poisoner", "imp", "noble", "pixie")
CRIMSON_7 = ("chef", "chambermaid", "dreamer", "poisoner", "imp", "empath", "pixie")


@pytest.mark.parametrize("script, characters, player, choice, sober", [
    (ALMANAC, ALMANAC_7, "Alex", None, "There is 1 pair of evil players sitting together."),
    (ALMANAC, ALMANAC_7, "Cameron", None, "1 of your living neighbours are evil."),
    (ALMANAC, ALMANAC_7, "Brianna", None, "Zero Outsiders are in play."),
    (ALMANAC, ("chef", "librarian", "empath", "poisoner", "imp", "mutant", "drunk"), "Brianna",
     None, "One of Alex and Fatima is the Mutant."),  # the Librarian is never shown itself
    (ALMANAC, ALMANAC_7, "Fatima", None, "Exactly one of Alex, Brianna, Derek is evil."),
    (ALMANAC, ALMANAC_7, "Gus", None, "The Chef is in play."),
    (CRIMSON, CRIMSON_7, "Brianna", "/choose Cameron Alex",
     "Of Cameron and Alex, 2 woke tonight due to their ability."),
    (CRIMSON, CRIMSON_7, "Fatima", None, "1 of your living neighbours are evil."),
])
def test_first_night_information_sober_malfunctioning_and_under_the_vortox(
        script, characters, player, choice, sober):
    choices = ((player, choice),) if choice else ()
    entries, night, _ = night_sheet(_setup(script, characters), choices=choices)
    assert sober in entries[player].suggestion
    entries, _, _ = night_sheet(_setup(script, characters), choices=choices,
                                changes=(f"!poison {player}",))
    assert entries[player].suggestion.startswith("ST decides (drunk or poisoned); true answer:")
    assert sober in entries[player].suggestion
    vortox = tuple("vortox" if c == "imp" else c for c in characters)
    script = script if script.find("vortox") else script.with_characters(
        (load_script("botf").find("vortox"),))
    entries, night, _ = night_sheet(_setup(script, vortox), choices=choices)
    text = entries[player].suggestion
    assert "Vortox" in text and f"(true: {sober}" in text.replace("true: ", "true: ")
    assert night.result_of(player) != sober


def test_a_drunk_shows_as_the_drunk_to_the_undertaker():
    characters = ("undertaker", "drunk", "empath", "poisoner", "imp", "towncrier", "soldier")
    setup = _setup(ALMANAC, characters, thinks={"Brianna": "chef"})

    def execute_brianna(talk, at):
        talk.st("!execute Brianna --yes", at)
        return at
    entries, night, _ = night_sheet(setup, night=2, day=execute_brianna)
    assert entries["Alex"].suggestion == "Brianna was the Drunk."
    assert night.result_of("Alex") == "Brianna was the Drunk."


def test_the_undertaker_learns_nothing_without_an_execution():
    characters = ("undertaker", "chef", "empath", "poisoner", "imp", "towncrier", "soldier")
    entries, night, _ = night_sheet(_setup(ALMANAC, characters), night=2)
    assert "nobody was executed today" in entries["Alex"].suggestion
    assert night.result_of("Alex") is None


def test_the_minions_learn_a_damsel_is_in_play_and_a_widow_is_announced():
    characters = ("chef", "librarian", "empath", "widow", "imp", "noble", "damsel")
    entries, night, _ = night_sheet(_setup(ALMANAC, characters),
                                    choices=(("Derek", "/choose Alex"),))
    assert ("Derek", "A Damsel is in play.") in night.tells
    assert ("Alex", "A Widow is in play.") in night.tells
    assert "Alex is poisoned" in entries["Derek"].suggestion


def test_the_lunatic_gets_demon_info_from_the_st_and_the_demon_learns_of_them():
    characters = ("chef", "lunatic", "empath", "poisoner", "imp", "noble", "pixie")
    setup = _setup(ALMANAC, characters, thinks={"Brianna": "imp"})
    entries, night, _ = night_sheet(setup)
    assert "show the Lunatic fake Minions and 3 bluffs" in entries["Brianna"].suggestion
    assert ("Ellen", "Brianna is the Lunatic.") in night.tells
    assert "Brianna" in night.missing_results()
    entries, night, _ = night_sheet(setup, night=2, choices=(("Brianna", "/choose Alex"),
                                                            ("Ellen", "/choose Cameron")))
    assert ("Ellen", "The Lunatic (Brianna) chose Alex tonight.") in night.tells
    assert night.deaths == ("Cameron",)  # only the real Demon kills


def test_the_godfather_learns_the_outsiders():
    characters = ("goon", "lunatic", "godfather", "imp", "acrobat", "witch", "vortox")
    entries, _night, _ = night_sheet(_setup(OOPS, characters, thinks={"Brianna": "imp"}))
    assert entries["Cameron"].suggestion == "Outsiders in play: Acrobat, Goon, Lunatic."


@pytest.mark.parametrize("character, night, expected, needs", [
    ("mathematician", 1, "ST decides: how many abilities worked abnormally", True),
    ("juggler", 1, None, False),  # the Juggler wakes on other nights only
    ("juggler", 2, "made no guesses on day 1: nothing to learn", False),
    ("sage", 2, "not killed by the Demon: nothing to learn", False),
    ("dreamer", 1, "one must be the Witch", True),
])
def test_information_the_storyteller_decides(character, night, expected, needs):
    characters = {"Alex": character, "Brianna": "oracle", "Cameron": "seamstress",
                  "Derek": "witch", "Ellen": "clockmaker", "Fatima": "nodashii",
                  "Gus": "towncrier"}
    choices = (("Alex", "/choose Derek"),) if character == "dreamer" else ()
    entries, _night_state, _ = night_sheet(botf_setup(characters), night=night,
                                          choices=choices)
    if expected is None:
        assert "Alex" not in entries
        return
    assert expected in entries["Alex"].suggestion
    assert entries["Alex"].needs_result is needs


def test_the_sage_killed_by_the_demon_learns_two_players():
    characters = {"Alex": "sage", "Brianna": "oracle", "Cameron": "seamstress",
                  "Derek": "witch", "Ellen": "clockmaker", "Fatima": "vigormortis",
                  "Gus": "towncrier"}
    entries, night, _ = night_sheet(botf_setup(characters), night=2,
                                    choices=(("Fatima", "/choose Alex"),))
    assert "the Demon killed the Sage" in entries["Alex"].suggestion
    assert night.missing_results() == ("Alex",)


def test_the_marionette_is_known_to_its_demon_only():
    characters = ("goon", "marionette", "imp", "poisoner", "acrobat", "vortox", "witch")
    teams = {"Brianna": 1, "Cameron": 1, "Derek": 1, "Fatima": 2, "Gus": 2}
    setup = _setup(OOPS, characters, thinks={"Brianna": "goon"})
    grimoire = tuple((p, replace(e, evil_team=teams.get(p))) for p, e in setup.grimoire)
    said = Conversation(replace(setup, grimoire=grimoire)).tick(START)
    roles = {s.thread: s.raw for s in said if "Your character" in s.raw}
    assert "**Goon**" in roles["pm:brianna"] and "Marionette" not in roles["pm:brianna"]
    assert "- Brianna (Minion, the Marionette)" in roles["pm:cameron"]
    assert "Brianna" not in roles["pm:derek"] and "- Cameron (Demon)" in roles["pm:derek"]
    assert "Fatima" not in roles["pm:cameron"]  # another evil team
    assert "- Gus (Minion)" in roles["pm:fatima"] and "Cameron" not in roles["pm:fatima"]


def test_seat_fixture_is_the_seven_players():
    assert tuple(s.name for s in _setup(ALMANAC, ALMANAC_7).seats) == SEATS
    assert isinstance(Seat("x"), Seat) and GrimoireEntry().character is None


def _day_one(talk, at):
    """Derek (the Witch, a Minion) nominates Alex; Fatima (the Demon) votes; Derek is
    executed."""
    talk.thread("Derek", "/nominate Alex", at)
    talk.thread("Fatima", "/vote Alex yes", at)
    talk.st("!execute Derek --yes", at)
    return at


BOTF_PLUS = load_script("botf").with_characters((ALMANAC.find("undertaker"),))
NIGHT2 = {"Alex": "oracle", "Brianna": "towncrier", "Cameron": "flowergirl",
          "Derek": "witch", "Ellen": "undertaker", "Fatima": "vigormortis", "Gus": "seamstress"}


@pytest.mark.parametrize("player, choice, sober", [
    ("Alex", None, "Dead players on the Cultist team: 1."),
    ("Brianna", None, "A Minion nominated today: yes."),
    ("Cameron", None, "The Demon voted today: yes."),
    ("Ellen", None, "Derek was the Witch."),
    ("Gus", "/choose Alex Fatima", "Alex and Fatima are the same alignment: no."),
])
def test_other_night_information_sober_malfunctioning_and_under_the_vortox(player, choice,
                                                                           sober):
    choices = ((player, choice),) if choice else ()
    entries, night, _ = night_sheet(botf_setup(NIGHT2, script=BOTF_PLUS), night=2,
                                    day=_day_one, choices=choices)
    assert entries[player].suggestion == sober and night.result_of(player) == sober
    entries, night, _ = night_sheet(botf_setup(NIGHT2, script=BOTF_PLUS), night=2,
                                    day=_day_one, choices=choices,
                                    changes=(f"!poison {player}",))
    assert entries[player].suggestion == f"ST decides (malfunctioning); true answer: {sober}"
    assert night.result_of(player) is None
    vortox = {**NIGHT2, "Fatima": "vortox"}
    entries, night, _ = night_sheet(botf_setup(vortox, script=BOTF_PLUS), night=2,
                                    day=_day_one, choices=choices)
    assert "Vortox" in entries[player].suggestion and night.result_of(player) != sober


def test_the_dead_who_still_act_are_on_the_sheet():
    characters = {**NIGHT2, "Derek": "witch", "Gus": "barber"}
    entries, _, _ = night_sheet(botf_setup(characters, dead=("Gus", "Derek"),
                                           script=BOTF_PLUS), night=2)
    assert entries["Gus"].suggestion == "the Barber did not die today or tonight: no swap"
    assert entries["Derek"].suggestion == "dead: does not act"  # the Witch
