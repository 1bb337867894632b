"""Conversation tests: characters dealt by PM (7 and 15 players), `!start`, and the whisper
rules checked on private messages (seed 001 "Town Composition" and "Whispers")."""

from datetime import timedelta

import pytest

from modbot.core.state.model import Seat

from ..conversation import FIFTEEN, SEVEN, Conversation, botf_setup, to
from ..helpers import DAY1, START

H = timedelta(hours=1)


def _roles(said):
    return {s.thread.removeprefix("pm:"): s for s in said if "Your character" in s.raw}


def test_seven_players_each_get_one_grimoire_pm_with_their_character():
    said = Conversation(botf_setup()).tick(START)
    roles = _roles(said)
    assert set(roles) == {name.lower() for name in SEVEN}
    assert all(s.recipients == (name, "nightingale") for name, s in
               ((n, roles[n.lower()]) for n in SEVEN))
    assert "You are the **Clockmaker** (townsfolk), on the **Loyal** team." in roles["alex"].raw
    assert "Cultist" not in roles["alex"].raw and "bluffs" not in roles["alex"].raw
    fatima, derek = roles["fatima"].raw, roles["derek"].raw
    assert "on the **Cultist** team" in fatima and "- Derek (Minion)" in fatima
    assert "Sage, Flowergirl, Mathematician" in fatima
    assert "- Fatima (Demon)" in derek and "Witch" not in fatima  # types, not characters
    assert "Sage" not in derek  # only the Demon learns the bluffs
    assert "## Night 1 begins" in to(said, "topic")[0]


def test_fifteen_players_three_minions_learn_each_other_and_the_drunk_like_sees_a_lie():
    setup = botf_setup(FIFTEEN, bluffs=("artist", "philosopher", "klutz"),
                       thinks={"P10": "oracle"})
    roles = _roles(Conversation(setup).tick(START))
    assert len(roles) == 15
    for minion in ("p12", "p13", "p14"):
        text = roles[minion].raw
        others = {"P12", "P13", "P14", "P15"} - {minion.upper()}
        assert all(f"- {o} (" in text for o in others) and "(Demon)" in text
    assert "Artist, Philosopher, Klutz" in roles["p15"].raw
    mutant = roles["p10"].raw  # the Mutant is shown the Oracle
    assert "**Oracle**" in mutant and "Mutant" not in mutant and "Loyal" in mutant


def test_an_evil_traveller_learns_the_demon():
    setup = botf_setup({**SEVEN, "Tom": "barista"})
    seats = (*setup.seats[:-1], Seat("Tom", traveller=True))
    from dataclasses import replace

    from modbot.core.state.model import GrimoireEntry
    grimoire = (*(g for g in setup.grimoire if g[0] != "Tom"),
                ("Tom", GrimoireEntry(character="barista", alignment="evil")))
    talk = Conversation(replace(setup, seats=seats, grimoire=grimoire))
    roles = _roles(talk.tick(START))
    assert "As a traveller of the Cultist team, you know the Demon: Fatima." in roles["tom"].raw


def test_an_incomplete_grimoire_waits_for_start():
    setup = botf_setup(bluffs=())
    talk = Conversation(setup)
    said = talk.tick(START)
    assert _roles(said) == {}
    assert "the Demon needs 3 bluffs" in to(said, "pm:storytellers")[0]
    said = talk.st("!bluffs Sage, Witch", START + H)
    assert "Witch is in play" in to(said, "pmtopic")[0]
    said = talk.st("!bluffs Sage, Oracle", START + H)
    assert "Oracle is in play" in to(said, "pmtopic")[0]
    said = talk.st("!bluffs Sage, Artist, Mutant\n!start", START + H)
    assert len(_roles(said)) == 7 and talk.state.dealt
    said = talk.st("!start", START + 2 * H)
    assert "already dealt" in to(said, "pmtopic")[0]


def test_start_before_the_game_begins_night_1_now():
    setup = botf_setup()
    talk = Conversation(setup)
    said = talk.st("!start", START - 5 * H)
    assert len(_roles(said)) == 7
    assert talk.state.phase_label == "night 1"
    assert talk.state.phase_ends_at == START - 5 * H + timedelta(hours=24)


def test_character_commands_check_the_script():
    talk = Conversation(botf_setup())
    said = talk.st("!character Alex Imp", START - H)
    assert "No character on the script is called \"Imp\"" in to(said, "pmtopic")[0]
    talk.st("!character Alex snake charmer\n!thinks Brianna Oracle", START - H)
    assert talk.state.grimoire_of("Alex").character == "snakecharmer"
    assert talk.state.grimoire_of("Brianna").thinks == "oracle"


# -- whispers ---------------------------------------------------------------------------------

@pytest.fixture()
def day1():
    talk = Conversation(botf_setup())
    talk.tick(START)
    talk.tick(START + timedelta(hours=22))
    talk.st("!result Brianna none\n!approve", START + timedelta(hours=23))
    talk.tick(DAY1)
    assert talk.state.phase_label == "day 1 discussion"
    return talk


def _flags(said):
    return [s.raw for s in said if s.thread == "pm:storytellers" and "Whisper check" in s.raw]


def test_a_declared_whisper_is_counted_until_a_public_post_breaks_it(day1):
    day1.thread("Brianna", "/whisper Ellen", DAY1 + H)  # not seat neighbours
    assert _flags(day1.pm("Brianna", "hello", DAY1 + 2 * H, with_=("Ellen",)))  # not accepted
    day1.thread("Ellen", "/accept", DAY1 + 3 * H)
    said = day1.pm("Brianna", "Now we may talk at length about anything at all here.",
                   DAY1 + 4 * H, with_=("Ellen",))
    assert _flags(said) == [] and said == []  # counted silently, never answered in the PM
    said = day1.thread("Brianna", "I am back in the thread.", DAY1 + 5 * H)
    assert any("Your whisper with Ellen has ended" in s.raw for s in said)
    said = day1.pm("Ellen", "still there?", DAY1 + 6 * H, with_=("Brianna",))
    (flag,) = _flags(said)
    assert "a message after the whisper broke (Brianna posted publicly at" in flag
    ledger = day1.state.ledger
    assert ledger.count(1) == {("Brianna", "Ellen"): 1}


def test_a_message_sent_before_the_break_is_judged_by_its_own_time(day1):
    day1.thread("Derek", "/whisper Ellen", DAY1 + H)
    day1.thread("Ellen", "/accept", DAY1 + 2 * H)
    day1.thread("Derek", "public words", DAY1 + 4 * H)
    said = day1.pm("Ellen", "sent before the break, read after", DAY1 + 3 * H,
                   with_=("Derek",))
    assert _flags(said) == []


def test_a_whisper_pm_must_include_the_host_accounts(day1):
    day1.thread("Derek", "/whisper Ellen", DAY1 + H)
    day1.thread("Ellen", "/accept", DAY1 + 2 * H)
    said = day1.pm("Derek", "hi", DAY1 + 3 * H, with_=("Ellen",), storytellers=False)
    (flag,) = _flags(said)
    assert "does not include the host accounts (missing: nightingale)" in flag


def test_neighbour_whispers_ten_words_once_a_day(day1):
    ten = "one two three four five six seven eight nine ten"
    assert _flags(day1.pm("Alex", ten, DAY1 + H, with_=("Brianna",))) == []
    (flag,) = _flags(day1.pm("Alex", "again", DAY1 + 2 * H, with_=("Brianna",)))
    assert "a second one to Brianna today" in flag
    (flag,) = _flags(day1.pm("Alex", ten + " eleven", DAY1 + H, with_=("Gus",)))  # wraps round
    assert "11 words to Gus (at most 10)" in flag
    (flag,) = _flags(day1.pm("Alex", "hi", DAY1 + H, with_=("Derek",)))
    assert "no active whisper between Alex and Derek" in flag
    assert _flags(day1.pm("Brianna", "short reply", DAY1 + 3 * H, with_=("Alex",))) == []


def test_a_whisper_limit_and_a_storyteller_consult_reach_the_storytellers():
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


def test_the_day_ends_with_a_whisper_digest_of_counts_never_contents(day1):
    day1.thread("Derek", "/whisper Ellen", DAY1 + H)
    day1.thread("Ellen", "/accept", DAY1 + 2 * H)
    day1.pm("Derek", "the secret word is pineapple", DAY1 + 3 * H, with_=("Ellen",))
    day1.pm("Alex", "psst", DAY1 + 3 * H, with_=("Derek",))
    said = day1.st("!endday --yes", DAY1 + 4 * H)
    (digest,) = [s for s in to(said, "pm:storytellers") if "## Whispers, day 1" in s]
    assert "- Derek & Ellen: 1" in digest and "no active whisper between Alex and Derek" in digest
    assert "pineapple" not in digest
