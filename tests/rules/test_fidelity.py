"""Rules fidelity, fourth pass (issue 40): each rule with the seed sentence it follows.

Each test deals a game on the whole catalogue (tests/rules/test_scenarios.py's `game`), drives
it through posts, PMs and the Storytellers' commands, and asserts what the core owes as codes
and values. The earlier passes' cases stay where they are (test_scenarios, test_effects,
test_information); what this pass adds lives here, one rule a section."""

from datetime import timedelta

from modbot.core import Phase

from ..notices import day_one, for_storytellers, public, says
from .test_scenarios import H, game

M = timedelta(minutes=1)


# -- dead players' rights -----------------------------------------------------------------

def test_a_boomdandy_tie_kills_nobody_and_the_day_is_over():
    """Seed 000, Boomdandy: "If it is a tie, the day ends"."""
    talk, day = day_one(game(derek="boomdandy"))
    talk.st("!execute Derek --yes", day + H)
    talk.st("!boom Alex Ellen Fatima", day + 2 * H)
    talk.thread("Alex", "/point Fatima", day + 2 * H + M)
    talk.thread("Gus", "/point Alex", day + 2 * H + 2 * M)
    said = talk.tick(day + 2 * H + 11 * M)
    (ended,) = [n for n in public(said) if n.template == "boom"]
    assert ended.view["victim"] is None and ended.view["counts"] == (("Fatima", 1), ("Alex", 1))
    assert {"Alex", "Ellen", "Fatima"} <= {s.name for s in talk.state.seats if s.alive}
    assert says(for_storytellers(said), "st.pointing_tie")
    assert talk.state.phase is Phase.NIGHT  # the execution ended the day; the tie leaves it so
