"""Madness (issue 7): the Cerenovus, the Mutant and the Pixie. The Storytellers judge; the bot
records who must be mad about what, reminds them at dawn, and tells them when a Pixie may gain
its ability. Each test is named after the character it drives. Asserted at the core, as
codes and values (tests/notices.py); the madness digest's words are in
tests/words/test_character_words.py."""

from datetime import timedelta

from ..conversation import seven
from ..helpers import START
from ..notices import Told, effects, for_player, for_storytellers, night_sheet, public, says

H = timedelta(hours=1)


game = seven


def _madness(told: list) -> list:
    """The lines of the Storytellers' madness digest (Says)."""
    return [line for n in for_storytellers(told, "madness") for line in n.view["lines"]]


def test_cerenovus_madness_is_recorded_for_one_day_and_recalled_at_dawn():
    """Seed 002, Cerenovus: "Tomorrow, if they are not mad about being the Vortox, they might be
    executed." (mad for the next day only; the Storytellers judge)"""
    characters = ("chef", "empath", "soldier", "cerenovus", "imp", "monk", "mutant")
    _, night, talk = night_sheet(game(*characters), choices=(("Derek", "/choose Alex as Monk"),))
    (mad,) = night.effects
    assert (mad.player, mad.field, mad.value, mad.why.code, mad.until_dusk) == (
        "Alex", "mad_as", "monk", "by.cerenovus", True)
    said = talk.dawn()
    assert talk.state.grimoire_of("Alex").mad_as == "monk"
    assert says(for_player(said, "Alex", "night_results"), "tell.cerenovus", character="Monk",
                day=1)
    (digest,) = for_storytellers(said, "madness")
    assert digest.view["day"] == 1
    assert says(_madness(said), "madness.mad", player="Alex", character="Monk")
    assert says(_madness(said), "madness.today")  # the Cerenovus's: today only
    assert says(_madness(said), "madness.mutant", player="Gus")
    assert [n.template for n in public(said)] == ["phase_discussion"]  # never in the thread
    talk.st("!endday --yes", talk.state.phase_ends_at - H)  # dusk: the madness ends
    assert talk.state.grimoire_of("Alex").mad_as is None


def test_mutant_is_recalled_every_dawn_until_it_dies():
    """Seed 000, Mutant: "At any time (even at night), if you believe that the Mutant is mad
    about being an Outsider, then you can decide to execute the Mutant." (recalled each dawn)"""
    characters = ("chef", "empath", "soldier", "poisoner", "imp", "monk", "mutant")
    talk = Told(game(*characters))
    talk.tick(START)
    talk.tick(talk.state.phase_ends_at - 2 * H)
    assert says(_madness(talk.dawn()), "madness.mutant", player="Gus")
    talk.st("!kill Gus --yes", talk.state.phase_ends_at - 30 * H)
    talk.st("!endday --yes", talk.state.phase_ends_at - 20 * H)
    talk.tick(talk.state.phase_ends_at - 2 * H)
    assert not for_storytellers(talk.dawn(), "madness")


def test_pixie_is_mad_about_its_townsfolk_and_the_storytellers_hear_when_it_dies():
    """Seed 000, Pixie: "mark a Townsfolk character token with the Pixie's MAD reminder ...
    Show the Pixie this Townsfolk character token." and "If the Townsfolk marked MAD dies, and
    you feel that the Pixie player has been sufficiently mad that they were this character,
    replace the MAD reminder with the HAS ABILITY reminder." """
    characters = ("chef", "empath", "soldier", "poisoner", "imp", "monk", "pixie")
    entries, night, talk = night_sheet(game(*characters))
    suggestion = entries["Gus"].suggestion
    assert suggestion.code == "sheet.st_decides_proposed"
    assert says(suggestion, "info.pixie", character="Chef", player="Alex")
    assert ("Gus", "mad_as", "chef", "by.pixie") in effects(night)
    said = talk.dawn()
    assert talk.state.grimoire_of("Gus").mad_as == "chef"
    assert says(_madness(said), "madness.mad", player="Gus", character="Chef")
    said = talk.st("!kill Alex --yes", talk.state.phase_ends_at - 30 * H)
    (gain,) = for_storytellers(said, "pixie_may_gain")
    assert gain.view == {"pixie": "Gus", "died": "Alex", "name": "Chef"}
    talk.st("!ability Gus Chef", talk.state.phase_ends_at - 29 * H)
    assert talk.state.grimoire_of("Gus").ability_of == "chef"
