"""Storyteller commands as conversations: ST posts in, events and the ST's report out."""

from datetime import timedelta

import pytest

from modbot.core.commands import COMMANDS, parse_line
from modbot.core.events import (
    Executed, GhostVoteChanged, NominationCancelled, PhaseExtended, PlayerDied, VoteCountRequested,
)
from modbot.core.model import Phase

from .helpers import DAY1, NOMINATIONS1, VOTING1, Game

ST = "nightingale"
SEVEN = ("Alex", "Brianna", "Cameron", "Derek", "Ellen", "Fatima", "Gus")


def st(g: Game, raw: str, minutes: float = 0, base=NOMINATIONS1):
    return g.post(ST, raw, minutes, base=base)


def test_kill_asks_for_confirmation_then_confirm_applies_it():
    g = Game()
    outcome = st(g, "!kill Derek demon kill")
    assert outcome.command.to_confirm == (("!kill Derek demon kill",
                                           "Derek dies now (not an execution)"),)
    assert g.state.seat("Derek").alive
    outcome = st(g, "!confirm", 5)
    assert outcome.command.applied == ("!kill Derek demon kill",)
    assert any(isinstance(e, PlayerDied) and e.cause == "demon kill" for e in outcome.events)
    assert not g.state.seat("Derek").alive and g.state.pending == ()


def test_confirmation_expires_after_ten_minutes():
    g = Game()
    st(g, "!kill Derek")
    outcome = st(g, "!confirm", 11)
    assert outcome.command.failed[0][0] == "!confirm" and g.state.seat("Derek").alive


def test_yes_suffix_confirms_in_advance():
    g = Game()
    outcome = st(g, "!kill Derek --yes")
    assert outcome.command.applied == ("!kill Derek",) or outcome.command.applied == (
        "!kill Derek --yes",)
    assert not g.state.seat("Derek").alive


def test_several_commands_are_all_or_nothing():
    g = Game(SEVEN, dead=("Gus",), spent=("Gus",))
    outcome = st(g, "!ghostvote Gus give\n!revive Alex --yes")  # Alex is alive: refused
    assert outcome.command.failed == (("!revive Alex --yes", "Alex is alive."),)
    assert not any(isinstance(e, GhostVoteChanged) for e in outcome.events)
    assert not g.state.seat("Gus").ghost_vote
    outcome = st(g, "!ghostvote Gus give\n!nobody here", 1)
    assert outcome.command.failed[0][1].startswith("unknown command !nobody")
    assert not g.state.seat("Gus").ghost_vote
    st(g, "!ghostvote Gus give", 2)
    assert g.state.seat("Gus").ghost_vote


def test_players_commands_and_quoted_commands_do_nothing():
    g = Game()
    outcome = g.post("Alex", "!kill Derek --yes")
    assert outcome.command is None and g.state.seat("Derek").alive
    outcome = st(g, '[quote="Alex, post:1, topic:1"]\n!kill Derek --yes\n[/quote]\nNo.', 1)
    assert outcome.command is None and g.state.seat("Derek").alive


def test_storyteller_records_a_late_nomination_and_a_pm_vote_under_the_clock():
    g = Game()
    st(g, "!nominate Alex Brianna", 60 * 13)  # in the voting window: late, recorded
    nomination = g.nomination("Brianna")
    assert nomination.nominator == "Alex" and nomination.order[0] == "Cameron"
    st(g, "!vote Derek yes on Brianna", 60 * 13 + 1)
    assert g.nomination("Brianna").cast["Derek"].value == "yes"
    assert g.locked("Brianna") == []  # Cameron has not voted: Derek's vote waits
    g.voting("Cameron", "/vote Brianna no", 62)
    assert g.locked("Brianna") == [("Cameron", "no"), ("Derek", "yes")]
    outcome = st(g, "!nominate Alex Cameron", 60 * 13 + 5)
    assert outcome.command.failed[0][1] == "You have already nominated today (Alex)."


def test_cancel_nomination_frees_limits_and_refunds_tokens():
    g = Game(dead=("Cameron",))
    g.post("Alex", "/nominate Brianna")
    g.post("Cameron", "/vote Brianna yes", 1)
    assert not g.state.seat("Cameron").ghost_vote
    outcome = st(g, "!cancel nomination Brianna", 2)
    assert any(isinstance(e, NominationCancelled) for e in outcome.events)
    assert g.state.seat("Cameron").ghost_vote and g.state.today.nominations == ()
    g.post("Alex", "/nominate Brianna", 3)  # both limits are free again
    assert g.nomination("Brianna").nominator == "Alex"


def test_extend_and_phase_next():
    g = Game()
    st(g, "!extend 2h", base=DAY1)
    assert g.state.phase_ends_at == NOMINATIONS1 + timedelta(hours=2)
    g.post("Alex", "/nominate Brianna", 30)  # still discussion: the deadline moved
    assert g.codes() == ["wrong_phase"]
    outcome = st(g, "!phase next", 31)
    assert g.state.phase is Phase.NOMINATION
    assert any(isinstance(e, PhaseExtended) for e in outcome.events)


def test_endvoting_is_refused_until_decided_unless_forced_with_a_reason():
    g = Game()
    g.post("Alex", "/nominate Brianna")
    g.voting("Cameron", "/vote Brianna yes", 1)
    outcome = st(g, "!endvoting", 2, base=VOTING1)
    assert "not decided" in outcome.command.failed[0][1]
    outcome = st(g, "!endvoting force", 3, base=VOTING1)
    assert "needs a reason" in outcome.command.failed[0][1]
    outcome = st(g, "!endvoting force everyone asked for it", 4, base=VOTING1)
    assert g.state.phase is Phase.NIGHT and g.state.past_days[0].executed is None


def test_endday_says_exactly_what_will_happen_before_it_does():
    g = Game()
    g.post("Alex", "/nominate Brianna")
    for i, voter in enumerate(["Cameron", "Derek", "Ellen"]):
        g.post(voter, "/vote Brianna yes", 1 + i)
    outcome = st(g, "!endday", 10)
    (line, what), = outcome.command.to_confirm
    assert "Brianna is executed with 3 execute votes" in what
    assert g.state.phase is Phase.NOMINATION
    outcome = st(g, "!confirm", 11)
    assert any(isinstance(e, Executed) and e.player == "Brianna" for e in outcome.events)
    assert g.state.phase is Phase.NIGHT and g.state.cycle == 2


def test_endday_from_discussion_skips_the_rest_of_the_day():
    g = Game()
    st(g, "!endday --yes", 5, base=DAY1)
    assert g.state.phase is Phase.NIGHT and g.state.past_days[0].executed is None


def test_vc_and_help():
    g = Game()
    outcome = st(g, "!vc\n!help")
    assert any(isinstance(e, VoteCountRequested) for e in outcome.events)
    assert [row["usage"] for row in outcome.command.help] == [c.usage for c in COMMANDS.values()]
    assert st(g, "!help vote", 1).command.help[0]["usage"] == "!vote VOTER yes|no on NOMINEE"


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_has_an_example_that_parses(command):
    line = COMMANDS[command].example
    from .helpers import setup
    parsed = parse_line(line, setup(SEVEN).roster)
    assert not hasattr(parsed, "message"), parsed


def test_every_command_is_in_the_storyteller_guide():
    from pathlib import Path
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    for command in COMMANDS.values():
        assert command.usage in readme and command.example in readme, command.name


def test_execute_ends_the_day_with_that_execution():
    g = Game()
    g.post("Alex", "/nominate Brianna")
    outcome = st(g, "!execute Derek", 5)
    assert outcome.command.to_confirm[0][1] == "Derek is executed now and day 1 ends"
    st(g, "!confirm", 6)
    day = g.state.past_days[0]
    assert day.executed == "Derek" and not g.state.seat("Derek").alive
    assert g.state.phase is Phase.NIGHT and not day.nominations[0].is_open


def test_exile_needs_a_living_traveller():
    g = Game(SEVEN, travellers=("Gus",))
    assert "not a traveller" in st(g, "!exile Alex --yes").command.failed[0][1]
    st(g, "!exile Gus --yes", 1)
    assert not g.state.seat("Gus").alive and g.state.today.executed is None


def test_pause_stops_the_clock_and_resume_shifts_every_deadline():
    g = Game()
    st(g, "!pause", 60 * 11)  # an hour before nominations close
    g.post("Alex", "/nominate Brianna", 60 * 14)  # hours later: still the nomination window
    assert g.nomination("Brianna") is not None and g.state.phase is Phase.NOMINATION
    assert "paused" in st(g, "!phase next", 60 * 14 + 1).command.failed[0][1]
    st(g, "!resume", 60 * 15)
    assert g.state.phase_ends_at == VOTING1 + timedelta(hours=4)
    assert "not paused" in st(g, "!resume", 60 * 15 + 1).command.failed[0][1]
