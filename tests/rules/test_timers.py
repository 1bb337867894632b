"""The clock's rules are one table (feature.Timer, registry.TIMERS): `next_due` and `advance`
both read it, the earliest moment first, a tie in the table's order, the phase's end last."""

from datetime import timedelta

from modbot.core import GameState, PhaseChanged, advance, engine, next_due
from modbot.core.registry import FEATURES, TIMERS
from modbot.core.state.feature import Timer
from modbot.core.state.staff_events import VoteCountRequested

from ..helpers import FIVE, NOMINATIONS1, setup


def test_the_table_holds_every_features_timers_in_the_features_order():
    assert tuple(t for f in FEATURES for t in f.timers) == TIMERS
    assert [t.name for t in TIMERS] == ["a stalled clock hand's reminder", "a quiet player's prod",
                                       "the Boomdandy's countdown ends",
                                       "the Fiddler's vote ends", "a dealt night's milestone"]


def _state_at_nominations() -> GameState:
    state = GameState.from_setup(setup(FIVE))
    return advance(state, NOMINATIONS1).state


def test_a_features_timer_is_what_next_due_names_and_what_advance_fires(monkeypatch):
    state = _state_at_nominations()
    soon = NOMINATIONS1 + timedelta(minutes=5)
    assert soon < state.phase_ends_at
    fired: list = []

    def fire(_state, at):
        fired.append(at)
        return (VoteCountRequested("nightingale", at),)

    timer = Timer("a test's rule", lambda s: soon if not fired else None, fire)
    monkeypatch.setattr(engine, "TIMERS", (timer,))
    assert next_due(state) == soon
    later = advance(state, state.phase_ends_at + timedelta(minutes=1))
    assert fired == [soon]
    kinds = [type(e) for e in later.events]
    assert kinds.index(VoteCountRequested) < kinds.index(PhaseChanged)  # in time order


def test_a_timer_due_after_the_phase_end_fires_after_it(monkeypatch):
    state = _state_at_nominations()
    after = state.phase_ends_at + timedelta(minutes=1)
    fired: list = []
    timer = Timer("a late rule", lambda s: after if not fired else None,
                  lambda _s, at: fired.append(at) or (VoteCountRequested("nightingale", at),))
    monkeypatch.setattr(engine, "TIMERS", (timer,))
    assert next_due(state) == state.phase_ends_at  # the phase's end comes first
    events = advance(state, after + timedelta(minutes=1)).events
    kinds = [type(e) for e in events]
    assert fired == [after] and kinds.index(PhaseChanged) < kinds.index(VoteCountRequested)
