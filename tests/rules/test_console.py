"""Storyteller commands as conversations: ST posts in, events and the ST's report out."""

from datetime import timedelta

import pytest

from modbot.core.command_line import parse_line
from modbot.core.registry import COMMANDS
from modbot.core.state.events import Executed, PlayerDied
from modbot.core.state.model import Phase
from modbot.core.state.staff_events import (
    GhostVoteChanged,
    NominationCancelled,
    PhaseExtended,
    VoteCountRequested,
)
from modbot.core.wording import say

from ..helpers import DAY1, NOMINATIONS1, VOTING1, Game
from ..notices import says

ST = "nightingale"
SEVEN = ("Alex", "Brianna", "Cameron", "Derek", "Ellen", "Fatima", "Gus")


def st(g: Game, raw: str, minutes: float = 0, base=NOMINATIONS1):
    return g.post(ST, raw, minutes, base=base)


def test_kill_asks_for_confirmation_then_confirm_applies_it():
    g = Game()
    outcome = st(g, "!kill Derek demon kill")
    assert coded(outcome.command.to_confirm) == (("!kill Derek demon kill", ["confirm.kill"]),)
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


def test_a_rehearsals_shortest_window_keeps_a_confirmation_a_real_minute():
    """`modbot rehearse` at 60x sets `shortest_window` to 60 forum minutes (one real minute):
    a confirmation lasts that long, and says so when it has lapsed."""
    g = Game(shortest_window=timedelta(minutes=60))
    st(g, "!kill Derek")
    st(g, "!confirm", 50)
    assert not g.state.seat("Derek").alive
    st(g, "!kill Ellen", 51)
    outcome = st(g, "!confirm", 112)
    assert outcome.command.failed[0][1] == say("console.nothing_to_confirm", minutes=60)
    assert g.state.seat("Ellen").alive


def test_yes_suffix_confirms_in_advance():
    g = Game()
    outcome = st(g, "!kill Derek --yes")
    assert outcome.command.applied == ("!kill Derek",) or outcome.command.applied == (
        "!kill Derek --yes",)
    assert not g.state.seat("Derek").alive


def test_several_commands_are_all_or_nothing():
    g = Game(SEVEN, dead=("Gus",), spent=("Gus",))
    outcome = st(g, "!ghostvote Gus give\n!revive Alex --yes")  # Alex is alive: refused
    assert coded(outcome.command.failed) == (("!revive Alex --yes", ["rejection.player_alive"]),)
    assert not any(isinstance(e, GhostVoteChanged) for e in outcome.events)
    assert not g.state.seat("Gus").ghost_vote
    outcome = st(g, "!ghostvote Gus give\n!nobody here", 1)
    assert outcome.command.failed[0][1] == say("command.unknown", name="nobody")
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
    assert outcome.command.failed[0][1] == (say("rejection.nominator_already_used",
                                                 nominee="Alex"),)


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
    assert codes(outcome.command.failed[0][1]) == ["rejection.not_decided"]
    outcome = st(g, "!endvoting force", 3, base=VOTING1)
    assert codes(outcome.command.failed[0][1]) == ["rejection.force_needs_reason"]
    outcome = st(g, "!endvoting force everyone asked for it", 4, base=VOTING1)
    assert g.state.phase is Phase.NIGHT and g.state.past_days[0].executed is None


def test_endday_says_exactly_what_will_happen_before_it_does():
    g = Game()
    g.post("Alex", "/nominate Brianna")
    for i, voter in enumerate(["Cameron", "Derek", "Ellen"]):
        g.post(voter, "/vote Brianna yes", 1 + i)
    outcome = st(g, "!endday", 10)
    (_line, what), = outcome.command.to_confirm
    assert what == say("confirm.end_day_executing", day=1, player="Brianna", votes=3)
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
    assert sorted(row["usage"] for row in outcome.command.help) == \
        sorted(c.usage for c in COMMANDS.values())
    assert outcome.command.help[0]["usage"] == "!kill PLAYER [reason]"
    assert st(g, "!help vote", 1).command.help[0]["usage"] == "!vote VOTER yes|no on NOMINEE"


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_has_an_example_that_parses(command):
    line = COMMANDS[command].example
    from ..helpers import setup
    parsed = parse_line(line, setup(SEVEN).roster)
    assert not hasattr(parsed, "message"), parsed


def test_execute_ends_the_day_with_that_execution():
    g = Game()
    g.post("Alex", "/nominate Brianna")
    outcome = st(g, "!execute Derek", 5)
    assert outcome.command.to_confirm[0][1] == say("confirm.execute", day=1, player="Derek")
    st(g, "!confirm", 6)
    day = g.state.past_days[0]
    assert day.executed == "Derek" and not g.state.seat("Derek").alive
    assert g.state.phase is Phase.NIGHT and not day.nominations[0].is_open


def test_exile_needs_a_living_traveller():
    g = Game(SEVEN, travellers=("Gus",))
    assert codes(st(g, "!exile Alex --yes").command.failed[0][1]) == ["rejection.not_a_traveller"]
    st(g, "!exile Gus --yes", 1)
    assert not g.state.seat("Gus").alive and g.state.today.executed is None


def test_pause_stops_the_clock_and_resume_shifts_every_deadline():
    g = Game()
    st(g, "!pause", 60 * 11)  # an hour before nominations close
    g.post("Alex", "/nominate Brianna", 60 * 14)  # hours later: still the nomination window
    assert g.nomination("Brianna") is not None and g.state.phase is Phase.NOMINATION
    assert codes(st(g, "!phase next", 60 * 14 + 1).command.failed[0][1]) == ["rejection.paused"]
    st(g, "!resume", 60 * 15)
    assert g.state.phase_ends_at == VOTING1 + timedelta(hours=4)
    assert codes(st(g, "!resume", 60 * 15 + 1).command.failed[0][1]) == ["rejection.not_paused"]


def test_grimoire_commands_record_private_facts():
    g = Game()
    outcome = st(g, "!character Derek imp\n!alignment Derek evil\n!poison Alex\n!drunk Alex\n"
                    "!mad Brianna mutant\n!reminder Ellen protected by the monk\n"
                    "!reminder Ellen second note")
    assert outcome.command.applied and g.state.grimoire_of("Derek").character == "imp"
    alex = g.state.grimoire_of("Alex")
    assert (alex.poisoned, alex.drunk) == (True, True)
    st(g, "!heal Alex", 1)
    alex = g.state.grimoire_of("Alex")
    assert (alex.poisoned, alex.drunk) == (False, False)
    assert g.state.grimoire_of("Ellen").reminders == ("protected by the monk", "second note")
    assert g.state.grimoire_of("Brianna").mad_as == "mutant"
    bad = st(g, "!alignment Derek chaotic", 2).command.failed[0][1]
    assert bad.code == "command.bad" and bad.param("why") == say("command.one_of",
                                                                  choices="good or evil")


def test_win_ends_the_game_and_players_can_no_longer_act():
    g = Game()
    outcome = st(g, "!win good the demon was executed")
    assert outcome.command.to_confirm[0][1] == say("confirm.win", winner="good")
    st(g, "!confirm", 1)
    assert g.state.winner == "good"
    g.post("Alex", "/nominate Brianna", 2)
    assert g.codes() == ["game_over"]
    g.advance(NOMINATIONS1 + timedelta(days=5))
    assert g.state.phase is Phase.NOMINATION  # the clock stopped with the game


def test_setvote_corrects_a_locked_vote_and_the_count():
    g = Game()
    g.post("Alex", "/nominate Brianna")
    g.post("Cameron", "/vote Brianna yes", 1)
    assert g.nomination("Brianna").yes == 1
    st(g, "!setvote Cameron no on Brianna", 2)
    (locked,) = g.nomination("Brianna").locked
    assert (locked.vote, locked.note.code) == ("no", "note.set_by_st")
    assert g.nomination("Brianna").yes == 0
    st(g, "!setvote Ellen yes on Brianna", 3)  # not locked yet: cast for Ellen
    assert g.nomination("Brianna").cast["Ellen"].value == "yes"


def test_lock_only_at_the_hand_and_unlock_reopens_seats():
    g = Game(dead=("Derek",))
    g.post("Alex", "/nominate Brianna")
    assert codes(st(g, "!lock Ellen on Brianna", 1).command.failed[0][1]) == [
        "rejection.not_at_hand"]
    st(g, "!lock Cameron on Brianna", 2)  # Cameron has not voted: pardon
    assert g.locked("Brianna") == [("Cameron", "no")]
    g.post("Derek", "/vote Brianna yes", 3)  # a ghost vote, locked at once
    assert g.locked("Brianna") == [("Cameron", "no"), ("Derek", "yes")]
    assert not g.state.seat("Derek").ghost_vote
    st(g, "!unlock Cameron on Brianna", 4)
    assert g.locked("Brianna") == [] and g.nomination("Brianna").cast == {}
    assert g.state.seat("Derek").ghost_vote  # the token came back


def test_alias_lets_players_use_a_new_name():
    g = Game()
    st(g, "!alias Brianna Bree", base=DAY1)
    g.post("Alex", "/nominate Bree")
    assert g.nomination("Brianna") is not None
    assert codes(st(g, "!alias Derek alex", 1).command.failed[0][1]) == ["rejection.name_taken"]
    assert codes(st(g, "!sub Derek nightingale --yes", 2).command.failed[0][1]) == [
        "rejection.name_of_storyteller"]


def test_seat_shows_and_reorders_before_the_game_only():
    from ..helpers import START
    g = Game()
    before = START - timedelta(hours=1)
    outcome = st(g, "!seat", base=before)
    assert outcome.command.seats == FIVE_SEATS
    outcome = st(g, "!seat Ellen Derek Cameron Brianna Alex", 1, base=before)
    assert outcome.command.seats == ("Ellen", "Derek", "Cameron", "Brianna", "Alex")
    assert g.state.setup.clock_order("Derek") == ("Cameron", "Brianna", "Alex", "Ellen", "Derek")
    assert codes(st(g, "!seat Ellen Derek", 2, base=before).command.failed[0][1]) == [
        "rejection.seats_must_match"]
    assert codes(st(g, "!seat Alex Brianna Cameron Derek Ellen").command.failed[0][1]) == [
        "rejection.seats_fixed"]


FIVE_SEATS = ("Alex", "Brianna", "Cameron", "Derek", "Ellen")


def test_sub_keeps_seat_votes_and_history_and_the_old_name_resolves():
    g = Game(dead=("Derek",))
    g.post("Alex", "/nominate Brianna")
    g.post("Derek", "/vote Brianna yes", 1)  # precast ghost vote, waits for Cameron
    st(g, "!character Derek imp\n!sub Derek Dmitri --yes", 2)
    assert [s.name for s in g.state.seats] == ["Alex", "Brianna", "Cameron", "Dmitri", "Ellen"]
    assert g.state.seat("Dmitri").alive is False and g.state.seat("Dmitri").ghost_vote
    assert g.state.grimoire_of("Dmitri").character == "imp"
    assert g.nomination("Brianna").cast["Dmitri"].value == "yes"
    g.post("Cameron", "/vote Brianna no", 3)
    assert g.locked("Brianna") == [("Cameron", "no"), ("Dmitri", "yes")]
    g.post("Ellen", "/nominate derek", 4)  # the old name still resolves to the seat
    assert g.nomination("Dmitri").nominator == "Ellen"
    g.post("Derek", "/vote Brianna no", 5)  # the old account no longer plays
    assert g.codes()[-1] == "not_a_player"


def test_revive_brings_a_dead_player_back():
    g = Game(dead=("Derek",))
    outcome = st(g, "!revive Derek")
    assert coded(outcome.command.to_confirm) == (("!revive Derek", ["confirm.revive"]),)
    st(g, "!confirm", 1)
    assert g.state.seat("Derek").alive
    g.post("Derek", "/nominate Alex", 2)  # alive again: may nominate
    assert g.nomination("Alex").nominator == "Derek"


def codes(item) -> list[str]:
    """The codes of a report line's messages (a rule is asserted as codes, not words)."""
    return [m.code for m in (item if isinstance(item, tuple) else (item,))]


def coded(pairs) -> tuple:
    """(line, its messages' codes) for each line of a report."""
    return tuple((line, codes(item)) for line, item in pairs)


def test_a_command_naming_an_unknown_player_suggests_a_close_name():
    g = Game()
    outcome = st(g, "!kill Dreek --yes")
    why = outcome.command.failed[0][1]
    assert says(why, "command.unknown_player", text="Dreek")
    assert says(why, "hint.did_you_mean", names=("Derek",))


def test_a_players_storyteller_commands_are_reported_by_code_and_never_applied():
    """The core says which posts held `!` lines only a Storyteller may give (the shell logs
    them); a player's `!vote` is a vote form, not one of those."""
    from modbot.core import GameState, Post, handle_post, is_lone_confirm

    from ..helpers import FIVE, NOMINATIONS1, setup

    state = GameState.from_setup(setup(FIVE))
    player = FIVE[0]
    kill = handle_post(state, Post(1, player, NOMINATIONS1, f"!kill {FIVE[1]} --yes"))
    assert kill.ignored_commands and kill.state.seat(FIVE[1]).alive
    vote = handle_post(state, Post(2, player, NOMINATIONS1, f"!vote {FIVE[1]}"))
    assert not vote.ignored_commands
    quoted = handle_post(state, Post(3, player, NOMINATIONS1,
                                     f'[quote="x"]\n!kill {FIVE[1]}\n[/quote]\nJust quoting.'))
    assert not quoted.ignored_commands
    assert is_lone_confirm("!confirm", state.setup.roster)
    assert not is_lone_confirm("!confirm\n!status", state.setup.roster)
