"""The vote forms forum players bring (issue 26), read by the parser with `vote_forms =
"forum"` (the default), or answered; `"strict"` keeps the player guide's forms only."""

from __future__ import annotations

from datetime import timedelta

import pytest

from modbot.core.reading.parser import parse_post
from modbot.core.state.names import Roster

from ..conversation import botf_setup
from ..notices import day_one

M = timedelta(minutes=1)
ROSTER = Roster(("Alex", "Bob", "Hiraki", "Blott", "Accalia", "Alice", "Saoirse"))


def read(text, open_nominees=("Bob",), forms="forum"):
    parsed = parse_post(text, ROSTER, open_nominees, ("nightingale",), forms=forms, bot="modbot")
    return ([(type(a).__name__, getattr(a, "nominee", None), getattr(a, "value", None))
             for a in parsed.actions], [(r.code, r.params.get("soft", False)) for r in parsed.rejections])


@pytest.mark.parametrize(("text", "actions"), [
    ("**##vote Alex**", [("Vote", "Alex", "yes")]),
    ("**##unvote**", [("Unvote", None, None)]),
    ("**vote hiraki**", [("Vote", "Hiraki", "yes")]),
    ("[b] Unvote [/b]", [("Unvote", None, None)]),
    ("[b]Unvote[/b] Just kiddin'", [("Unvote", None, None)]),
    ("UNVOTE", [("Unvote", None, None)]),
    ("vote bob", [("Vote", "Bob", "yes")]),
    ("vote blott", [("Vote", "Blott", "yes")]),
    ("vote Bob no", [("Vote", "Bob", "no")]),
    ("I think it's Bob. VOTE: Bob", [("Vote", "Bob", "yes")]),
    ("nice try. VOTE: Alice", [("Vote", "Alice", "yes")]),
    ("so that is settled. ##vote Alex", [("Vote", "Alex", "yes")]),
    ("@modbot vote accalia", [("Vote", "Accalia", "yes")]),
    ("/vote yes", [("Vote", "Bob", "yes")]),
    ("VOTE: Bob actually no UNVOTE", [("Vote", "Bob", "yes"), ("Unvote", "Bob", None)]),
    ("VOTE: Bob\nvote Alex", [("Vote", "Bob", "yes"), ("Vote", "Alex", "yes")]),  # both stand
])
def test_a_forum_form_counts(text, actions):
    assert read(text + "\nThat is my post for today.") == (actions, [])


@pytest.mark.parametrize("text", [
    "I will vote bob later maybe", "i think we vote bob tomorrow", "unvote is what I would do",
    "@alex vote bob",  # a mention of someone else: a sentence to them
    "> vote bob", "`vote bob`", "the vote: who knows", "note bob",
])
def test_prose_never_votes_and_is_never_answered(text):
    assert read(text) == ([], [])


def test_quotes_and_code_never_count_in_any_form():
    assert read("[quote]VOTE: Bob[/quote]\n```\nvote bob\n```") == ([], [])


@pytest.mark.parametrize(("text", "code"), [
    ("vtoe bob", "misspelt_vote"), ("voet Bob", "misspelt_vote"),
    ("unvot Bob", "misspelt_unvote"), ("nominat Alice", "misspelt_nominate"),
    ("vote Zed", "vote_names_nobody"), ("vote al", "ambiguous"),
])
def test_a_line_that_looks_like_a_command_is_answered_softly(text, code):
    assert read(text) == ([], [(code, True)])


def test_strict_keeps_only_the_player_guides_forms():
    for text in ("vote bob", "UNVOTE", "I think it's Bob. VOTE: Bob", "@modbot vote bob",
                 "/vote yes", "vtoe bob"):
        assert read(text, forms="strict")[0] == [], text
    assert read("VOTE: Bob", forms="strict") == ([("Vote", "Bob", "yes")], [])
    assert read("**##vote Alex**", forms="strict") == ([("Vote", "Alex", "yes")], [])


def test_a_look_alike_vote_is_a_soft_rejection_and_a_forum_form_counts():
    """A line that looks like a vote is answered softly (the player is told, nothing counts;
    how often the app answers is tests/words/test_vote_forms.py's), a real command's mistake is
    a rejection, and a vote in a forum form counts."""
    told, _ = day_one(botf_setup())
    nominations = told.state.phase_ends_at
    told.tick(nominations)
    told.thread("Alex", "/nominate Derek\nA nomination.", nominations + M)
    told.thread("Brianna", "vtoe Derek\nhmm", nominations + 2 * M)
    (soft,) = told.rejected
    assert soft.code == "misspelt_vote" and soft.params["soft"]
    assert soft.params["candidates"] == ["Derek"]
    told.thread("Brianna", "vote Zed\nhmm", nominations + 10 * M)
    assert [(r.code, r.params.get("soft")) for r in told.rejected] == [("vote_names_nobody", True)]
    told.thread("Brianna", "/vote Zed\nhmm", nominations + 11 * M)
    assert [(r.code, r.params.get("soft")) for r in told.rejected] == [("unknown_player", None)]
    told.thread("Cameron", "I think it is Derek. VOTE: Derek", nominations + 71 * M)
    assert "Cameron" in told.state.today.nomination_of("Derek").cast
