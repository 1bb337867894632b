"""A host's script of the seeds' characters mixes what no seed's script holds together (issue
53): the Huntsman with a Damsel already in play, a Philosopher who chose the Innkeeper, the
Golem nominating Lil' Monsta's babysitter, a Cannibal with the Goon's ability."""

from datetime import timedelta

from modbot.core.setup.composition import problems
from modbot.files.scripts import catalogue_script

from ..conversation import botf_setup
from ..notices import day_one, effects, night_sheet

H = timedelta(hours=1)
SEATS = ("Alex", "Brianna", "Cameron", "Derek", "Ellen", "Fatima", "Gus", "Hana")
ALL = catalogue_script()


def game(*characters, **kw):
    kw.setdefault("bluffs", ("sage", "artist", "juggler"))
    return botf_setup(dict(zip(SEATS, characters, strict=False)), script=ALL, **kw)


def test_the_huntsman_adds_no_outsider_when_the_damsel_is_already_one_of_them():
    """Eight players have one Outsider: the Damsel may be it ("If a Damsel is already in
    play, the Huntsman doesn't add a second Damsel"), or be added as a second one."""
    already = game("huntsman", "damsel", "soldier", "poisoner", "imp", "monk", "chef", "pixie")
    assert problems(ALL, already.seats, dict(already.grimoire), already.bluffs) == []
    added = game("huntsman", "damsel", "mutant", "poisoner", "imp", "monk", "chef", "pixie")
    assert problems(ALL, added.seats, dict(added.grimoire), added.bluffs) == []


def test_a_philosopher_who_chose_the_innkeeper_protects_from_the_demon():
    setup = game("philosopher", "empath", "soldier", "poisoner", "imp", "monk", "chef")
    _, night, _ = night_sheet(setup, night=2, night1=(("Alex", "/choose Innkeeper"),),
                              choices=(("Alex", "/choose Brianna Gus"),
                                       ("Ellen", "/choose Brianna")))
    assert "Brianna" not in night.deaths


def test_the_golems_nomination_spares_lil_monstas_babysitter_who_is_the_demon():
    setup = game("golem", "empath", "soldier", "poisoner", "librarian", "monk", "witch",
                 bluffs=(), lil_monsta=True)
    told, day = day_one(setup)
    told.st("!reminder Derek babysitter", day + H)
    told.tick(day + 12 * H)
    told.thread("Alex", "/nominate Derek", day + 13 * H)
    assert told.state.seat("Derek").alive


def test_a_cannibal_with_the_goons_ability_makes_the_demon_who_chose_them_drunk():
    setup = game("cannibal", "goon", "soldier", "poisoner", "imp", "monk", "chef")
    told, day = day_one(setup)
    told.st("!execute Brianna --yes", day + H)  # the Goon: the Cannibal eats its ability
    assert told.state.grimoire_of("Alex").ability_of == "goon"
    told.pm("Ellen", "/choose Alex", told.state.phase_ends_at - 3 * H)
    told.tick(told.state.phase_ends_at - 2 * H)
    assert ("Ellen", "drunk", True, "by.chose_goon") in effects(told.state.night)
