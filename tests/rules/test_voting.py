"""Clockhand locking, thresholds, ties, ghost votes, deaths mid-day, end of day, exile."""

from datetime import timedelta

import pytest

from modbot.core.deciding.voting import majority
from modbot.core.engine import act
from modbot.core.state.actions import Context, Kill
from modbot.core.state.model import Phase, Profile

from ..helpers import DAY1_END, NOMINATIONS1, VOTING1, Game

SEVEN = ("Alex", "Brianna", "Cameron", "Derek", "Ellen", "Fatima", "Gus")


def test_seed_example_alex_to_ellen():
    """Seed 001: Brianna nominated; Cameron locks at once; Derek's precast vote follows."""
    g = Game()
    g.post("Alex", "/nominate Brianna", 0)
    assert g.nomination("Brianna").order == ("Cameron", "Derek", "Ellen", "Alex", "Brianna")
    g.post("Derek", "/vote Brianna no", 1)
    g.post("Derek", "/vote Brianna yes", 2)  # may alter while Cameron has not voted
    assert g.locked("Brianna") == []
    g.post("Cameron", "/vote Brianna", 3)
    assert g.locked("Brianna") == [("Cameron", "yes"), ("Derek", "yes")]
    assert g.nomination("Brianna").locked[1].post_number == 3  # the value cast at that moment
    g.post("Derek", "/vote Brianna no", 4)
    assert g.codes() == ["vote_locked"]
    assert g.locked("Brianna") == [("Cameron", "yes"), ("Derek", "yes")]
    assert g.nomination("Brianna").hand == "Ellen"


def test_precast_vote_waits_for_the_hand_and_can_be_withdrawn():
    g = Game()
    g.post("Alex", "/nominate Brianna")
    g.post("Ellen", "/vote Brianna yes", 1)
    g.post("Ellen", "/unvote", 2)
    g.post("Cameron", "/vote Brianna no", 3)
    g.post("Derek", "/vote Brianna no", 4)
    assert g.locked("Brianna") == [("Cameron", "no"), ("Derek", "no")]
    assert g.nomination("Brianna").hand == "Ellen"
    assert "Ellen" not in g.nomination("Brianna").cast


def test_nominee_votes_last_and_closes_the_nomination():
    g = Game()
    g.post("Alex", "/nominate Brianna")
    for i, voter in enumerate(["Cameron", "Derek", "Ellen", "Alex"]):
        g.post(voter, "/vote Brianna yes", i + 1)
    assert g.nomination("Brianna").is_open
    g.post("Brianna", "/vote Brianna yes", 9)
    n = g.nomination("Brianna")
    assert not n.is_open and n.yes == 5 and n.threshold_at_close == 3 and n.living_at_close == 5


@pytest.mark.parametrize("n, botf, official", [
    (3, 2, 2), (4, 3, 2), (5, 3, 3), (6, 4, 3), (7, 4, 4), (8, 5, 4), (9, 5, 5),
    (10, 6, 5), (11, 6, 6), (12, 7, 6), (13, 7, 7), (14, 8, 7), (15, 8, 8),
])
def test_thresholds_match_the_rules_notes_table(n, botf, official):
    assert majority(Profile.BOTF, n) == botf
    assert majority(Profile.OFFICIAL, n) == official


def _vote_all(g: Game, nominee: str, yes_voters, order, start=1):
    for i, voter in enumerate(order):
        value = "yes" if voter in yes_voters else "no"
        g.post(voter, f"/vote {nominee} {value}", start + i)


@pytest.mark.parametrize("profile, players, yes, executed", [
    # 6 living (even): BotF needs 4, official 3
    (Profile.BOTF, SEVEN[:6], 3, None),
    (Profile.BOTF, SEVEN[:6], 4, "Brianna"),
    (Profile.OFFICIAL, SEVEN[:6], 3, "Brianna"),
    (Profile.OFFICIAL, SEVEN[:6], 2, None),
    # 7 living (odd): both need 4
    (Profile.BOTF, SEVEN, 3, None),
    (Profile.BOTF, SEVEN, 4, "Brianna"),
    (Profile.OFFICIAL, SEVEN, 3, None),
    (Profile.OFFICIAL, SEVEN, 4, "Brianna"),
])
def test_execution_threshold_even_and_odd_for_both_profiles(profile, players, yes, executed):
    g = Game(players, profile=profile)
    g.post("Alex", "/nominate Brianna")
    order = g.nomination("Brianna").order
    _vote_all(g, "Brianna", set(order[:yes]), order)
    g.advance(DAY1_END)
    assert g.state.past_days[0].executed == executed


def test_tie_for_highest_means_no_execution():
    g = Game(SEVEN)
    g.post("Alex", "/nominate Brianna")
    _vote_all(g, "Brianna", {"Cameron", "Derek", "Ellen", "Fatima"}, g.nomination("Brianna").order)
    g.post("Cameron", "/nominate Derek", 20)
    _vote_all(g, "Derek", {"Ellen", "Fatima", "Gus", "Alex"}, g.nomination("Derek").order, 21)
    assert g.report()["days"][0]["about_to_die"] is None
    g.advance(DAY1_END)
    assert g.state.past_days[0].executed is None


def test_a_tie_then_a_higher_nomination_executes_the_higher():
    g = Game(SEVEN)
    g.post("Alex", "/nominate Brianna")
    _vote_all(g, "Brianna", {"Cameron", "Derek", "Ellen", "Fatima"}, g.nomination("Brianna").order)
    g.post("Cameron", "/nominate Derek", 20)
    _vote_all(g, "Derek", {"Ellen", "Fatima", "Gus", "Alex"}, g.nomination("Derek").order, 21)
    g.post("Derek", "/nominate Ellen", 40)
    _vote_all(g, "Ellen", {"Fatima", "Gus", "Alex", "Brianna", "Cameron"},
              g.nomination("Ellen").order, 41)
    assert g.report()["days"][0]["about_to_die"] == "Ellen"
    g.advance(DAY1_END)
    assert g.state.past_days[0].executed == "Ellen"
    assert not g.state.seat("Ellen").alive


def test_a_tie_then_an_equal_nomination_still_executes_nobody():
    g = Game(SEVEN)
    for nominator, nominee, start in (("Alex", "Brianna", 0), ("Cameron", "Derek", 20),
                                      ("Derek", "Ellen", 40)):
        g.post(nominator, f"/nominate {nominee}", start)
        order = g.nomination(nominee).order
        _vote_all(g, nominee, set(order[:4]), order, start + 1)
    assert g.report()["days"][0]["about_to_die"] is None


def test_highest_but_below_threshold_is_not_about_to_die():
    g = Game(SEVEN)
    g.post("Alex", "/nominate Brianna")
    _vote_all(g, "Brianna", {"Cameron", "Derek", "Ellen"}, g.nomination("Brianna").order)
    assert g.report()["days"][0]["about_to_die"] is None


def test_dead_voter_spends_token_on_first_lock_across_concurrent_nominations():
    g = Game(SEVEN, dead=("Gus",))
    g.post("Alex", "/nominate Brianna")   # order: Cameron, Derek, Ellen, Fatima, Gus, ...
    g.post("Brianna", "/nominate Cameron", 1)  # order: Derek, Ellen, Fatima, Gus, ...
    g.post("Gus", "/vote Brianna yes\n/vote Cameron yes", 2)
    for i, voter in enumerate(["Derek", "Ellen", "Fatima"]):
        g.post(voter, "/vote Cameron no", 3 + i)
    cameron = g.nomination("Cameron").locked[-1]
    assert (cameron.player, cameron.vote, cameron.ghost_vote_spent) == ("Gus", "yes", True)
    assert not g.state.seat("Gus").ghost_vote
    for i, voter in enumerate(["Cameron", "Derek", "Ellen", "Fatima"]):
        g.post(voter, "/vote Brianna no", 10 + i)
    brianna = g.nomination("Brianna").locked[-1]
    assert (brianna.player, brianna.vote, brianna.cast) == ("Gus", "no", "yes")
    assert brianna.note.code == "note.no_token_cast"  # the token was spent: a pardon
    assert g.state.today.ghost_votes_spent == ("Gus",)


def test_dead_voter_pardon_never_spends_the_token():
    g = Game(dead=("Ellen",))
    g.post("Alex", "/nominate Brianna")
    g.post("Ellen", "/vote Brianna no", 1)
    g.post("Cameron", "/vote Brianna no", 2)
    g.post("Derek", "/vote Brianna no", 3)
    assert g.locked("Brianna") == [("Cameron", "no"), ("Derek", "no"), ("Ellen", "no")]
    assert g.state.seat("Ellen").ghost_vote


def test_dead_voter_without_token_is_locked_as_pardon_when_the_hand_arrives():
    g = Game(dead=("Cameron",), spent=("Cameron",))
    g.post("Alex", "/nominate Brianna")
    assert g.locked("Brianna") == [("Cameron", "no")]
    g.post("Cameron", "/vote Brianna yes", 1)
    assert g.codes() == ["no_vote_token"]


def test_dead_voter_with_token_holds_the_hand_until_they_vote():
    g = Game(dead=("Cameron",))
    g.post("Alex", "/nominate Brianna")
    g.post("Derek", "/vote Brianna yes", 1)
    assert g.locked("Brianna") == []


def test_end_of_day_locks_remaining_seats_in_clock_order_uncast_is_pardon():
    g = Game()
    g.post("Alex", "/nominate Brianna")
    g.post("Alex", "/vote Brianna yes", 1)
    g.post("Ellen", "/vote Brianna yes", 2)
    g.advance(DAY1_END)
    n = g.nomination("Brianna", day=1)
    assert [(v.player, v.vote, v.cast) for v in n.locked] == [
        ("Cameron", "no", None), ("Derek", "no", None), ("Ellen", "yes", "yes"),
        ("Alex", "yes", "yes"), ("Brianna", "no", None)]
    assert all(v.locked_at == DAY1_END for v in n.locked)
    assert g.state.phase is Phase.NIGHT and g.state.cycle == 2


def test_end_of_day_ghost_vote_goes_to_the_earliest_nomination():
    g = Game(dead=("Ellen",))
    g.post("Alex", "/nominate Brianna")
    g.post("Brianna", "/nominate Cameron", 1)
    g.post("Ellen", "/vote Cameron yes\n/vote Brianna yes", 2)
    g.advance(DAY1_END)
    ellen = {n.nominee: next(v for v in n.locked if v.player == "Ellen")
             for n in g.state.past_days[0].nominations}
    assert ellen["Brianna"].vote == "yes" and ellen["Brianna"].ghost_vote_spent
    assert ellen["Cameron"].vote == "no" and ellen["Cameron"].cast == "yes"


def test_death_mid_day_changes_n_and_the_dead_players_later_locks():
    g = Game(SEVEN)
    g.post("Alex", "/nominate Brianna")
    assert g.report()["days"][0]["nominations"][0]["threshold"] == 4
    g.post("Fatima", "/vote Brianna yes", 1)
    at = NOMINATIONS1 + timedelta(minutes=2)
    outcome = act(g.state, Kill("Fatima"), Context("nightingale", at))
    g.run.state = outcome.state
    assert g.report()["days"][0]["nominations"][0]["threshold"] == 4  # 6 living: 6//2+1
    for i, voter in enumerate(["Cameron", "Derek", "Ellen"]):
        g.post(voter, "/vote Brianna yes", 3 + i)
    fatima = g.nomination("Brianna").locked[3]
    assert (fatima.player, fatima.vote, fatima.ghost_vote_spent) == ("Fatima", "yes", True)
    for i, voter in enumerate(["Gus", "Alex", "Brianna"]):
        g.post(voter, "/vote Brianna no", 10 + i)
    n = g.nomination("Brianna")
    assert (n.yes, n.living_at_close, n.threshold_at_close) == (4, 6, 4)


def test_traveller_counts_in_n_only_under_official():
    for profile, expected in ((Profile.BOTF, 3), (Profile.OFFICIAL, 3)):
        g = Game(SEVEN[:6], travellers=("Fatima",), profile=profile)
        g.post("Alex", "/nominate Brianna")
        # BotF: 5 residents -> 3. Official: 6 players -> ceil(6/2) = 3.
        assert g.report()["days"][0]["nominations"][0]["threshold"] == expected
    g = Game(SEVEN, travellers=("Gus",), profile=Profile.BOTF)
    g.post("Alex", "/nominate Brianna")
    assert g.report()["days"][0]["nominations"][0]["threshold"] == 4  # 6 residents
    g = Game(SEVEN, travellers=("Gus",), profile=Profile.OFFICIAL)
    g.post("Alex", "/nominate Brianna")
    assert g.report()["days"][0]["nominations"][0]["threshold"] == 4  # ceil(7/2)


def test_exile_is_separate_from_nominations_and_needs_more_than_half_of_everyone():
    g = Game(SEVEN, travellers=("Gus",), dead=("Fatima",), spent=("Fatima",))
    g.post("Alex", "/exile Gus", -60 * 6)  # discussion: any time of day
    g.post("Alex", "/nominate Brianna", 1)  # the exile call did not use Alex's nomination
    assert g.nomination("Brianna") is not None
    order = g.nomination("Gus").order  # Alex, Brianna, ..., Gus
    yes = {"Alex", "Brianna", "Cameron", "Fatima"}  # Fatima is dead without token: still votes
    for i, voter in enumerate(order):
        g.post(voter, f"/vote Gus {'yes' if voter in yes else 'no'}", 2 + i)
    exile = g.nomination("Gus")
    assert not exile.is_open and exile.yes == 4 and exile.threshold_at_close == 4
    assert not g.state.seat("Gus").alive
    assert g.state.seat("Fatima").ghost_vote is False  # untouched: already spent
    assert g.state.today.executed is None


def test_exile_fails_with_exactly_half_under_botf_but_passes_under_official():
    for profile, exiled in ((Profile.BOTF, False), (Profile.OFFICIAL, True)):
        g = Game(SEVEN[:6], travellers=("Fatima",), profile=profile)
        g.post("Alex", "/exile Fatima")
        order = g.nomination("Fatima").order
        for i, voter in enumerate(order):
            g.post(voter, f"/vote Fatima {'yes' if i < 3 else 'no'}", 1 + i)
        assert g.state.seat("Fatima").alive is not exiled


def test_exile_vote_never_spends_a_ghost_token():
    g = Game(SEVEN, travellers=("Gus",), dead=("Alex",))
    g.post("Brianna", "/exile Gus")
    g.post("Alex", "/vote Gus yes", 1)
    assert g.locked("Gus") == [("Alex", "yes")]
    assert g.state.seat("Alex").ghost_vote


def test_travellers_cannot_be_nominated_and_non_travellers_cannot_be_exiled():
    g = Game(SEVEN, travellers=("Gus",))
    g.post("Alex", "/nominate Gus")
    g.post("Alex", "/exile Brianna", 1)
    assert g.codes() == ["traveller_cannot_be_nominated", "not_a_traveller"]


def test_day_ends_early_when_every_vote_is_locked_in_the_voting_window():
    g = Game()
    g.post("Alex", "/nominate Brianna")
    for i, voter in enumerate(["Cameron", "Derek", "Ellen", "Alex"]):
        g.post(voter, "/vote Brianna yes", i + 1)
    assert g.state.phase is Phase.NOMINATION  # more nominations could still come
    g.voting("Brianna", "/vote Brianna yes", 30)
    assert g.state.phase is Phase.NIGHT
    assert g.state.past_days[0].executed == "Brianna"
    assert g.state.past_days[0].ended_at == VOTING1 + timedelta(minutes=30)


def test_all_locked_before_voting_window_ends_the_day_when_it_opens():
    g = Game()
    g.post("Alex", "/nominate Brianna")
    for i, voter in enumerate(["Cameron", "Derek", "Ellen", "Alex", "Brianna"]):
        g.post(voter, "/vote Brianna no", i + 1)
    g.advance(VOTING1)
    assert g.state.past_days[0].ended_at == VOTING1 and g.state.past_days[0].executed is None


def test_mathematically_decided_is_reported():
    g = Game(SEVEN)
    g.post("Alex", "/nominate Brianna")
    _vote_all(g, "Brianna", set(SEVEN[2:7]), g.nomination("Brianna").order)  # 5 yes
    g.post("Brianna", "/nominate Cameron", 30)
    for i, voter in enumerate(["Derek", "Ellen", "Fatima"]):
        g.voting(voter, "/vote Cameron no", 1 + i)
    assert g.report()["days"][0]["decided"] is True  # at most 4 more: cannot reach 5
    assert g.state.phase is Phase.VOTING


def test_not_decided_while_a_tie_is_still_possible():
    g = Game(SEVEN)
    g.post("Alex", "/nominate Brianna")
    _vote_all(g, "Brianna", set(SEVEN[2:6]), g.nomination("Brianna").order)  # 4 yes
    g.post("Brianna", "/nominate Cameron", 30)
    g.voting("Derek", "/vote Cameron no", 1)
    assert g.report()["days"][0]["decided"] is False


def test_open_nomination_view_shows_needed_to_execute_and_to_tie():
    g = Game(SEVEN)
    g.post("Alex", "/nominate Brianna")
    _vote_all(g, "Brianna", set(SEVEN[2:7]), g.nomination("Brianna").order)  # 5 yes
    g.post("Brianna", "/nominate Cameron", 30)
    view = g.report()["days"][0]["nominations"][1]
    assert (view["needed_to_execute"], view["needed_to_tie"]) == (6, 5)
    assert view["hand"] == "Derek" and view["status"] == "open"


def test_an_open_nomination_whose_locked_votes_decide_it_is_about_to_die_already():
    """The BotF rules: "If the count of votes to execute is more than half of the number of
    living players ... and is the highest count of votes against any player that day, the
    accused will be considered 'about to die'." Locked votes cannot go down: with 3 of 5
    locked to execute and nothing else open or closed, Derek is about to die while two seats
    still have to lock (issue 25); the execution at the day's end is unchanged."""
    from modbot.core import about_to_die, about_to_die_now
    g = Game()
    g.post("Alex", "/nominate Derek")
    for minute, voter in enumerate(("Ellen", "Alex", "Brianna"), start=1):
        g.post(voter, "/vote Derek yes", minute)
    day = g.state.today
    assert g.nomination("Derek").is_open and g.nomination("Derek").yes == 3
    assert about_to_die(day) is None and about_to_die_now(g.state, day) == "Derek"


def test_an_open_leader_that_another_open_nomination_could_still_beat_is_not_about_to_die():
    from modbot.core import about_to_die_now
    g = Game(players=("Alex", "Brianna", "Cameron", "Derek", "Ellen", "Fatima", "Gus"))
    g.post("Alex", "/nominate Derek")
    g.post("Brianna", "/nominate Cameron", 1)
    for minute, voter in enumerate(("Ellen", "Fatima", "Gus", "Alex"), start=2):
        g.post(voter, "/vote Derek yes", minute)
    assert g.nomination("Derek").yes == 4  # 4 of 7: the threshold
    assert about_to_die_now(g.state, g.state.today) is None  # Cameron's could still reach 5+


def test_an_open_leader_short_of_about_to_die_is_shown_as_leading_so_far():
    """Seed 001's "about to die" needs the highest count; a leader that another open
    nomination could still beat is shown as leading so far (display only, issue 25)."""
    from modbot.core import about_to_die_now, leading_so_far
    g = Game(players=("Alex", "Brianna", "Cameron", "Derek", "Ellen", "Fatima", "Gus"))
    g.post("Alex", "/nominate Derek")
    g.post("Brianna", "/nominate Cameron", 1)
    assert leading_so_far(g.state, g.state.today) is None  # nobody reaches the threshold yet
    for minute, voter in enumerate(("Ellen", "Fatima", "Gus", "Alex"), start=2):
        g.post(voter, "/vote Derek yes", minute)
    assert leading_so_far(g.state, g.state.today) == "Derek"
    assert about_to_die_now(g.state, g.state.today) is None
