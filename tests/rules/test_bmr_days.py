"""Bad Moon Rising's day actions (issue 55): the Gossip's public statement, `/gossip TEXT` in
the thread (kept for anyone, never answered; the Gossip's recalled at its night step)."""

from __future__ import annotations

from datetime import timedelta

from modbot.core.characters.gossip import STATEMENTS

from ..conversation import seven
from ..notices import day_one, for_storytellers, says

H = timedelta(hours=1)


def _day_then_night(setup, posts):
    """Day 1 with `posts` ((author, raw)), then night 2's sheet."""
    told, day = day_one(setup)
    said = [told.thread(author, raw, day + (i + 1) * H) for i, (author, raw) in enumerate(posts)]
    told.end_day(day + 12 * H)
    told.tick(told.state.phase_ends_at - 2 * H)
    return told, said


def test_the_gossips_statement_is_recalled_at_its_night_step():
    setup = seven("gossip", "empath", "chef", "poisoner", "imp", "monk", "soldier")
    told, said = _day_then_night(setup, [("Alex", "/gossip Brianna is the Empath")])
    assert STATEMENTS.of(told.state) == ((1, "Alex", "Brianna is the Empath", 2),)
    assert any(says(n.view.get("text"), "st.gossip", player="Alex") for n in
               for_storytellers(said[0]))
    row = next(e for e in told.state.night.sheet if e.player == "Alex")
    assert says(row.suggestion, "info.gossip", said="Brianna is the Empath", post=2)


def test_a_statement_by_someone_else_is_kept_silently_and_tells_the_storytellers_nothing():
    setup = seven("gossip", "empath", "chef", "poisoner", "imp", "monk", "soldier")
    told, said = _day_then_night(setup, [("Brianna", "/gossip Alex is the Demon")])
    assert STATEMENTS.of(told.state) == ((1, "Brianna", "Alex is the Demon", 2),)
    assert for_storytellers(said[0]) == [] and told.rejected == ()
    row = next(e for e in told.state.night.sheet if e.player == "Alex")
    assert says(row.suggestion, "info.gossip_none")


def test_the_first_statement_of_the_day_stands():
    setup = seven("gossip", "empath", "chef", "poisoner", "imp", "monk", "soldier")
    told, _ = _day_then_night(setup, [("Alex", "/gossip one"), ("Alex", "/gossip two")])
    assert [text for _, _, text, _ in STATEMENTS.of(told.state)] == ["one"]


BMR_DAYS = {"gossip": test_the_gossips_statement_is_recalled_at_its_night_step}
