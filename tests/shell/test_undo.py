"""!undo: replay without one post; everything that followed from it is recomputed."""

from datetime import timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from modbot.app.games.runtime import GameRuntime
from modbot.app.posting.reactions import GameOptions
from modbot.core import Post

from ..helpers import NOMINATIONS1, setup

PLAYERS = ("Alex", "Brianna", "Cameron", "Derek", "Ellen", "Fatima", "Gus")


class Table:
    """A game runtime fed posts at minutes into the nomination window."""

    def __init__(self, **kwargs) -> None:
        self.runtime = GameRuntime(setup(PLAYERS, **kwargs), GameOptions(1, "g1"), 1)
        self.number = 0

    def post(self, author: str, raw: str, minutes: float):
        self.number += 1
        return self.runtime.on_post(Post(self.number, author,
                                         NOMINATIONS1 + timedelta(minutes=minutes), raw,
                                         1000 + self.number))

    def input_of_last_post(self) -> str:
        """How !log names the last post: #N, its number in the thread."""
        return f"#{self.runtime.inputs[-1][1].post_number}"

    @property
    def state(self):
        return self.runtime.state


def _answer(step) -> str:
    return next(o.raw for o in step.outgoing if "pm:storytellers" in o.thread)


def test_undo_of_a_vote_that_later_locks_depended_on():
    t = Table()
    t.post("Alex", "/nominate Brianna", 0)
    t.post("Derek", "/vote Brianna yes", 1)  # precast: waits for Cameron
    t.post("Cameron", "/vote Brianna no", 2)  # locks Cameron, then Derek
    cameron_post = t.input_of_last_post()
    nomination = t.state.today.nomination_of("Brianna")
    assert [(v.player, v.vote) for v in nomination.locked] == [("Cameron", "no"),
                                                               ("Derek", "yes")]
    preview = t.post("nightingale", f"!undo {cameron_post}", 3)
    assert "Looked at post #3 by Cameron in the thread" in _answer(preview)
    assert "would change" in _answer(preview)
    assert len(t.state.today.nomination_of("Brianna").locked) == 2  # only shown
    done = t.post("nightingale", f"!undo {cameron_post} --yes", 4)
    assert "Undone:" in _answer(done)
    nomination = t.state.today.nomination_of("Brianna")
    assert nomination.locked == () and nomination.cast["Derek"].value == "yes"
    assert done.events[-1][0] == "Undone"
    t.post("Cameron", "/vote Brianna yes", 5)  # voting again after the undo
    assert [v.vote for v in t.state.today.nomination_of("Brianna").locked] == ["yes", "yes"]


def test_undo_refuses_what_cannot_be_undone():
    t = Table()
    t.post("Alex", "/nominate Brianna", 0)
    step = t.post("nightingale", "!undo 99 --yes", 1)
    assert "#99 is no earlier post of this game" in _answer(step)
    step = t.post("nightingale", "!undo id:1 --yes", 1)  # the forum's id 1 is no post of it
    assert "id:1 is no earlier post of this game" in _answer(step)
    step = t.post("nightingale", "!undo 1\n!vc", 2)
    assert "must be alone" in _answer(step)


def test_undo_takes_the_threads_post_number_or_the_forums_id():
    t = Table()
    t.post("Alex", "/nominate Brianna", 0)
    t.post("Cameron", "/vote Brianna yes", 1)  # post #2, the forum's id 1002
    for form in ("!undo 2", "!undo #2", "!undo id:1002", "!undo ID:1002"):
        assert "Looked at post #2 by Cameron in the thread" in _answer(
            t.post("nightingale", form, 2)), form
    assert t.state.today.nomination_of("Brianna").locked  # only shown


def test_log_speaks_in_game_terms():
    t = Table()
    t.post("Alex", "/nominate Brianna", 0)
    t.post("Cameron", "/vote Brianna no", 1)
    log = _answer(t.post("nightingale", "!log 3", 2))
    assert "#1 Alex: Alex nominates Brianna" in log
    assert "#2 Cameron: Cameron votes pardon on Brianna" in log
    assert "#2 Cameron: Cameron's vote on Brianna locks as pardon" in log
    assert "VoteCast(" not in log and "2026-" not in log  # no class names, no ISO times


def test_undone_state_survives_a_restart():
    t = Table()
    t.post("Alex", "/nominate Brianna", 0)
    kill = t.post("nightingale", "!kill Cameron --yes", 1)
    number = t.input_of_last_post()
    t.post("nightingale", f"!undo {number} --yes", 2)
    assert t.state.seat("Cameron").alive
    rows = []  # the store's input rows, as the daemon would reload them
    for _kind, post, post_id in t.runtime.inputs:
        rows.append(type("Row", (), {"kind": "post", "post_id": post_id, "topic_id": None,
                                     "post_number": post.post_number, "author": post.author,
                                     "at": post.created_at.isoformat(), "raw": post.raw})())
    again = GameRuntime(setup(PLAYERS), GameOptions(1, "g1"), 1)
    again.load(rows)
    assert again.state == t.state and kill.events


COMMANDS = st.sampled_from([
    "!kill Cameron --yes", "!revive Gus --yes", "!ghostvote Gus take", "!ghostvote Gus give",
    "!nominate Ellen Fatima", "!vote Fatima yes on Brianna", "!extend 1h", "!character Alex imp",
    "!poison Derek", "!alias Derek Dee", "!cancel nomination Brianna", "!reminder Ellen note",
])


@given(st.lists(COMMANDS, min_size=1, max_size=6))
@settings(max_examples=60, deadline=None)
def test_commands_then_undoing_them_in_reverse_order_returns_the_original_state(commands):
    t = Table(dead=("Gus",))
    base = Table(dead=("Gus",))
    for table in (t, base):
        table.post("Alex", "/nominate Brianna", 0)
        table.post("Cameron", "/vote Brianna yes", 1)
    numbers = []
    for i, command in enumerate(commands):
        t.post("nightingale", command, 2 + i)
        numbers.append(t.input_of_last_post())
        base.post("nightingale", "(a remark, no command)", 2 + i)
    for j, number in enumerate(reversed(numbers)):
        t.post("nightingale", f"!undo {number} --yes", 20 + j)
        base.post("nightingale", "(a remark, no command)", 20 + j)
    assert t.state == base.state
