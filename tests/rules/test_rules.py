"""Nomination rules, phases and the schedule, and who may act."""

from datetime import timedelta

import pytest

from modbot.core.deciding.activity import ACTIVITY
from modbot.core.state.model import Phase

from ..helpers import DAY1, DAY1_END, NOMINATIONS1, START, VOTING1, Game


@pytest.mark.parametrize("at, label", [
    (START - timedelta(minutes=1), "pregame"),
    (START, "night 1"),
    (DAY1, "day 1 discussion"),
    (NOMINATIONS1, "day 1 nomination"),
    (VOTING1, "day 1 voting"),
    (DAY1_END - timedelta(seconds=1), "day 1 voting"),
    (DAY1_END, "night 2"),
    (DAY1_END + timedelta(hours=24), "day 2 discussion"),
])
def test_schedule_starts_with_night_1_then_discussion_nomination_voting(at, label):
    g = Game()
    g.advance(at)
    assert g.state.phase_label == label


@pytest.mark.parametrize("minutes, code", [
    (-60 * 12 - 1, "wrong_phase"),  # night
    (-1, "wrong_phase"),  # discussion
    (60 * 12, "wrong_phase"),  # voting
])
def test_nominations_only_in_the_nomination_window(minutes, code):
    g = Game()
    g.post("Alex", "/nominate Brianna", minutes)
    assert g.codes() == [code]
    assert not g.state.today or not g.state.today.nominations


def test_one_nomination_per_nominator_and_per_nominee_each_day():
    g = Game()
    g.post("Alex", "/nominate Brianna")
    g.post("Alex", "/nominate Cameron", 1)
    g.post("Cameron", "/nominate Brianna", 2)
    g.post("Cameron", "/nominate Derek", 3)
    assert g.codes() == ["nominator_already_used", "already_nominated"]
    assert [n.nominee for n in g.state.today.nominations] == ["Brianna", "Derek"]


def test_limits_reset_the_next_day():
    g = Game()
    g.post("Alex", "/nominate Brianna")
    g.advance(DAY1_END)
    g.post("Alex", "/nominate Brianna", 0, base=NOMINATIONS1 + timedelta(hours=72))
    assert g.codes() == []
    assert g.state.today.number == 2 and g.state.today.nominations[0].nominee == "Brianna"


def test_dead_cannot_nominate_but_can_be_nominated_and_self_nomination_is_allowed():
    g = Game(dead=("Derek",))
    g.post("Derek", "/nominate Alex")
    g.post("Alex", "/nominate Derek", 1)
    g.post("Ellen", "/nominate Ellen", 2)
    assert g.codes() == ["dead_cannot_nominate"]
    assert [n.nominee for n in g.state.today.nominations] == ["Derek", "Ellen"]


def test_votes_only_on_open_nominations_in_nomination_and_voting_windows():
    g = Game()
    g.post("Alex", "/vote Brianna", -5)  # discussion
    g.post("Alex", "/nominate Brianna", 0)
    g.post("Cameron", "/vote Derek", 1)  # Derek not nominated
    g.voting("Derek", "/vote Brianna yes", 1)  # voting window: fine
    assert g.codes() == ["wrong_phase", "not_nominated"]
    assert "Derek" in g.nomination("Brianna").cast


def test_votes_on_closed_nomination_are_rejected():
    g = Game()
    g.post("Alex", "/nominate Brianna")
    for i, voter in enumerate(["Cameron", "Derek", "Ellen", "Alex", "Brianna"]):
        g.post(voter, "/vote Brianna no", i + 1)
    g.post("Alex", "/vote Brianna yes", 10)
    assert g.codes() == ["nomination_closed"]


def test_unvote_forms():
    g = Game()
    g.post("Alex", "/nominate Brianna")
    g.post("Brianna", "/nominate Cameron", 1)
    g.post("Ellen", "/vote Brianna\n/vote Cameron", 2)
    g.post("Ellen", "/unvote Cameron", 3)
    assert "Ellen" in g.nomination("Brianna").cast and "Ellen" not in g.nomination("Cameron").cast
    g.post("Ellen", "[unvote][/unvote]", 4)
    assert "Ellen" not in g.nomination("Brianna").cast
    g.post("Ellen", "/unvote", 5)
    assert g.codes() == ["nothing_to_withdraw"]
    g.post("Ellen", "/unvote Cameron", 6)
    assert g.codes() == ["nothing_to_withdraw", "nothing_to_withdraw_on"]  # named, as a code's value
    assert [r.params for rs in g.run.rejections.values() for r in rs][-1] == {"nominee": "Cameron"}


def test_storyteller_and_bot_posts_are_not_player_actions():
    g = Game(bot_username="modbot")
    g.post("nightingale", "/nominate Brianna")
    g.post("ModBot", "/nominate Brianna")
    assert g.codes() == [] and g.state.today.nominations == ()


def test_non_players_are_told_they_are_not_seated():
    g = Game()
    g.post("lurker", "/nominate Brianna")
    g.post("lurker", "just chatting")
    assert g.codes() == ["not_a_player"]


def test_rejected_action_leaves_state_unchanged():
    g = Game()
    g.post("Alex", "/nominate Brianna")
    before = g.state
    outcome = g.post("Alex", "/nominate Cameron", 1)
    assert [type(e).__name__ for e in outcome.events] == ["PlayerPosted"]
    # the post itself is remembered (the player spoke: deciding/activity.py), nothing else
    assert ACTIVITY.put(g.state, ACTIVITY.of(before)) == before
    assert dict(ACTIVITY.of(g.state).last_posted)["Alex"] > dict(ACTIVITY.of(before).last_posted)["Alex"]


def test_several_actions_in_one_post_run_in_document_order():
    g = Game()
    g.post("Alex", "/nominate Brianna\n/vote Brianna no\n/unvote\n/vote Brianna yes")
    assert g.nomination("Brianna").cast["Alex"].value == "yes"


def test_whisper_request_accept_and_decline():
    g = Game()
    g.post("Alex", "/whisper Brianna Cameron", -100)
    g.post("Brianna", "/accept", -99)
    g.post("Cameron", "/decline @Alex", -98)
    g.post("Derek", "/accept", -97)
    g.post("Derek", "/whisper Derek", -96)
    g.post("Ellen", "/whisper Storyteller", -95)
    w = g.state.today.whispers[0]
    assert (w.accepted, w.declined) == ({"Brianna"}, {"Cameron"})
    assert g.codes() == ["no_pending_whisper", "self_whisper"]
    assert g.state.today.consults == ("Ellen",)


def test_accept_without_a_name_is_ambiguous_with_two_pending_requests():
    g = Game()
    g.post("Alex", "/whisper Ellen", -100)
    g.post("Brianna", "/whisper Ellen", -99)
    g.post("Ellen", "/accept", -98)
    g.post("Ellen", "/accept Brianna", -97)
    assert g.codes() == ["ambiguous_whisper"]
    assert g.state.today.whispers[1].accepted == {"Ellen"}


def test_skip_nomination_is_recorded_once_and_not_after_nominating():
    g = Game()
    g.post("Alex", "/skip", -10)
    g.post("Alex", "I am not nominating today", -9)
    g.post("Brianna", "/nominate Cameron", 0)
    g.post("Brianna", "/skip", 1)
    assert g.state.today.skipped == ("Alex",)
    assert g.codes() == ["nominator_already_used"]


def test_parse_rejections_reach_the_player_with_candidates():
    g = Game(("Alex", "Albert", "Brianna", "Cameron", "Derek"))
    g.post("Brianna", "/nominate Al")
    (rejection,) = g.run.rejections[1]
    assert rejection.code == "ambiguous" and rejection.params["candidates"] == ["Alex", "Albert"]


def test_phase_times_come_from_posts_not_from_reading_time():
    g = Game()
    g.post("Alex", "/nominate Brianna", 60 * 11 + 59)  # 11:59 into the window: accepted
    g.post("Cameron", "/nominate Derek", 60 * 12)  # exactly at the close: voting window
    assert [n.nominee for n in g.state.today.nominations] == ["Brianna"]
    assert g.codes() == ["wrong_phase"]
    assert g.state.phase is Phase.VOTING


def test_a_whisper_breaks_when_either_player_posts_publicly_after_accepting():
    g = Game()
    g.post("Alex", "/whisper Brianna", -100)
    g.post("Alex", "Still waiting for Brianna.", -99)  # not accepted yet: nothing to break
    g.post("Brianna", "/accept\nSure.", -98)  # the accepting post does not break it
    (w,) = g.state.today.whispers
    assert w.is_active and w.active_since == 3
    outcome = g.post("Brianna", "Back in the thread.", -97)
    (w,) = g.state.today.whispers
    assert (w.is_active, w.broken_by) == (False, "Brianna")
    assert [type(e).__name__ for e in outcome.events] == ["PlayerPosted", "WhisperBroken"]
    g.post("Alex", "More talk.", -96)  # already broken: no second event
    assert g.state.today.whispers[0].broken_by == "Brianna"


def test_whispers_beyond_the_daily_limit_are_recorded_and_flagged():
    g = Game(whispers_per_day=1)
    g.post("Alex", "/whisper Brianna", -100)
    outcome = g.post("Alex", "/whisper Cameron", -99)
    assert len(g.state.today.whispers) == 2
    flag = [e for e in outcome.events if type(e).__name__ == "WhisperLimitExceeded"]
    assert (flag[0].player, flag[0].count, flag[0].limit) == ("Alex", 2, 1)
