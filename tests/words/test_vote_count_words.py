"""How the vote count reads (the rules are tests/rules/test_voting.py): a leader short of
"about to die" is shown as leading so far."""

from modbot.app.posting.render import render
from modbot.app.posting.views import vote_count_view

from ..helpers import Game


def test_an_open_leader_short_of_about_to_die_reads_as_leading_so_far():
    g = Game(players=("Alex", "Brianna", "Cameron", "Derek", "Ellen", "Fatima", "Gus"))
    g.post("Alex", "/nominate Derek")
    g.post("Brianna", "/nominate Cameron", 1)
    for minute, voter in enumerate(("Ellen", "Fatima", "Gus", "Alex"), start=2):
        g.post(voter, "/vote Derek yes", minute)
    view = vote_count_view(g.state, number=1, as_of=None, topic_id=1)
    assert (view["about_to_die"], view["leading"]) == (None, "Derek")
    text = render("votecount.md.j2", vc=view, picture=None)
    assert "About to die: **nobody**; leading so far: **Derek** (votes still to lock)." in text
