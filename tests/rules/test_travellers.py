"""Travellers whose abilities change the day's rules (issue 7, seed 001): the Deviant, who
cannot be exiled on a day they were funny, and the Butcher's second nomination. Each test is
named after the traveller it drives. Asserted at the core, as codes and values
(tests/notices.py); the vote count's words for them are in tests/words/test_character_words.py."""

from dataclasses import replace
from datetime import timedelta

from modbot.files.scripts import load_script

from ..conversation import botf_setup
from ..notices import day_one, for_player, public, rejected, says

BOTF = load_script("botf")
H = timedelta(hours=1)
SEVEN = {"Alex": "clockmaker", "Brianna": "dreamer", "Cameron": "seamstress",
         "Derek": "witch", "Ellen": "oracle", "Fatima": "nodashii", "Gus": "deviant"}


def game(gus="deviant"):
    setup = botf_setup({**SEVEN, "Gus": gus}, script=BOTF)
    return replace(setup, seats=tuple(replace(s, traveller=s.name == "Gus")
                                      for s in setup.seats))


def exile_gus(talk, at):
    """Everyone votes to exile Gus (7 of 7)."""
    talk.thread("Alex", "/exile Gus", at)
    for i, voter in enumerate(talk.state.today.nomination_of("Gus", "exile").order):
        said = talk.thread(voter, "/vote Gus yes", at + (i + 1) * timedelta(minutes=1))
    return said


def test_deviant_funny_today_is_not_exiled():
    talk, dawn = day_one(game())
    said = talk.st("!funny Gus", dawn + H)
    assert talk.state.grimoire_of("Gus").funny_day == 1
    said = exile_gus(talk, dawn + 2 * H)
    assert talk.state.seat("Gus").alive
    assert [n.view for n in public(said) if n.template == "deviant"] == [
        {"player": "Gus", "votes": 7}]  # had the votes, but was funny today


def test_deviant_not_funny_or_not_today_is_exiled():
    talk, dawn = day_one(game())
    exile_gus(talk, dawn + 2 * H)
    assert not talk.state.seat("Gus").alive
    talk.st("!funny Alex", dawn + 3 * H)
    assert says(talk.command.failed, "rejection.not_deviant", player="Alex")


def everyone_votes(talk, nominee, at):
    for i, voter in enumerate(talk.state.today.nomination_of(nominee).order):
        said = talk.thread(voter, f"/vote {nominee} yes", at + i * timedelta(minutes=1))
    return said


def test_butcher_nominates_after_nominations_close_and_both_are_executed():
    talk, dawn = day_one(game("butcher"))
    talk.thread("Alex", "/nominate Brianna", dawn + 13 * H)
    everyone_votes(talk, "Brianna", dawn + 14 * H)
    talk.tick(dawn + 24 * H)  # nominations close; the main vote is all locked
    assert talk.state.today is not None  # the Butcher may still nominate: no early end
    talk.thread("Derek", "/nominate Cameron", dawn + 25 * H)
    assert rejected(talk) == ["wrong_phase"]  # only the Butcher, after the close
    talk.thread("Gus", "/nominate Cameron", dawn + 25 * H)
    assert talk.state.today.nomination_of("Cameron").by_butcher
    talk.thread("Gus", "/nominate Derek", dawn + 25 * H)
    assert rejected(talk) == ["wrong_phase"]  # one Butcher nomination a day
    said = everyone_votes(talk, "Cameron", dawn + 26 * H)
    assert not talk.state.seat("Brianna").alive and not talk.state.seat("Cameron").alive
    assert [n.view for n in public(said) if n.template == "butcher"] == [
        {"nominee": "Cameron", "votes": 7, "executed": True}]
    assert talk.state.past_days[-1].executed == "Brianna"  # the main execution


def test_butcher_nominee_without_a_majority_is_not_executed_and_the_main_race_ignores_it():
    talk, dawn = day_one(game("butcher"))
    talk.thread("Alex", "/nominate Brianna", dawn + 13 * H)
    for i, voter in enumerate(("Cameron", "Derek", "Ellen", "Fatima")):
        talk.thread(voter, "/vote Brianna yes", dawn + 14 * H + i * timedelta(minutes=1))
    talk.thread("Gus", "/nominate Cameron", dawn + 25 * H)
    talk.thread("Derek", "/vote Cameron yes", dawn + 26 * H)
    said = talk.st("!endday --yes", dawn + 30 * H)
    assert not talk.state.seat("Brianna").alive and talk.state.seat("Cameron").alive
    assert [n.view for n in public(said) if n.template == "butcher"] == [
        {"nominee": "Cameron", "votes": 1, "executed": False}]


def test_hostess_chosen_player_character_is_proposed_for_the_night():
    """Seed 001, Hostess: "Each day, choose a player; if they agree tonight, you learn their
    character, but both of you might die." """
    talk, dawn = day_one(game("hostess"))
    said = talk.pm("Gus", "/choose Brianna", dawn + H)
    (accepted,) = for_player(said, "Gus", "night_choice")
    assert accepted.view["night"] == 2
    assert says(accepted.view["choice"], "choice.players", players=("Brianna",))
    talk.st("!endday --yes", dawn + 2 * H)
    talk.tick(talk.state.phase_ends_at - 2 * H)
    night = talk.state.night
    entry = next(e for e in night.sheet if e.player == "Gus")
    assert says(entry.suggestion, "info.hostess", player="Brianna")
    assert says(night.result_of("Gus"), "result.is_the", player="Brianna", character="Dreamer")
