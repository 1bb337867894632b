"""Abilities that other players choose for (issue 7): the Barber's haircut, chosen by the
Demon with /swap, and Lil' Monsta's babysitter, chosen by the Minions with /babysit. Each test
is named after the character it drives. Asserted at the core, as codes and values
(tests/notices.py)."""

from dataclasses import replace
from datetime import timedelta

from modbot.core.characters.wins import WINS_DETECTED
from modbot.core.setup.composition import problems
from modbot.core.setup.dice import Dice
from modbot.core.setup.proposing import propose
from modbot.files.scripts import load_script

from ..conversation import ALL, seven
from ..helpers import START
from ..notices import (
    Told,
    day_one,
    effects,
    for_player,
    for_storytellers,
    night_sheet,
    public,
    says,
)
from ..notices import (
    roles as dealt_roles,
)

H = timedelta(hours=1)


game = seven


BARBER = ("barber", "empath", "soldier", "poisoner", "imp", "monk", "drunk")


def test_barber_killed_tonight_lets_the_demon_swap_two_characters():
    entries, night, talk = night_sheet(
        game(*BARBER, thinks={"Gus": "chef"}), night=2,
        choices=(("Ellen", "/choose Alex"), ("Ellen", "/swap Brianna Gus")))
    assert night.deaths == ("Alex",)
    assert says(entries["Alex"].suggestion, "info.barber_swap", first="Brianna", second="Gus")
    talk.approve(talk.state.phase_ends_at - H)
    said = talk.tick(talk.state.phase_ends_at)
    brianna, gus = talk.state.grimoire_of("Brianna"), talk.state.grimoire_of("Gus")
    assert (brianna.character, brianna.thinks, brianna.alignment) == ("drunk", "chef", None)
    assert (gus.character, gus.thinks) == ("empath", None)
    # the Drunk's belief moved
    assert says(for_player(said, "Brianna", "night_results"), "tell.now_the", character="Chef")
    assert says(for_player(said, "Gus", "night_results"), "tell.now_the", character="Empath")
    assert [n.template for n in public(said)] == ["public_life", "phase_discussion"]


def test_barber_executed_today_counts_and_the_demon_keeps_its_kill():
    def execute_barber(talk, at):
        talk.st("!execute Alex --yes", at)
        return at + H
    _, night, _ = night_sheet(game(*BARBER), night=2, day=execute_barber,
                              choices=(("Ellen", "/swap Cameron Ellen"),
                                       ("Ellen", "/choose Fatima")))
    assert night.deaths == ("Fatima",)
    assert [e for e in effects(night) if e[1] == "character"] == [
        ("Cameron", "character", "imp", "by.barber"),
        ("Ellen", "character", "soldier", "by.barber")]


def test_barber_alive_or_poisoned_means_no_swap():
    entries, night, _ = night_sheet(game(*BARBER), night=2,
                                    choices=(("Ellen", "/swap Brianna Cameron"),))
    assert entries["Alex"].suggestion.code == "info.barber_alive"
    assert not [e for e in effects(night) if e[3] == "by.barber"]
    entries, night, _ = night_sheet(game(*BARBER), night=2, changes=("!poison Alex",),
                                    choices=(("Ellen", "/choose Alex"),
                                             ("Ellen", "/swap Brianna Cameron")))
    assert entries["Alex"].suggestion.code == "info.barber_malfunctioning"
    assert not night.effects


def test_barber_swap_is_the_demons_and_takes_two_players():
    talk, dawn = day_one(game(*BARBER))
    talk.st("!endday --yes", dawn + 13 * H)
    at = dawn + 14 * H
    talk.pm("Brianna", "/swap Cameron Derek", at)
    (refused,) = talk.rejected
    assert refused.code == "help_not_yours" and refused.params["verb"] == "swap"
    talk.pm("Ellen", "/swap Cameron", at)
    (refused,) = talk.rejected
    assert refused.code == "help_count" and (refused.params["wanted"],
                                             refused.params["given"]) == (2, 1)
    (accepted,) = for_player(talk.pm("Ellen", "/swap Cameron Derek", at), "Ellen",
                             "night_choice")
    assert accepted.view["helps"] == "barber"
    assert says(accepted.view["choice"], "choice.players", players=("Cameron", "Derek"))
    talk.pm("Ellen", "/choose Fatima", at + H)  # the kill does not replace the swap
    night = talk.state.night
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
    votes = [(v.param("voter"), v.param("player"))
             for v in entries["lilmonsta"].choice.param("votes")]
    assert votes == [("Derek", "Gus"), ("Gus", "Gus")]
    assert says(entries["lilmonsta"].suggestion, "sheet.babysits", player="Gus")
    assert says(entries["demoninfo"].suggestion, "sheet.demon_info_lil_monsta")
    talk.approve(talk.state.phase_ends_at - H)
    said = talk.tick(talk.state.phase_ends_at)
    assert says(for_player(said, "Gus", "night_results"), "tell.babysitter")
    assert talk.state.grimoire_of("Gus").reminders == ("babysitter",)
    assert [n.template for n in public(said)] == ["phase_discussion"]  # nothing said of it


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
    assert says(entries["Alex"].suggestion, "result.clockmaker", value="3")


def test_lilmonsta_without_a_majority_the_storyteller_chooses():
    """Seed 000, Lil' Monsta: "If they can't decide, choose a player." and "Then, if it is not
    the first night, a player might die" (your choice: "You may need to kill a Minion or two at
    night using the Lil' Monsta's ability.")"""
    entries, night, talk = night_sheet(lil_monsta(), night=2, choices=(
        ("Derek", "/babysit Derek"), ("Gus", "/babysit Gus")))
    text = entries["lilmonsta"].suggestion
    assert text.code == "sheet.babysit_no_majority"
    assert says(text.param("kill"), "sheet.lil_monsta_kill")  # night 2: a player might die
    assert not [e for e in night.effects if e.field == "reminders"]
    talk.st("!reminder Derek babysitter\n!reminder Gus babysitter", talk.state.phase_ends_at - H)
    assert [s.name for s in talk.state.seats
            if "babysitter" in talk.state.grimoire_of(s.name).reminders] == ["Gus"]


def test_lilmonsta_babysitter_dying_ends_the_game_and_not_before():
    """Seed 000, Lil' Monsta: "If they die, declare that the game is over and good has won." """
    talk, day = day_one(lil_monsta())
    assert talk.state.winner is None and WINS_DETECTED.of(talk.state) == ()  # nobody held it
    talk.st("!reminder Derek babysitter", day + H)
    said = talk.st("!execute Gus --yes", day + 2 * H)  # a Minion, not the babysitter
    assert not for_storytellers(said, "win_detected")
    said = talk.st("!kill Derek --yes", day + 3 * H)
    (win,) = for_storytellers(said, "win_detected")
    assert win.view["winner"] == "good" and win.view["reason"].code == "win.babysitter_dead"


def test_lilmonsta_minions_are_told_and_only_minions_babysit():
    talk = Told(lil_monsta())
    roles = dealt_roles(talk.tick(START))
    assert roles["Derek"]["lil_monsta"] and not roles["Alex"]["lil_monsta"]
    assert {"player": "Gus", "team": "minion", "is_marionette": False} in roles["Derek"]["cultists"]
    talk.pm("Alex", "/babysit Alex", START + H)
    (refused,) = talk.rejected
    assert refused.code == "help_not_yours" and refused.params["verb"] == "babysit"


def test_lilmonsta_setup_deals_one_more_minion_and_no_demon():
    """Seed 000, Lil' Monsta: "During setup, remove Lil' Monsta and add a Minion token. On the
    first night, skip the MINION INFO and DEMON INFO steps." """
    setup = lil_monsta()
    assert problems(ALL, setup.seats, dict(setup.grimoire), (), lil_monsta=True) == []
    dealt = game("chef", "empath", "soldier", "poisoner", "lilmonsta", "monk", "witch")
    assert [p.code for p in problems(ALL, dealt.seats, dict(dealt.grimoire), ())] == [
        "setup.lil_monsta_dealt"]
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
