"""Madness (issue 7): the Cerenovus, the Mutant and the Pixie. The Storytellers judge; the bot
records who must be mad about what, reminds them at dawn, and tells them when a Pixie may gain
its ability. Each test is named after the character it drives."""

from datetime import timedelta

from ..conversation import Conversation, night_sheet, seven, to
from ..helpers import START
from ..wording import words

H = timedelta(hours=1)


game = seven


def test_cerenovus_madness_is_recorded_for_one_day_and_recalled_at_dawn():
    """Seed 002, Cerenovus: "Tomorrow, if they are not mad about being the Vortox, they might be
    executed." (mad for the next day only; the Storytellers judge)"""
    characters = ("chef", "empath", "soldier", "cerenovus", "imp", "monk", "mutant")
    _, night, talk = night_sheet(game(*characters), choices=(("Derek", "/choose Alex as Monk"),))
    assert "Alex: mad about being the monk until dusk (the Cerenovus)" in \
        [words(e.describe()) for e in night.effects]
    said = talk.dawn()
    assert talk.state.grimoire_of("Alex").mad_as == "monk"
    assert "You are mad that you are the Monk" in to(said, "pm:alex")[0]
    digest = to(said, "pm:storytellers")[-1]
    assert "Day 1: madness to judge today." in digest
    assert "Alex must be mad about being the Monk (the Cerenovus, today)" in digest
    assert "Gus is the Mutant: if they are mad about being an Outsider" in digest
    assert not any("mad" in raw for raw in to(said, "thread"))
    talk.st("!endday --yes", talk.state.phase_ends_at - H)  # dusk: the madness ends
    assert talk.state.grimoire_of("Alex").mad_as is None


def test_mutant_is_recalled_every_dawn_until_it_dies():
    """Seed 000, Mutant: "At any time (even at night), if you believe that the Mutant is mad
    about being an Outsider, then you can decide to execute the Mutant." (recalled each dawn)"""
    characters = ("chef", "empath", "soldier", "poisoner", "imp", "monk", "mutant")
    talk = Conversation(game(*characters))
    talk.tick(START)
    talk.tick(talk.state.phase_ends_at - 2 * H)
    said = talk.dawn()
    assert any("Gus is the Mutant" in raw for raw in to(said, "pm:storytellers"))
    talk.st("!kill Gus --yes", talk.state.phase_ends_at - 30 * H)
    talk.st("!endday --yes", talk.state.phase_ends_at - 20 * H)
    talk.tick(talk.state.phase_ends_at - 2 * H)
    said = talk.dawn()
    assert not any("madness" in raw for raw in to(said, "pm:storytellers"))


def test_pixie_is_mad_about_its_townsfolk_and_the_storytellers_hear_when_it_dies():
    """Seed 000, Pixie: "mark a Townsfolk character token with the Pixie's MAD reminder ...
    Show the Pixie this Townsfolk character token." and "If the Townsfolk marked MAD dies, and
    you feel that the Pixie player has been sufficiently mad that they were this character,
    replace the MAD reminder with the HAS ABILITY reminder." """
    characters = ("chef", "empath", "soldier", "poisoner", "imp", "monk", "pixie")
    entries, night, talk = night_sheet(game(*characters))
    assert entries["Gus"].suggestion.startswith("ST decides: show an in-play Townsfolk; "
                                                "proposed: Chef (Alex)")
    assert "Gus: mad about being the chef (the Pixie)" in [words(e.describe()) for e in night.effects]
    said = talk.dawn()
    assert talk.state.grimoire_of("Gus").mad_as == "chef"
    assert any("Gus must be mad about being the Chef (the Pixie)" in raw
               for raw in to(said, "pm:storytellers"))
    said = talk.st("!kill Alex --yes", talk.state.phase_ends_at - 30 * H)
    assert any("If the Pixie (Gus) was mad about being the Chef, they gain its ability: "
               "`!ability Gus Chef`" in raw for raw in to(said, "pm:storytellers"))
    talk.st("!ability Gus Chef", talk.state.phase_ends_at - 29 * H)
    assert talk.state.grimoire_of("Gus").ability_of == "chef"
