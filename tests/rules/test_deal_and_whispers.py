"""The deal and the whispers at the core, as codes and values (tests/notices.py): characters
dealt by PM (7 and 15 players), `!start`, and the whisper rules checked on private messages
(seed 001 "Town Composition" and "Whispers"). What the role PM reads like is in
tests/words/test_deal_words.py."""

from dataclasses import replace
from datetime import timedelta

import pytest

from modbot.core.state.model import GrimoireEntry, Seat

from ..conversation import FIFTEEN, SEVEN, botf_setup
from ..helpers import DAY1, START
from ..notices import Told, failed, for_storytellers, of, public, roles, says

H = timedelta(hours=1)


def _cultists(role: dict) -> dict:
    return {c["player"]: c["team"] for c in role["cultists"]}


def test_seven_players_each_get_one_grimoire_pm_with_their_character():
    told = Told(botf_setup()).tick(START)
    dealt = roles(told)
    assert set(dealt) == set(SEVEN)
    assert all(n.to == "player" for n in of(told, "role"))
    alex = dealt["Alex"]
    assert (alex["character"], alex["team"], alex["alignment"]) == ("Clockmaker", "townsfolk",
                                                                    "Loyal")
    assert alex["cultists"] == [] and alex["bluffs"] == []
    fatima, derek = dealt["Fatima"], dealt["Derek"]
    assert fatima["alignment"] == "Cultist" and _cultists(fatima) == {"Derek": "minion"}
    assert fatima["bluffs"] == ["Sage", "Flowergirl", "Mathematician"]
    assert _cultists(derek) == {"Fatima": "demon"}  # types, not characters
    assert derek["bluffs"] == []  # only the Demon learns the bluffs
    assert [n.template for n in public(told)] == ["phase_night"]


def test_fifteen_players_three_minions_learn_each_other_and_the_drunk_like_sees_a_lie():
    setup = botf_setup(FIFTEEN, bluffs=("artist", "philosopher", "klutz"),
                       thinks={"P10": "oracle"})
    dealt = roles(Told(setup).tick(START))
    assert len(dealt) == 15
    for minion in ("P12", "P13", "P14"):
        others = {"P12", "P13", "P14", "P15"} - {minion}
        assert set(_cultists(dealt[minion])) == others and _cultists(dealt[minion])["P15"] == \
            "demon"
    assert dealt["P15"]["bluffs"] == ["Artist", "Philosopher", "Klutz"]
    mutant = dealt["P10"]  # the Mutant is shown the Oracle
    assert (mutant["character"], mutant["team"], mutant["alignment"]) == ("Oracle", "townsfolk",
                                                                          "Loyal")


def test_an_evil_traveller_learns_the_demon():
    setup = botf_setup({**SEVEN, "Tom": "barista"})
    seats = (*setup.seats[:-1], Seat("Tom", traveller=True))
    grimoire = (*(g for g in setup.grimoire if g[0] != "Tom"),
                ("Tom", GrimoireEntry(character="barista", alignment="evil")))
    dealt = roles(Told(replace(setup, seats=seats, grimoire=grimoire)).tick(START))
    assert dealt["Tom"]["demon"] == "Fatima" and dealt["Tom"]["alignment"] == "Cultist"


def test_an_incomplete_grimoire_waits_for_start():
    told = Told(botf_setup(bluffs=()))
    said = told.tick(START)
    assert roles(said) == {}
    (waiting,) = for_storytellers(said, "deal_waiting")
    assert says(waiting.view, "setup.deal_bluffs", demon="Fatima", wanted=3)
    told.st("!bluffs Sage, Witch", START + H)
    assert says(told.command.failed, "rejection.bluff_in_play", name="Witch")
    told.st("!bluffs Sage, Oracle", START + H)
    assert says(told.command.failed, "rejection.bluff_in_play", name="Oracle")
    said = told.st("!bluffs Sage, Artist, Mutant\n!start", START + H)
    assert len(roles(said)) == 7 and told.state.dealt
    told.st("!start", START + 2 * H)
    assert failed(told) == ["rejection.already_dealt"]


def test_start_before_the_game_begins_night_1_now():
    told = Told(botf_setup())
    said = told.st("!start", START - 5 * H)
    assert len(roles(said)) == 7
    assert told.state.phase_label == "night 1"
    assert told.state.phase_ends_at == START - 5 * H + timedelta(hours=24)


def test_character_commands_check_the_script():
    told = Told(botf_setup())
    told.st("!character Alex Imp", START - H)
    assert says(told.command.failed, "rejection.unknown_character_st", text="Imp")
    told.st("!character Alex snake charmer\n!thinks Brianna Oracle", START - H)
    assert told.state.grimoire_of("Alex").character == "snakecharmer"
    assert told.state.grimoire_of("Brianna").thinks == "oracle"


# -- whispers ---------------------------------------------------------------------------------

def _day1(setup=None) -> Told:
    told = Told(setup or botf_setup())
    told.tick(START)
    told.tick(START + timedelta(hours=22))
    told.st("!result Brianna none\n!approve", START + timedelta(hours=23))
    told.tick(DAY1)
    assert told.state.phase_label == "day 1 discussion"
    return told


@pytest.fixture()
def day1():
    return _day1()


def _flags(told: list) -> list:
    """The whisper checks' reasons the Storytellers were sent (Says)."""
    return [n.view["flag"].reason for n in for_storytellers(told, "whisper_flag")]


def _pm(told: Told, author: str, raw: str, at, with_: str, **kwargs) -> list:
    return told.pm(author, raw, at, with_=(with_,), **kwargs)


def test_a_declared_whisper_is_counted_until_a_public_post_breaks_it(day1):
    day1.thread("Brianna", "/whisper Ellen", DAY1 + H)  # not seat neighbours
    (flag,) = _flags(_pm(day1, "Brianna", "hello", DAY1 + 2 * H, "Ellen"))  # not accepted
    assert flag.code == "whisper.none_active_not_neighbours"
    day1.thread("Ellen", "/accept", DAY1 + 3 * H)
    said = _pm(day1, "Brianna", "Now we may talk at length about anything at all here.",
               DAY1 + 4 * H, "Ellen")
    assert said == []  # counted silently, never answered in the PM
    said = day1.thread("Brianna", "I am back in the thread.", DAY1 + 5 * H)
    assert [n.view["others"] for n in said if n.template == "whisper_broken"] == [["Ellen"],
                                                                                  ["Brianna"]]
    (flag,) = _flags(_pm(day1, "Ellen", "still there?", DAY1 + 6 * H, "Brianna"))
    assert says(flag, "whisper.after_break", by="Brianna", at=DAY1 + 5 * H)
    assert day1.state.ledger.count(1) == {("Brianna", "Ellen"): 1}


def test_a_message_sent_before_the_break_is_judged_by_its_own_time(day1):
    day1.thread("Derek", "/whisper Ellen", DAY1 + H)
    day1.thread("Ellen", "/accept", DAY1 + 2 * H)
    day1.thread("Derek", "public words", DAY1 + 4 * H)
    assert _flags(_pm(day1, "Ellen", "sent before the break, read after", DAY1 + 3 * H,
                      "Derek")) == []


def test_a_whisper_pm_must_include_the_host_accounts(day1):
    day1.thread("Derek", "/whisper Ellen", DAY1 + H)
    day1.thread("Ellen", "/accept", DAY1 + 2 * H)
    (flag,) = _flags(_pm(day1, "Derek", "hi", DAY1 + 3 * H, "Ellen", storytellers=False))
    assert says(flag, "whisper.hosts_missing", missing=("nightingale",))


def test_neighbour_whispers_ten_words_once_a_day(day1):
    ten = "one two three four five six seven eight nine ten"
    assert _flags(_pm(day1, "Alex", ten, DAY1 + H, "Brianna")) == []
    (flag,) = _flags(_pm(day1, "Alex", "again", DAY1 + 2 * H, "Brianna"))
    assert says(flag, "whisper.neighbour_again", other="Brianna")
    (flag,) = _flags(_pm(day1, "Alex", ten + " eleven", DAY1 + H, "Gus"))  # wraps round
    assert says(flag, "whisper.neighbour_words", other="Gus", words=11, limit=10)
    (flag,) = _flags(_pm(day1, "Alex", "hi", DAY1 + H, "Derek"))
    assert says(flag, "whisper.none_active_not_neighbours", members=("Alex", "Derek"))
    assert _flags(_pm(day1, "Brianna", "short reply", DAY1 + 3 * H, "Alex")) == []


def test_a_whisper_limit_and_a_storyteller_consult_reach_the_storytellers():
    told = _day1(botf_setup(whispers_per_day=1))
    told.thread("Derek", "/whisper Ellen", DAY1 + H)
    (limit,) = for_storytellers(told.thread("Derek", "/whisper Alex", DAY1 + 2 * H),
                                "whisper_limit")
    assert (limit.view["player"], limit.view["count"], limit.view["limit"]) == ("Derek", 2, 1)
    (consult,) = for_storytellers(told.thread("Alex", "/whisper Storyteller", DAY1 + 3 * H),
                                  "consult")
    assert consult.view["player"] == "Alex"


def test_the_day_ends_with_a_whisper_digest_of_counts_never_contents(day1):
    day1.thread("Derek", "/whisper Ellen", DAY1 + H)
    day1.thread("Ellen", "/accept", DAY1 + 2 * H)
    _pm(day1, "Derek", "the secret word is pineapple", DAY1 + 3 * H, "Ellen")
    _pm(day1, "Alex", "psst", DAY1 + 3 * H, "Derek")
    (digest,) = for_storytellers(day1.st("!endday --yes", DAY1 + 4 * H), "whisper_digest")
    assert digest.view["counts"] == {("Derek", "Ellen"): 1}
    assert [f.reason.code for f in digest.view["flags"]] == ["whisper.none_active_not_neighbours"]
    assert "pineapple" not in repr(digest.view)  # counts, never contents
