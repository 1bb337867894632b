"""Abilities that other players choose for (issue 7): the Barber's haircut, chosen by the
Demon with /swap, and Lil' Monsta's babysitter, chosen by the Minions with /babysit. Each test
is named after the character it drives."""

from dataclasses import replace
from datetime import timedelta

from modbot.core.setup.composition import problems as _problems
from modbot.core.setup.composition import propose
from modbot.core.setup.dice import Dice
from modbot.files.scripts import load_script

from ..conversation import ALL, Conversation, day_one, night_sheet, seven, to
from ..helpers import START
from ..wording import worded, words

H = timedelta(hours=1)


game = seven


BARBER = ("barber", "empath", "soldier", "poisoner", "imp", "monk", "drunk")


def test_barber_killed_tonight_lets_the_demon_swap_two_characters():
    entries, night, talk = night_sheet(
        game(*BARBER, thinks={"Gus": "chef"}), night=2,
        choices=(("Ellen", "/choose Alex"), ("Ellen", "/swap Brianna Gus")))
    assert night.deaths == ("Alex",)
    assert "Brianna and Gus swap characters" in entries["Alex"].suggestion
    talk.approve(talk.state.phase_ends_at - H)
    said = talk.tick(talk.state.phase_ends_at)
    brianna, gus = talk.state.grimoire_of("Brianna"), talk.state.grimoire_of("Gus")
    assert (brianna.character, brianna.thinks, brianna.alignment) == ("drunk", "chef", None)
    assert (gus.character, gus.thinks) == ("empath", None)
    assert "You are now the Chef." in to(said, "pm:brianna")[0]  # the Drunk's belief moved
    assert "You are now the Empath." in to(said, "pm:gus")[0]
    assert not any("Empath" in raw or "Drunk" in raw for raw in to(said, "thread"))


def test_barber_executed_today_counts_and_the_demon_keeps_its_kill():
    def execute_barber(talk, at):
        talk.st("!execute Alex --yes", at)
        return at + H
    _, night, _ = night_sheet(game(*BARBER), night=2, day=execute_barber,
                              choices=(("Ellen", "/swap Cameron Ellen"),
                                       ("Ellen", "/choose Fatima")))
    assert night.deaths == ("Fatima",)
    assert [words(e.describe()) for e in night.effects if e.field == "character"] == [
        "Cameron: becomes the imp (the Barber's haircut)",
        "Ellen: becomes the soldier (the Barber's haircut)"]


def test_barber_alive_or_poisoned_means_no_swap():
    entries, night, _ = night_sheet(game(*BARBER), night=2,
                                    choices=(("Ellen", "/swap Brianna Cameron"),))
    assert "did not die today or tonight" in entries["Alex"].suggestion
    assert not [e for e in night.effects if "Barber" in e.why]
    entries, night, _ = night_sheet(game(*BARBER), night=2, changes=("!poison Alex",),
                                    choices=(("Ellen", "/choose Alex"),
                                             ("Ellen", "/swap Brianna Cameron")))
    assert "no swap" in entries["Alex"].suggestion and not night.effects


def test_barber_swap_is_the_demons_and_takes_two_players():
    talk, dawn = day_one(game(*BARBER))
    talk.st("!endday --yes", dawn + 13 * H)
    at = dawn + 14 * H
    said = talk.pm("Brianna", "/swap Cameron Derek", at)
    assert "Only the Demon (after the Barber dies) may /swap." in to(said, "pm:brianna")[0]
    said = talk.pm("Ellen", "/swap Cameron", at)
    assert "/swap names 2 players; you named 1." in to(said, "pm:ellen")[0]
    said = talk.pm("Ellen", "/swap Cameron Derek", at)
    assert "if the Barber died today or tonight, Cameron and Derek swap characters" in \
        to(said, "pm:ellen")[0]
    said = talk.pm("Ellen", "/choose Fatima", at + H)  # the kill does not replace the swap
    night = worded(talk.state.night)
    assert night.choice_of("Ellen").players == ("Fatima",)
    assert night.helping("barber")[0].players == ("Cameron", "Derek")


LIL = ("chef", "empath", "soldier", "poisoner", "librarian", "monk", "witch")


def lil_monsta(**kw):
    return game(*LIL, bluffs=(), lil_monsta=True, **kw)


def test_lilmonsta_minions_choose_the_babysitter_who_registers_as_the_demon():
    """Seed 000, Lil' Monsta: "Each night, wake all Minions. The majority will (eventually)
    point to one player. ... Mark them with the IS THE DEMON reminder token." """
    entries, _night, talk = night_sheet(lil_monsta(), choices=(
        ("Derek", "/babysit Gus"), ("Gus", "/babysit Gus"), ("Alex", "/choose Gus")))
    assert entries["lilmonsta"].choice == "Derek: Gus; Gus: Gus"
    assert entries["lilmonsta"].suggestion == "Gus babysits Lil' Monsta and \"is the Demon\""
    assert entries["demoninfo"].suggestion.startswith("done: skipped: Lil' Monsta")
    talk.approve(talk.state.phase_ends_at - H)
    said = talk.tick(talk.state.phase_ends_at)
    assert "You babysit Lil' Monsta" in to(said, "pm:gus")[0]
    assert talk.state.grimoire_of("Gus").reminders == ("babysitter",)
    assert not any("Lil' Monsta" in raw or "babysit" in raw for raw in to(said, "thread"))


def test_lilmonsta_babysitter_registers_as_the_demon_for_information():
    """Seed 000, Lil' Monsta: "The player marked IS THE DEMON registers as the Demon." """
    setup = lil_monsta(thinks={})
    setup = replace(setup, grimoire=tuple(
        (name, replace(entry, character="clockmaker") if name == "Alex" else entry)
        for name, entry in setup.grimoire))
    grimoire = dict(setup.grimoire)
    grimoire["Gus"] = replace(grimoire["Gus"], reminders=("babysitter",))
    setup = replace(setup, grimoire=tuple(grimoire.items()))
    entries, _, _ = night_sheet(setup)
    assert entries["Alex"].suggestion == "The Demon is 3 steps from its nearest Minion."


def test_lilmonsta_without_a_majority_the_storyteller_chooses():
    """Seed 000, Lil' Monsta: "If they can't decide, choose a player." and "Then, if it is not
    the first night, a player might die" (your choice: "You may need to kill a Minion or two at
    night using the Lil' Monsta's ability.")"""
    entries, night, talk = night_sheet(lil_monsta(), night=2, choices=(
        ("Derek", "/babysit Derek"), ("Gus", "/babysit Gus")))
    text = entries["lilmonsta"].suggestion
    assert text.startswith("ST decides: the Minions named no majority (")
    assert "a player might die tonight: your choice (!dies PLAYER)" in text
    assert not [e for e in night.effects if e.field == "reminders"]
    talk.st("!reminder Derek babysitter\n!reminder Gus babysitter", talk.state.phase_ends_at - H)
    assert [s.name for s in talk.state.seats
            if "babysitter" in talk.state.grimoire_of(s.name).reminders] == ["Gus"]


def test_lilmonsta_babysitter_dying_ends_the_game_and_not_before():
    """Seed 000, Lil' Monsta: "If they die, declare that the game is over and good has won." """
    talk, day = day_one(lil_monsta())
    assert talk.state.winner is None and not worded(talk.state.night)  # nobody held it: no win
    talk.st("!reminder Derek babysitter", day + H)
    said = talk.st("!execute Gus --yes", day + 2 * H)  # a Minion, not the babysitter
    assert not any("looks over" in s.raw for s in said)
    said = talk.st("!kill Derek --yes", day + 3 * H)
    assert any("Lil' Monsta's babysitter is dead" in s.raw for s in said)


def test_lilmonsta_minions_are_told_and_only_minions_babysit():
    talk = Conversation(lil_monsta())
    said = talk.tick(START)
    assert "send `/babysit NAME` here" in to(said, "pm:derek")[0]
    assert "Gus (Minion)" in to(said, "pm:derek")[0]
    assert "/babysit" not in to(said, "pm:alex")[0]
    said = talk.pm("Alex", "/babysit Alex", START + H)
    assert "Only the Minions (Lil' Monsta) may /babysit." in to(said, "pm:alex")[0]


def test_lilmonsta_setup_deals_one_more_minion_and_no_demon():
    """Seed 000, Lil' Monsta: "During setup, remove Lil' Monsta and add a Minion token. On the
    first night, skip the MINION INFO and DEMON INFO steps." """
    setup = lil_monsta()
    assert problems(ALL, setup.seats, dict(setup.grimoire), (), lil_monsta=True) == []
    dealt = game("chef", "empath", "soldier", "poisoner", "lilmonsta", "monk", "witch")
    assert problems(ALL, dealt.seats, dict(dealt.grimoire), ()) == [
        "Lil' Monsta is not a player: deal one more Minion instead and set "
        "game.lil_monsta = true"]
    almanac = load_script("almanac")
    grimoire, bluffs = propose(almanac, setup.seats, Dice("lil"), lil_monsta=True)
    teams = sorted(almanac.get(e.character).team for e in grimoire.values())
    assert bluffs == () and teams.count("minion") == 2 and "demon" not in teams
    for seed in range(20):  # never dealt to a player when the game does not set it
        grimoire, _ = propose(almanac, setup.seats, Dice(str(seed)))
        assert "lilmonsta" not in {e.character for e in grimoire.values()}


def test_barber_swap_with_the_demon_keeps_both_alignments():
    """The Barber swaps characters, not alignments: the Demon's player stays evil with a good
    character, and the other player becomes a good Demon."""
    _, _night, talk = night_sheet(game(*BARBER), night=2, choices=(
        ("Ellen", "/choose Alex"), ("Ellen", "/swap Ellen Brianna")))
    talk.dawn()
    ellen, brianna = talk.state.grimoire_of("Ellen"), talk.state.grimoire_of("Brianna")
    assert (ellen.character, ellen.alignment) == ("empath", "evil")
    assert (brianna.character, brianna.alignment) == ("imp", "good")


def problems(*args, **kwargs) -> list[str]:
    """The set-up's problems, in the words the Storytellers read."""
    return worded(_problems(*args, **kwargs))
