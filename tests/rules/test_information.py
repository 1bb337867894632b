"""True information for every information character of the four scripts (issue 6): the
night sheet's answer when sober, "ST decides" with the true answer when malfunctioning, and
a false answer under a working Vortox. Seeds: 000 (almanac "How to Run"), 001, 002, 003.

Asserted at the core, as codes and values (`Say`): the sheet's words are the catalogue's
(tests/rules/test_game_words.py reads one sheet in words)."""

from dataclasses import replace

import pytest

from modbot.core.state.model import GrimoireEntry, Seat
from modbot.core.wording import say
from modbot.files.scripts import load_script

from ..conversation import botf_setup, seven
from ..helpers import START
from ..notices import Told, night_sheet
from ..notices import roles as dealt_roles

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


def _answers(night, entry, player, sober):
    """The sober answer is proposed; malfunctioning, the sheet shows the true one for the ST
    to decide from; under the Vortox, a false one (or the ST's, told it must be false)."""
    return entry.suggestion.code, entry.suggestion.param("true"), night.result_of(player)


@pytest.mark.parametrize("script, characters, player, choice, sober", [
    (ALMANAC, ALMANAC_7, "Alex", None, say("result.chef", value="1")),
    (ALMANAC, ALMANAC_7, "Cameron", None, say("result.empath", value="1")),
    (ALMANAC, ALMANAC_7, "Brianna", None, say("result.librarian_none")),
    (ALMANAC, ("chef", "librarian", "empath", "poisoner", "imp", "mutant", "drunk"), "Brianna",
     None, say("result.one_of", character="Mutant", first="Alex", second="Fatima")),
    # (the Librarian is never shown itself)
    (ALMANAC, ALMANAC_7, "Fatima", None, say("result.noble", players=("Alex", "Brianna", "Derek"))),
    (ALMANAC, ALMANAC_7, "Gus", None, say("result.pixie", character="Chef")),
    (CRIMSON, CRIMSON_7, "Brianna", "/choose Cameron Alex",
     say("result.chambermaid", first="Cameron", second="Alex", value="2")),
    (CRIMSON, CRIMSON_7, "Fatima", None, say("result.empath", value="1")),
])
def test_first_night_information_sober_malfunctioning_and_under_the_vortox(
        script, characters, player, choice, sober):
    choices = ((player, choice),) if choice else ()
    entries, night, _ = night_sheet(_setup(script, characters), choices=choices)
    assert night.result_of(player) == sober
    entries, night, _ = night_sheet(_setup(script, characters), choices=choices,
                                    changes=(f"!poison {player}",))
    assert _answers(night, entries[player], player, sober) == ("sheet.malfunctioning", sober, None)
    vortox = tuple("vortox" if c == "imp" else c for c in characters)
    script = script if script.find("vortox") else script.with_characters(
        (load_script("botf").find("vortox"),))
    entries, night, _ = night_sheet(_setup(script, vortox), choices=choices)
    _vortox_false(night, entries[player], player, sober)


def _vortox_false(night, entry, player, sober):
    """Under a working Vortox: a false answer proposed (with the true one beside it), or the
    Storytellers' to give, told it must be false; never the true one."""
    code, true, result = _answers(night, entry, player, sober)
    worded = code.startswith("vortox_false.")  # in the character's terms (issue 40)
    assert (code in ("sheet.vortox", "sheet.vortox_st") or worded) and true == sober
    assert result != sober
    if code == "sheet.vortox":
        assert entry.suggestion.param("false") == result and result.code == sober.code
    else:
        assert result is None


def test_a_drunk_shows_as_the_drunk_to_the_undertaker():
    characters = ("undertaker", "drunk", "empath", "poisoner", "imp", "towncrier", "soldier")
    setup = _setup(ALMANAC, characters, thinks={"Brianna": "chef"})

    def execute_brianna(told, at):
        told.st("!execute Brianna --yes", at)
        return at
    _, night, _ = night_sheet(setup, night=2, day=execute_brianna)
    assert night.result_of("Alex") == say("result.undertaker", player="Brianna", value="Drunk")


def test_seed_000_the_undertaker_learns_nothing_of_an_execution_that_killed_nobody():
    """Seed 000 (Undertaker): "or the execution does not cause a death (in which case the
    Undertaker learns nothing)": Brianna, saved by the Devil's Advocate, is executed and lives."""
    setup = seven("undertaker", "chef", "empath", "devilsadvocate", "imp", "monk", "soldier")

    def execute_brianna(told, at):
        told.st("!execute Brianna --yes", at)
        assert told.state.seat("Brianna").alive and told.state.past_days[-1].executed == "Brianna"
        return at
    entries, night, _ = night_sheet(setup, night=2, day=execute_brianna,
                                    night1=(("Derek", "/choose Brianna"),))
    assert entries["Alex"].suggestion == say("info.undertaker_none")
    assert night.result_of("Alex") is None


def test_the_undertaker_learns_nothing_without_an_execution():
    characters = ("undertaker", "chef", "empath", "poisoner", "imp", "towncrier", "soldier")
    entries, night, _ = night_sheet(_setup(ALMANAC, characters), night=2)
    assert entries["Alex"].suggestion == say("info.undertaker_none")
    assert night.result_of("Alex") is None


def test_the_minions_learn_a_damsel_is_in_play_and_a_widow_is_announced():
    characters = ("chef", "librarian", "empath", "widow", "imp", "noble", "damsel")
    entries, night, _ = night_sheet(_setup(ALMANAC, characters),
                                    choices=(("Derek", "/choose Alex"),))
    assert ("Derek", say("tell.damsel")) in night.tells
    assert ("Alex", say("tell.widow")) in night.tells
    assert entries["Derek"].suggestion == say("info.widow", knows="Alex", player="Alex")


def test_the_lunatic_gets_demon_info_from_the_st_and_the_demon_learns_of_them():
    characters = ("chef", "lunatic", "empath", "poisoner", "imp", "noble", "pixie")
    setup = _setup(ALMANAC, characters, thinks={"Brianna": "imp"})
    entries, night, _ = night_sheet(setup)
    assert entries["Brianna"].suggestion == say("sheet.lunatic_demon_info")
    assert ("Ellen", say("tell.lunatic", player="Brianna")) in night.tells
    assert "Brianna" in night.missing_results()
    entries, night, _ = night_sheet(setup, night=2, choices=(("Brianna", "/choose Alex"),
                                                            ("Ellen", "/choose Cameron")))
    assert ("Ellen", say("tell.lunatic_chose", lunatic="Brianna", player="Alex")) in night.tells
    assert night.deaths == ("Cameron",)  # only the real Demon kills


def test_the_godfather_learns_the_outsiders():
    characters = ("goon", "lunatic", "godfather", "imp", "acrobat", "witch", "vortox")
    _, night, _ = night_sheet(_setup(OOPS, characters, thinks={"Brianna": "imp"}))
    assert night.result_of("Cameron") == say("result.godfather", value="Acrobat, Goon, Lunatic")


@pytest.mark.parametrize("character, night, expected, needs", [
    ("mathematician", 1, ("sheet.st_decides", say("info.mathematician")), True),
    ("juggler", 1, None, False),  # the Juggler wakes on other nights only
    ("juggler", 2, ("info.juggler_none", None), False),  # no guesses on day 1: nothing to learn
    ("sage", 2, ("info.sage_none", None), False),  # not killed by the Demon: nothing to learn
    ("dreamer", 1, ("sheet.st_decides", say("info.dreamer", character="Witch", player="Derek")),
     True),  # one of the two must be the Witch
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
    suggestion = entries["Alex"].suggestion
    assert (suggestion.code, suggestion.param("what")) == expected
    assert entries["Alex"].needs_result is needs


def test_the_sage_killed_by_the_demon_learns_two_players():
    characters = {"Alex": "sage", "Brianna": "oracle", "Cameron": "seamstress",
                  "Derek": "witch", "Ellen": "clockmaker", "Fatima": "vigormortis",
                  "Gus": "towncrier"}
    entries, night, _ = night_sheet(botf_setup(characters), night=2,
                                    choices=(("Fatima", "/choose Alex"),))
    assert entries["Alex"].suggestion == say("sheet.st_decides", what=say("info.sage"))
    assert night.missing_results() == ("Alex",)


def test_the_marionette_is_known_to_its_demon_only():
    characters = ("goon", "marionette", "imp", "poisoner", "acrobat", "vortox", "witch")
    teams = {"Brianna": 1, "Cameron": 1, "Derek": 1, "Fatima": 2, "Gus": 2}
    setup = _setup(OOPS, characters, thinks={"Brianna": "goon"})
    grimoire = tuple((p, replace(e, evil_team=teams.get(p))) for p, e in setup.grimoire)
    told = Told(replace(setup, grimoire=grimoire)).tick(START)
    roles = dealt_roles(told)
    cultists = {p: {c["player"]: (c["team"], c["is_marionette"]) for c in r["cultists"]}
                for p, r in roles.items()}
    assert (roles["Brianna"]["character"], cultists["Brianna"]) == ("Goon", {})
    assert cultists["Cameron"]["Brianna"] == ("minion", True)
    assert "Brianna" not in cultists["Derek"] and cultists["Derek"]["Cameron"] == ("demon", False)
    assert "Fatima" not in cultists["Cameron"]  # another evil team
    assert cultists["Fatima"] == {"Gus": ("minion", False)}


def test_seat_fixture_is_the_seven_players():
    assert tuple(s.name for s in _setup(ALMANAC, ALMANAC_7).seats) == SEATS
    assert isinstance(Seat("x"), Seat) and GrimoireEntry().character is None


def _day_one(told, at):
    """Derek (the Witch, a Minion) nominates Alex; Fatima (the Demon) votes; Derek is
    executed."""
    told.thread("Derek", "/nominate Alex", at)
    told.thread("Fatima", "/vote Alex yes", at)
    told.st("!execute Derek --yes", at)
    return at


BOTF_PLUS = load_script("botf").with_characters((ALMANAC.find("undertaker"),))
NIGHT2 = {"Alex": "oracle", "Brianna": "towncrier", "Cameron": "flowergirl",
          "Derek": "witch", "Ellen": "undertaker", "Fatima": "vigormortis", "Gus": "seamstress"}


@pytest.mark.parametrize("player, choice, sober", [
    ("Alex", None, say("result.oracle", team="Cultist", value="1")),  # dead Cultists: 1
    ("Brianna", None, say("result.towncrier", value="yes")),  # a Minion nominated today
    ("Cameron", None, say("result.flowergirl", value="yes")),  # the Demon voted today
    ("Ellen", None, say("result.undertaker", player="Derek", value="Witch")),
    ("Gus", "/choose Alex Fatima", say("result.seamstress", first="Alex", second="Fatima",
                                       value="no")),
])
def test_other_night_information_sober_malfunctioning_and_under_the_vortox(player, choice,
                                                                           sober):
    choices = ((player, choice),) if choice else ()
    entries, night, _ = night_sheet(botf_setup(NIGHT2, script=BOTF_PLUS), night=2,
                                    day=_day_one, choices=choices)
    assert night.result_of(player) == sober and entries[player].suggestion.code == sober.code
    entries, night, _ = night_sheet(botf_setup(NIGHT2, script=BOTF_PLUS), night=2,
                                    day=_day_one, choices=choices,
                                    changes=(f"!poison {player}",))
    assert _answers(night, entries[player], player, sober) == ("sheet.malfunctioning", sober, None)
    assert entries[player].suggestion.param("term") == "malfunctioning"
    vortox = {**NIGHT2, "Fatima": "vortox"}
    entries, night, _ = night_sheet(botf_setup(vortox, script=BOTF_PLUS), night=2,
                                    day=_day_one, choices=choices)
    _vortox_false(night, entries[player], player, sober)


def test_the_dead_who_still_act_are_on_the_sheet():
    characters = {**NIGHT2, "Derek": "witch", "Gus": "barber"}
    entries, _, _ = night_sheet(botf_setup(characters, dead=("Gus", "Derek"),
                                           script=BOTF_PLUS), night=2)
    assert entries["Gus"].suggestion == say("info.barber_alive")  # did not die: no swap
    assert entries["Derek"].suggestion == say("sheet.dead")  # the Witch does not act
