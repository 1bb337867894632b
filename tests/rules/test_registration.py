"""Registration (issue 54, state/registration.py): what a player registers as to an ability. The
Spy "might register as good, and as a Townsfolk or an Outsider"; the Recluse "might register as
evil, and as a Minion or a Demon". While one is in play and the Storytellers have kept no answer
for the ability asking, the ability's answer is a proposal (the true one offered); `!registers`
keeps their answer, for one ability or every one, and the sheet's answers read it. The public
count never reads it. Each scenario is on the two characters the mechanic serves."""

from __future__ import annotations

from datetime import timedelta

import pytest

from modbot.core import THREAD

from ..conversation import NIGHT1_LOCK, START, botf_setup
from ..notices import Told, day_one, night_sheet, of, says
from .test_trouble_brewing import SEATS, TB

H = timedelta(hours=1)


def _setup(*characters: str, **kw):
    return botf_setup(dict(zip(SEATS, characters, strict=True)), script=TB,
                      bluffs=("librarian", "virgin", "mayor"), **kw)


RECLUSE_GAME = ("fortuneteller", "recluse", "soldier", "poisoner", "imp", "monk", "undertaker")
SPY_GAME = ("empath", "spy", "soldier", "chef", "imp", "monk", "undertaker")
FT_ASKS = (("Alex", "/choose Brianna Cameron"),)


def _row(setup, player="Alex", **kw):
    entries, _, _ = night_sheet(setup, **kw)
    return entries[player]


def _herring(setup, player="Gus"):
    from dataclasses import replace
    grimoire = dict(setup.grimoire)
    grimoire[player] = replace(grimoire[player], reminders=("red herring",))
    return replace(setup, grimoire=tuple(grimoire.items()))


def recluse_might_register_as_the_demon():
    """Undecided: the Fortune Teller's "no" is only proposed; kept as the Imp to the Fortune
    Teller: a sure "yes"; kept for another ability: still the Storytellers' to judge."""
    setup = _herring(_setup(*RECLUSE_GAME))
    row = _row(setup, choices=FT_ASKS)
    assert row.needs_result and says(row.suggestion, "info.might_register",
                                     characters=("Recluse",))
    assert says(row.suggestion, "result.fortune_teller", value="no")
    row = _row(setup, choices=FT_ASKS, changes=("!registers Brianna as imp to fortune teller",))
    assert says(row.suggestion, "result.fortune_teller", value="yes")
    assert not says(row.suggestion, "info.might_register")
    row = _row(setup, choices=FT_ASKS, changes=("!registers Brianna as imp to chef",))
    assert says(row.suggestion, "info.might_register")
    row = _row(setup, choices=FT_ASKS, changes=("!registers Brianna as recluse",))  # as itself
    assert says(row.suggestion, "result.fortune_teller", value="no")
    assert not says(row.suggestion, "info.might_register")


def recluse_might_register_as_a_minion():
    """Kept as the Poisoner (to every ability): the Investigator is shown the Recluse as one."""
    setup = _setup("investigator", "recluse", "soldier", "poisoner", "imp", "monk", "undertaker")
    row = _row(setup, changes=("!registers Brianna as poisoner",))
    assert says(row.suggestion, "info.show_one_of", player="Brianna", character="Poisoner")
    assert not says(row.suggestion, "info.might_register")


def spy_might_register_as_good():
    """The Empath beside the Spy: one evil neighbour proposed; kept as good: a sure 0."""
    setup = _setup(*SPY_GAME)
    row = _row(setup)
    assert row.needs_result and says(row.suggestion, "info.might_register", characters=("Spy",))
    assert says(row.suggestion, "result.empath", value="1")
    row = _row(setup, changes=("!registers Brianna as good",))
    assert says(row.suggestion, "result.empath", value="0")
    assert not says(row.suggestion, "info.might_register")


def spy_sees_the_grimoire_each_dawn():
    """A working Spy gets the grimoire's table in its grimoire PM at dawn (nobody else does); a
    poisoned one gets nothing from the bot, and its row asks the Storytellers."""
    told = Told(_setup(*SPY_GAME))
    told.tick(START)
    told.tick(NIGHT1_LOCK)
    said = told.approve(NIGHT1_LOCK + H) + told.tick(told.state.phase_ends_at)
    (sight,) = of(said, "spy_grimoire")
    assert sight.player == "Brianna" and sight.to != THREAD
    assert [(s["player"], s["character_id"]) for s in sight.view["seats"]][:2] == [
        ("Alex", "empath"), ("Brianna", "spy")]
    poisoned = _setup(*SPY_GAME[:3], "poisoner", *SPY_GAME[4:])
    row = _row(poisoned, player="Brianna", changes=("!poison Brianna",))
    assert row.needs_result and says(row.suggestion, "info.spy_malfunctioning")


TB_REGISTRATION = {
    "recluse": recluse_might_register_as_the_demon,
    "spy": spy_sees_the_grimoire_each_dawn,
}


def test_recluse_might_register_as_a_minion():
    recluse_might_register_as_a_minion()


def test_spy_might_register_as_good():
    spy_might_register_as_good()


def test_a_poisoned_spy_gets_no_grimoire():
    told = Told(_setup("empath", "spy", "soldier", "poisoner", "imp", "monk", "undertaker"))
    told.tick(START)
    told.pm("Derek", "/choose Brianna", START + H)
    told.tick(NIGHT1_LOCK)
    said = told.approve(NIGHT1_LOCK + H) + told.tick(told.state.phase_ends_at)
    assert of(said, "spy_grimoire") == []


def test_the_kept_answers_replace_per_ability_and_clear():
    told, day = day_one(_setup(*RECLUSE_GAME))
    told.st("!registers Brianna as imp to fortune teller\n!registers Brianna as evil", day + H)
    told.st("!registers Brianna as poisoner to fortune teller", day + 2 * H)
    assert told.state.grimoire_of("Brianna").registers_as == ("evil", "poisoner to fortuneteller")
    told.st("!registers Brianna clear", day + 3 * H)
    assert told.state.grimoire_of("Brianna").registers_as == ()


def test_a_bad_registration_is_answered_and_changes_nothing():
    told, day = day_one(_setup(*RECLUSE_GAME))
    for text, code in (("!registers Brianna as nobody", "rejection.unknown_character_st"),
                       ("!registers Brianna as imp to nobody", "rejection.unknown_character_st"),
                       ("!registers Brianna imp", "command.registers_form"),
                       ("!registers Brianna as imp to", "command.registers_form")):
        told.st(text, day + H)
        assert says(told.command.failed, code), text
        assert told.state.grimoire_of("Brianna").registers_as == ()


def test_the_slayer_reads_a_kept_answer_but_the_public_count_never_does():
    setup = _setup("slayer", "recluse", "soldier", "poisoner", "imp", "monk", "undertaker")
    told, day = day_one(setup)
    told.st("!registers Brianna as imp to slayer", day)
    told.thread("Alex", "/choose Brianna", day + H)
    assert not told.state.seat("Brianna").alive  # the Recluse registered as the Demon


@pytest.mark.parametrize("character", sorted(TB_REGISTRATION))
def test_trouble_brewing_registration(character):
    TB_REGISTRATION[character]()


def test_the_virgin_reads_the_spys_kept_registration():
    """A Spy kept as a Townsfolk to the Virgin is executed for nominating it; with none kept,
    its truth (a Minion) decides."""
    setup = _setup("virgin", "spy", "soldier", "poisoner", "imp", "monk", "undertaker")
    told, day = day_one(setup)
    told.tick(day + 12 * H)
    told.thread("Brianna", "/nominate Alex", day + 13 * H)
    assert told.state.phase.is_day and told.state.seat("Brianna").alive
    told, day = day_one(setup)
    told.st("!registers Brianna as chef to virgin", day + H)
    told.tick(day + 12 * H)
    told.thread("Brianna", "/nominate Alex", day + 13 * H)
    assert told.state.past_days[-1].executed == "Brianna"
