"""Bad Moon Rising's travellers (issue 55): the Voudon (only it and the dead vote, the dead
without spending a token, no majority of half needed), the Bishop (only the Storytellers
nominate: `!nominate NOMINEE`), the Judge (`!judge pass|fail NOMINEE`, once), the Matron (`!swap A B`, three a day;
whispers only with a neighbour), the Apprentice (a Townsfolk ability if
good, a Minion ability if evil, on its first night)."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from ..conversation import ALL, botf_setup, to_dawn_one, with_traveller
from ..notices import Told, for_storytellers, night_sheet, rejected, says
from .test_tb_travellers import _day
from .test_tb_travellers import _vote_on as tb_vote_on

H = timedelta(hours=1)
RESIDENTS = {"Alex": "chef", "Brianna": "empath", "Cameron": "soldier", "Derek": "poisoner",
             "Ellen": "imp", "Fatima": "monk", "Gus": "saint"}


def town(traveller: str, *, dead=(), alignment="good"):
    """Seven residents and Hana, a traveller holding `traveller` (of `alignment`)."""
    setup = botf_setup({**RESIDENTS, "Hana": traveller}, script=ALL,
                       bluffs=("librarian", "virgin", "mayor"), dead=dead)
    return with_traveller(setup, "Hana", alignment)


def _vote_on(told, at, nominee, voters, nominator="Cameron"):
    tb_vote_on(told, at, nominee, voters, nominator)


# -- the Voudon -----------------------------------------------------------------------------

def test_only_the_voudon_and_the_dead_vote_and_one_vote_executes():
    told, at = _day(town("voudon", dead=("Alex", "Brianna")))
    _vote_on(told, at, "Gus", ("Alex", "Derek", "Ellen"))
    told.end_day(at + 20 * H)
    day = told.state.past_days[-1]
    locked = {v.player: (v.cast, v.vote) for v in day.nomination_of("Gus").locked}
    assert locked["Derek"] == ("yes", "no") and locked["Ellen"] == ("yes", "no")
    assert locked["Alex"] == ("yes", "yes")
    assert day.nomination_of("Gus").yes == 1 and day.executed == "Gus"
    assert told.state.seat("Alex").ghost_vote  # no token spent


def test_the_most_votes_still_win_under_the_voudon():
    told, at = _day(town("voudon", dead=("Alex", "Brianna")))
    _vote_on(told, at, "Gus", ("Alex",))
    _vote_on(told, at + H, "Fatima", ("Alex", "Brianna", "Hana"), nominator="Derek")
    told.end_day(at + 20 * H)
    assert told.state.past_days[-1].executed == "Fatima"


def test_a_drunk_voudon_leaves_the_vote_as_usual():
    setup = town("voudon", dead=("Alex", "Brianna"))
    grimoire = dict(setup.grimoire)
    grimoire["Hana"] = replace(grimoire["Hana"], drunk=True)
    told, at = _day(replace(setup, grimoire=tuple(grimoire.items())))
    _vote_on(told, at, "Gus", ("Alex", "Derek", "Ellen"))
    told.end_day(at + 20 * H)
    day = told.state.past_days[-1]
    assert day.nomination_of("Gus").yes == 3 and day.executed == "Gus"
    assert not told.state.seat("Alex").ghost_vote


# -- the Bishop -----------------------------------------------------------------------------

def test_only_the_storytellers_nominate_while_the_bishop_works():
    told, at = _day(town("bishop"))
    told.thread("Alex", "/nominate Gus", at)
    assert rejected(told) == ["storytellers_nominate"]
    told.st("!nominate Gus", at + H)
    (nomination,) = told.state.current_day.nominations
    assert (nomination.nominator, nomination.nominee) == ("nightingale", "Gus")
    told.thread("Alex", "/vote Gus yes", at + 2 * H)
    assert "Alex" in told.state.current_day.nomination_of("Gus").cast


def test_the_storytellers_are_reminded_who_must_be_nominated():
    told, day = to_dawn_one(Told(town("bishop")))
    notes = for_storytellers(told.tick(day + 12 * H), "st_note")
    assert any(says(n.view["text"], "st.bishop", bishop="Hana", team="evil") for n in notes)


def test_without_a_bishop_the_storytellers_name_the_nominator():
    told, at = _day(town("voudon"))
    told.st("!nominate Gus", at)
    assert says(told.command.failed, "rejection.nominate_names_nominator")



# -- the Judge ------------------------------------------------------------------------------

def test_the_judge_forces_an_execution_to_pass_whatever_the_votes():
    told, at = _day(town("judge"))
    _vote_on(told, at, "Gus", ("Alex",))  # one vote of seven living residents
    told.st("!judge pass Gus", at + H)
    assert told.command.failed == ()
    told.end_day(at + 20 * H)
    assert told.state.past_days[-1].executed == "Gus"


def test_the_judge_forces_an_execution_to_fail_once_a_game():
    told, at = _day(town("judge"))
    _vote_on(told, at, "Gus", ("Alex", "Brianna", "Derek", "Ellen", "Fatima"))
    told.st("!judge fail Gus", at + H)
    told.st("!judge pass Gus", at + 2 * H)
    assert says(told.command.failed, "rejection.judge_used")
    told.end_day(at + 20 * H)
    assert told.state.past_days[-1].executed is None


def test_the_judge_rules_only_on_another_players_nomination():
    told, at = _day(town("judge"))
    _vote_on(told, at, "Gus", ("Alex",), nominator="Hana")
    told.st("!judge pass Gus", at + H)
    assert says(told.command.failed, "rejection.judge_own_nomination", judge="Hana")



# -- the Matron -----------------------------------------------------------------------------

def test_the_matron_swaps_seats_and_the_thread_is_told():
    told, at = _day(town("matron"))
    said = told.st("!swap Alex Derek", at)
    assert [s.name for s in told.state.seats][:4] == ["Derek", "Brianna", "Cameron", "Alex"]
    (post,) = [n for n in said if n.template == "seats_swapped"]
    assert post.view["first"] == "Alex" and post.view["seating"][0] == "Derek"
    for pair in ("Brianna Cameron", "Ellen Fatima"):
        told.st(f"!swap {pair}", at + H)
    told.st("!swap Gus Alex", at + 2 * H)
    assert says(told.command.failed, "rejection.swaps_spent", swaps=3)


def test_while_the_matron_works_a_whisper_is_only_with_a_neighbour():
    told, at = _day(town("matron"))
    told.thread("Alex", "/whisper Derek", at)
    assert rejected(told) == ["whisper_not_beside"]
    told.thread("Alex", "/whisper Brianna", at + H)
    assert rejected(told) == []



# -- the Apprentice -------------------------------------------------------------------------

def test_the_apprentice_gains_a_townsfolk_ability_if_good_a_minion_ability_if_evil():
    entries, night, _ = night_sheet(town("apprentice"))
    (gained,) = [e.value for e in night.effects if e.player == "Hana" and e.field == "ability_of"]
    assert ALL.character(gained).team == "townsfolk" and gained not in RESIDENTS.values()
    assert says(entries["Hana"].suggestion, "result.apprentice")
    _, night, _ = night_sheet(town("apprentice", alignment="evil"))
    (gained,) = [e.value for e in night.effects if e.player == "Hana" and e.field == "ability_of"]
    assert ALL.character(gained).team == "minion" and gained != "poisoner"


BMR_TRAVELLERS = {
    "voudon": test_only_the_voudon_and_the_dead_vote_and_one_vote_executes,
    "bishop": test_only_the_storytellers_nominate_while_the_bishop_works,
    "judge": test_the_judge_forces_an_execution_to_pass_whatever_the_votes,
    "matron": test_the_matron_swaps_seats_and_the_thread_is_told,
    "apprentice": test_the_apprentice_gains_a_townsfolk_ability_if_good_a_minion_ability_if_evil,
}
