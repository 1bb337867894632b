"""What the deal's and the whispers' messages read like (the rules are
tests/rules/test_deal_and_whispers.py): the role PM, an evil traveller's Demon, the
Storytellers' whisper checks and the day's digest, through the app's renderer and the
catalogue (Conversation)."""

from dataclasses import replace
from datetime import timedelta

from modbot.core.state.model import GrimoireEntry, Seat

from ..conversation import SEVEN, Conversation, botf_setup, to
from ..helpers import DAY1, START
from ..rules.test_others_choose import lil_monsta

H = timedelta(hours=1)


def _roles(said):
    return {s.thread.removeprefix("pm:"): s.raw for s in said if "Your character" in s.raw}


def test_the_role_pm_names_the_character_its_team_the_cultists_and_the_bluffs():
    said = Conversation(botf_setup()).tick(START)
    roles = _roles(said)
    assert "You are the **Clockmaker** (townsfolk), on the **Loyal** team." in roles["alex"]
    assert "Cultist" not in roles["alex"] and "bluffs" not in roles["alex"]
    assert "on the **Cultist** team" in roles["fatima"] and "- Derek (Minion)" in roles["fatima"]
    assert "Sage, Flowergirl, Mathematician" in roles["fatima"]
    assert "- Fatima (Demon)" in roles["derek"]
    assert "## Night 1 begins" in to(said, "topic")[0]


def test_an_evil_traveller_is_told_the_demon_in_words():
    setup = botf_setup({**SEVEN, "Tom": "barista"})
    seats = (*setup.seats[:-1], Seat("Tom", traveller=True))
    grimoire = (*(g for g in setup.grimoire if g[0] != "Tom"),
                ("Tom", GrimoireEntry(character="barista", alignment="evil")))
    roles = _roles(Conversation(replace(setup, seats=seats, grimoire=grimoire)).tick(START))
    assert "As a traveller of the Cultist team, you know the Demon: Fatima." in roles["tom"]


def test_the_storytellers_read_what_the_deal_waits_for():
    talk = Conversation(botf_setup(bluffs=()))
    said = talk.tick(START)
    assert "the Demon needs 3 bluffs" in to(said, "pm:storytellers")[0]
    said = talk.st("!bluffs Sage, Witch", START + H)
    assert "Witch is in play" in to(said, "pmtopic")[0]


def _day1() -> Conversation:
    talk = Conversation(botf_setup())
    talk.tick(START)
    talk.tick(START + timedelta(hours=22))
    talk.st("!result Brianna none\n!approve", START + timedelta(hours=23))
    talk.tick(DAY1)
    return talk


def _flags(said):
    return [s.raw for s in said if s.thread == "pm:storytellers" and "Whisper check" in s.raw]


def test_a_whisper_check_says_what_was_wrong():
    talk = _day1()
    talk.thread("Brianna", "/whisper Ellen", DAY1 + H)
    talk.thread("Ellen", "/accept", DAY1 + 2 * H)
    said = talk.thread("Brianna", "I am back in the thread.", DAY1 + 3 * H)
    assert any("Your whisper with Ellen has ended" in s.raw for s in said)
    (flag,) = _flags(talk.pm("Ellen", "still there?", DAY1 + 4 * H, with_=("Brianna",)))
    assert "a message after the whisper broke (Brianna posted publicly at" in flag
    flags = _flags(talk.pm("Alex", "hi", DAY1 + H, with_=("Derek",), storytellers=False))
    assert any("does not include the host accounts (missing: nightingale)" in f for f in flags)
    (flag,) = _flags(talk.pm("Alex", " ".join(["word"] * 11), DAY1 + H, with_=("Gus",)))
    assert "11 words to Gus (at most 10)" in flag


def test_the_whisper_limit_the_consult_and_the_digest_in_words():
    talk = Conversation(botf_setup(whispers_per_day=1))
    talk.tick(START)
    talk.tick(START + timedelta(hours=22))
    talk.st("!result Brianna none\n!approve", START + timedelta(hours=23))
    talk.tick(DAY1)
    talk.thread("Derek", "/whisper Ellen", DAY1 + H)
    said = talk.thread("Derek", "/whisper Alex", DAY1 + 2 * H)
    assert "declared whisper number 2 today" in to(said, "pm:storytellers")[0]
    said = talk.thread("Alex", "/whisper Storyteller", DAY1 + 3 * H)
    assert "Alex asked for a private word" in to(said, "pm:storytellers")[0]
    talk.thread("Ellen", "/accept", DAY1 + 3 * H)
    talk.pm("Derek", "the secret word is pineapple", DAY1 + 4 * H, with_=("Ellen",))
    said = talk.st("!endday --yes", DAY1 + 5 * H)
    (digest,) = [s for s in to(said, "pm:storytellers") if "## Whispers, day 1" in s]
    assert "- Derek & Ellen: 1" in digest and "pineapple" not in digest


def test_lil_monstas_minions_are_told_how_to_babysit_and_a_refusal_says_who_may():
    talk = Conversation(lil_monsta())
    said = talk.tick(START)
    assert "send `/babysit NAME` here" in to(said, "pm:derek")[0]
    assert "Gus (Minion)" in to(said, "pm:derek")[0]
    assert "/babysit" not in to(said, "pm:alex")[0]
    said = talk.pm("Alex", "/babysit Alex", START + H)
    assert "Only the Minions (Lil' Monsta) may /babysit." in to(said, "pm:alex")[0]
