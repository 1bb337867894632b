"""Rulings written in the seeds ("How to Run", "Examples & Notes", "Examples"), each quoted
and checked (issue 7). Seed 000 is the almanac, 001 the BotF rules, 002 "Actually Oops All
Evil". Rulings about abilities the bot does not model yet are listed in the README."""

from dataclasses import replace
from datetime import timedelta

from ..conversation import botf_setup, seven
from ..helpers import START
from ..notices import day_one, night_sheet, public, says

H = timedelta(hours=1)


game = seven


def test_seed_000_empath_skips_dead_neighbours():
    """Seed 000, Empath: "if the Empath is sitting next to a dead player, they do not get info
    about that dead player. Instead, they get info about the closest alive player in that
    direction." """
    setup = game("chef", "empath", "soldier", "poisoner", "imp", "monk", "pixie",
                 dead=("Cameron",))
    entries, _, _ = night_sheet(setup)
    assert says(entries["Brianna"].suggestion, "result.empath", value="1")  # Derek


def test_seed_000_empath_acts_after_the_demon():
    """Seed 000, Empath: "Each night, wake the Empath. Show them fingers (0, 1, or 2)
    equaling the number of evil players neighbouring the Empath." and "The Empath acts after the
    Demon, so if the Demon kills one of the
    Empath's alive neighbours, the Empath does not learn about the now-dead player." """
    setup = game("chef", "empath", "mutant", "poisoner", "imp", "monk", "pixie")
    entries, _, _ = night_sheet(setup, night=2, choices=(("Ellen", "/choose Cameron"),))
    assert says(entries["Brianna"].suggestion, "result.empath", value="1")  # Derek


def test_seed_000_monk_protected_player_remains_alive():
    """Seed 000, Monk: "If the Demon attacks the player marked SAFE, the player remains
    alive. ... At dawn, declare that no one died at night. (Do not say why.)" """
    setup = game("chef", "empath", "soldier", "poisoner", "imp", "monk", "pixie")
    _, _night, talk = night_sheet(setup, night=2, choices=(
        ("Fatima", "/choose Alex"), ("Ellen", "/choose Alex")))
    talk.approve(talk.state.phase_ends_at - H)
    said = talk.tick(talk.state.phase_ends_at)
    (dawn,) = public(said)
    assert dawn.view["deaths"] == () and set(dawn.view) == {"cycle", "starts", "deadline", "deaths"}


def test_seed_000_poisoner_healthy_at_dusk():
    """Seed 000, Poisoner: "Each dusk, the poisoned player becomes healthy—remove their
    POISONED reminder." """
    setup = game("chef", "empath", "soldier", "poisoner", "imp", "monk", "pixie")
    _, _, talk = night_sheet(setup, night=2, choices=(("Derek", "/choose Alex"),))
    talk.approve(talk.state.phase_ends_at - H)
    talk.tick(talk.state.phase_ends_at)
    assert talk.state.grimoire_of("Alex").poisoned
    talk.st("!endday --yes", talk.state.phase_ends_at - H)
    assert not talk.state.grimoire_of("Alex").poisoned


def test_seed_000_snake_charmer_demon_becomes_good_and_poisoned():
    """Seed 000, Snake Charmer: "If that player is the Demon, the old Snake Charmer changes
    into the new (evil) Demon, and the old Demon changes into the new (good) Snake Charmer—swap
    the Snake Charmer token and the Demon's token. The new Snake Charmer is poisoned" (for
    good: it is not the Poisoner's until-dusk poison)."""
    setup = game("snakecharmer", "empath", "soldier", "poisoner", "imp", "monk", "pixie")
    _, _, talk = night_sheet(setup, choices=(("Alex", "/choose Ellen"),))
    talk.approve(START + timedelta(hours=23))
    talk.tick(START + timedelta(hours=24))
    ellen = talk.state.grimoire_of("Ellen")
    assert (ellen.character, ellen.alignment, ellen.poisoned) == ("snakecharmer", "good", True)
    talk.st("!endday --yes", START + timedelta(hours=25))  # permanently: not just until dusk
    assert talk.state.grimoire_of("Ellen").poisoned


def test_seed_000_librarian_shows_the_drunk_as_the_drunk():
    """Seed 000, Librarian: "While preparing the first night, put the Librarian's OUTSIDER
    reminder token by any Outsider character token, and put the Librarian's WRONG reminder
    token by any other character token." (the Drunk is an Outsider: shown as the Drunk)"""
    setup = game("chef", "librarian", "drunk", "poisoner", "imp", "monk", "pixie",
                 thinks={"Cameron": "noble"})
    _, night, _ = night_sheet(setup)
    assert says(night.result_of("Brianna"), "result.one_of", first="Alex", second="Cameron",
                character="Drunk")


def test_seed_000_noble_learns_two_good_and_one_evil():
    """Seed 000, Noble: "While preparing the first night, mark two good players' character
    tokens with Noble KNOW reminders. Mark any evil player's character token with the third
    KNOW reminder." and "During the first night, wake the Noble. Point to all three players
    marked KNOW." """
    setup = game("noble", "empath", "soldier", "poisoner", "imp", "monk", "pixie")
    _, night, _ = night_sheet(setup)
    assert says(night.result_of("Alex"), "result.noble", players=("Brianna", "Cameron", "Derek"))


def test_seed_002_imp_passes_to_a_sober_healthy_scarlet_woman_first():
    """Seed 002, Imp: "If an Imp kills themselves and there is an alive, sober and healthy
    Scarlet Woman on their team, the Scarlet Woman becomes the Imp." Seed 000, Imp: "If the
    Imp killed themself at night, choose an alive Minion and replace their character token
    with a spare Imp token, changing their character to the Imp." """
    setup = game("chef", "empath", "soldier", "poisoner", "imp", "monk", "scarletwoman")
    _, night, _ = night_sheet(setup, night=2, choices=(("Ellen", "/choose Ellen"),))
    assert [e.player for e in night.effects] == ["Gus"]
    _, night, _ = night_sheet(setup, night=2, choices=(
        ("Derek", "/choose Gus"), ("Ellen", "/choose Ellen")))  # the Scarlet Woman poisoned
    assert [e.player for e in night.effects if e.field == "character"] == ["Derek"]


def test_seed_002_scarlet_woman_becomes_the_same_demon():
    """Seed 002, Scarlet Woman: "If the Scarlet Woman becomes a Demon, they become the same
    type of Demon that died." """
    talk, day = day_one(game("chef", "empath", "soldier", "poisoner", "pukka", "monk",
                             "scarletwoman"))
    talk.st("!execute Ellen --yes", day + H)
    assert talk.state.grimoire_of("Gus").character == "pukka"


def test_seed_002_fang_gu_jump_does_not_wake_the_scarlet_woman():
    """Seed 002, Scarlet Woman: "If a viable Fang Gu chooses an Outsider and dies, the Scarlet
    Woman does not become the Fang Gu." """
    setup = game("chef", "mutant", "soldier", "poisoner", "fanggu", "monk", "scarletwoman")
    _, _, talk = night_sheet(setup, night=2, choices=(("Ellen", "/choose Brianna"),))
    talk.approve(talk.state.phase_ends_at - H)
    talk.tick(talk.state.phase_ends_at)
    assert talk.state.grimoire_of("Brianna").character == "fanggu"
    assert talk.state.grimoire_of("Gus").character == "scarletwoman"


def test_seed_002_pukka_poisoned_ignores_its_choice():
    """Seed 002, Pukka: "While the Pukka is drunk or poisoned previously poisoned player is
    healthy and new choices do not become poisoned." and "Pukka is poisoned on Night 2. Tonight
    their choice is ignored." """
    setup = game("chef", "empath", "soldier", "poisoner", "pukka", "monk", "pixie")
    # Poisoned before its step (on this test script the Pukka wakes before the Poisoner, and
    # each step sees only what happened earlier in the night).
    _, night, _ = night_sheet(setup, choices=(("Ellen", "/choose Alex"),),
                              changes=("!poison Ellen",))
    assert [e for e in night.effects if e.player == "Alex" and e.field != "reminders"] == []  # the Pixie marks Alex


def test_seed_002_golem_poisoned_uses_its_nomination():
    """Seed 002, Golem: "If Golem is drunk or poisoned when they nominate, they have used their
    once per game ability and will not kill anyone that way." """
    talk, day = day_one(game("golem", "empath", "soldier", "poisoner", "imp", "monk", "pixie"))
    talk.st("!poison Alex", day + H)
    talk.tick(day + timedelta(hours=12))
    talk.thread("Alex", "/nominate Brianna", day + timedelta(hours=13))
    assert talk.state.seat("Brianna").alive
    talk.st("!heal Alex", day + timedelta(hours=14))
    talk.st("!endday --yes", day + timedelta(hours=15))
    assert talk.state.seat("Brianna").alive


def test_seed_002_moonchild_alignment_when_choosing():
    """Seed 002, Moonchild: "Alignment of the chosen player is determined at the time of
    choosing." """
    talk, day = day_one(game("moonchild", "empath", "soldier", "poisoner", "imp", "monk",
                             "pixie"))
    talk.st("!execute Alex --yes", day + H)
    talk.thread("Alex", "/choose Brianna", day + 2 * H)
    talk.st("!alignment Brianna evil", day + 3 * H)  # turned evil after the choice
    talk.tick(talk.state.phase_ends_at - 2 * H)
    assert talk.state.night.deaths == ("Brianna",)


def test_seed_001_klutz_six_hours():
    """Seed 001, Klutz: "When you learn that you died, publicly choose a living player within
    6 hours. If they are a Cultist, your team loses." """
    characters = {"Alex": "klutz", "Brianna": "dreamer", "Cameron": "seamstress",
                  "Derek": "witch", "Ellen": "oracle", "Fatima": "nodashii", "Gus": "towncrier"}
    talk, day = day_one(replace(botf_setup(characters)))
    talk.st("!kill Alex --yes", day + H)
    talk.thread("Alex", "/choose Derek", day + 7 * H + timedelta(minutes=1))
    assert [r.code for r in talk.rejected] == ["klutz_late"]
