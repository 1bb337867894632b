"""Theory of operation: the end of a phase, and the rules that settle a day's votes.

`end_phase` moves the game to its next phase; the end of the voting window ends the day
(`end_day`: every remaining vote locks in clock order, uncast = pardon; the Butcher's
nomination resolves; the player about to die, or the Storytellers' choice, is executed, or
instead the Scapegoat they chose to take it);
night then begins (`begin_night`), unless the day's end makes the game look over for a reason
the Storytellers were not asked about yet: then the night is held (`NightHeld`: nothing is
announced) until they decide, `!win` to end the game or `!phase next` to begin the night.
`settle` runs the state-triggered rules of a day to a fixed point (locks at the clock hand,
nominations closed, exiles resolved, the day ended early once every vote is locked). Each
function works on a run (engine.py's `_Run`: a state and the events emitted so far).
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from .characters import tb_travellers, travellers, triggers, wins
from .characters.undying import averting_spends, lives_on_mark, true_death
from .characters.wins import WINS_DETECTED
from .deciding.rules import butcher_may_nominate
from .deciding.voting import about_to_die, living_count, lock_at_hand, population, threshold_now
from .night import flow as nightflow
from .state.events import (
    DayEnded,
    Event,
    Executed,
    Exiled,
    NightHeld,
    NominationClosed,
    PhaseChanged,
    PlayerDied,
    VoteLocked,
)
from .state.model import EXILE, YES, GameState, Nomination, NominationKind, Phase
from .state.private_events import EffectApplied

_NEXT_PHASE = {
    Phase.PREGAME: Phase.NIGHT,
    Phase.NIGHT: Phase.DISCUSSION,
    Phase.DISCUSSION: Phase.NOMINATION,
    Phase.NOMINATION: Phase.VOTING,
}


class Run(Protocol):
    state: GameState

    def emit(self, event: Event) -> None: ...


def end_phase(run: Run, at: datetime) -> None:
    state = run.state
    if state.phase is Phase.VOTING:
        end_day(run, at)
        return
    phase = _NEXT_PHASE[state.phase]
    cycle = state.cycle + 1 if phase is Phase.NIGHT else state.cycle
    run.emit(PhaseChanged(phase, cycle, at, at + state.setup.lengths.of(phase)))
    if phase is Phase.VOTING:
        settle(run, at)
    if phase is Phase.NIGHT and cycle == 1:
        for event in nightflow.deal_at_first_night(run.state, at):
            run.emit(event)


def end_day(run: Run, at: datetime, condemned: str | None = None) -> None:
    """Lock every remaining vote in clock order, resolve, execute, and begin the night.
    `condemned`: the Storyteller's execution, instead of the player about to die."""
    for kind_first in (False, True):  # executions first (they may spend tokens), then exiles
        for nomination in run.state.current_day.open_nominations():
            if (nomination.kind == EXILE) == kind_first:
                _lock_all(run, nomination.kind, nomination.nominee, at)
    butchered = _butcher(run, at)
    day = run.state.current_day
    voted = about_to_die(day) if condemned is None else None
    condemned = condemned or voted
    if condemned is not None:
        executed = day.nomination_of(condemned)
        votes = executed.yes if executed else 0
        goat = tb_travellers.instead_of(run.state, voted) if voted else None
        if goat is not None:  # the Storytellers' call, kept before the day ended
            run.emit(tb_travellers.ScapegoatExecuted(goat, condemned, at))
            condemned = goat
        run.emit(Executed(condemned, votes, at))
        _execute(run, condemned, at)
    run.emit(DayEnded(day.number, at, condemned or butchered, living_count(run.state)))
    win = wins.detect(run.state, day_ended=True)
    if win is not None and win not in WINS_DETECTED.of(run.state):  # new: the STs decide first
        run.emit(NightHeld(run.state.cycle + 1, win[0], at))
        return
    begin_night(run, at)


def begin_night(run: Run, at: datetime) -> None:
    """Night begins (after the day's end, or once the Storytellers chose to go on)."""
    cycle = run.state.cycle if run.state.night_held else run.state.cycle + 1
    run.emit(PhaseChanged(Phase.NIGHT, cycle, at, at + run.state.setup.lengths.of(Phase.NIGHT)))
    for event in nightflow.dusk(run.state, at):
        run.emit(event)


def _butcher(run: Run, at: datetime) -> str | None:
    """The Butcher's nomination resolves alongside the main execution: its nominee is
    executed with more than half the living voting, whatever the other nominations got."""
    nomination = next((n for n in run.state.current_day.nominations if n.by_butcher), None)
    if nomination is None:
        return None
    passed = nomination.yes >= nomination.closed_threshold and \
        run.state.seat(nomination.nominee).alive and \
        not travellers.butcher_malfunctions(run.state, nomination.nominator)
    run.emit(travellers.ButcherResolved(nomination.nominee, nomination.yes, passed, at))
    if not passed:
        return None
    run.emit(Executed(nomination.nominee, nomination.yes, at))
    _execute(run, nomination.nominee, at)
    return nomination.nominee


def _execute(run: Run, condemned: str, at: datetime) -> None:
    """The executed player dies, unless an ability spares them (the Devil's Advocate, the
    Lleech, the Sailor, ...); a death the Fool averts spends its ability."""
    if not run.state.seat(condemned).alive:
        ended = true_death(run.state, condemned)  # a Zombuul living on: dead for good
        if ended is not None:
            run.emit(EffectApplied(ended, at))
        return
    if not triggers.protected_from_execution(run.state, condemned):
        lives_on = lives_on_mark(run.state, condemned)  # the Zombuul's first death
        if lives_on is not None:
            run.emit(EffectApplied(lives_on, at))
        run.emit(PlayerDied(condemned, "execution", at))
        return
    spent = averting_spends(run.state, condemned)
    if spent is not None:
        run.emit(EffectApplied(spent, at))


def _lock_all(run: Run, kind: NominationKind, nominee: str, at: datetime) -> None:
    """Every vote left on today's nomination of `nominee` locks in clock order; it closes."""
    while True:
        nomination = run.state.current_day.named_nomination(nominee, kind)
        vote = lock_at_hand(run.state, nomination, at, end_of_day=True)
        if vote is None:
            break
        run.emit(VoteLocked(kind, nominee, vote))
    _close(run, run.state.current_day.named_nomination(nominee, kind), at)


# -- state-triggered --------------------------------------------------------------------------

def settle(run: Run, at: datetime) -> None:
    while run.state.today is not None and _settle_once(run, at):
        pass
    if _is_all_locked(run.state):
        end_day(run, at)


def _is_all_locked(state: GameState) -> bool:
    """Early end: in the voting window, at least one vote held today, and all of it locked.

    A day without any nomination or exile call runs to its scheduled end instead, and so does
    a day whose living Butcher has not made its nomination after nominations closed.
    """
    day = state.today
    return (state.phase is Phase.VOTING and state.setup.end_day_when_all_locked
            and day is not None and bool(day.nominations or day.exiles) and not day.open_nominations()
            and not any(butcher_may_nominate(state, s.name) for s in state.seats))


def _settle_once(run: Run, at: datetime) -> bool:
    """Lock one vote or close one nomination; False when nothing is left to do."""
    for nomination in run.state.current_day.open_nominations():
        if nomination.hand is None:
            _close(run, nomination, at)
            return True
        vote = lock_at_hand(run.state, nomination, at)
        if vote is not None:
            run.emit(VoteLocked(nomination.kind, nomination.nominee, vote))
            return True
    return False


def _close(run: Run, nomination: Nomination, at: datetime) -> None:
    state = run.state
    living = population(state, nomination)
    threshold = threshold_now(state, nomination)
    votes = sum(1 for v in nomination.locked if v.vote == YES)
    run.emit(NominationClosed(nomination.kind, nomination.nominee, at, votes, living, threshold))
    if nomination.kind == EXILE and votes >= threshold and run.state.seat(nomination.nominee).alive:
        if travellers.cannot_be_exiled(run.state, nomination.nominee):
            run.emit(travellers.ExileRefused(nomination.nominee, votes, at))
            return
        run.emit(Exiled(nomination.nominee, votes, at))
        run.emit(PlayerDied(nomination.nominee, "exile", at))
