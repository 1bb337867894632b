"""Theory of operation: a vote count's facts, as the core decides them.

`count_facts(state, day)` is everything a vote count shows, computed once by the rules that
decide the day (voting.py): for each nomination and exile its threshold, the living
population, the votes locked and cast, who has not voted, the dead and their tokens, where
the clock hand waits and since when, what it needs to execute or to tie, the most it can
still reach and who leads; for the day, who is about to die, whether the day is decided, who
leads so far and who was executed; the seats away (`/away`) at the count's moment. Names,
numbers and moments (`datetime`) only: public facts (never the grimoire), which the app words
(app/posting/views.py: links, [date] tags) and draws (app/picture). A vote count's notice carries them
(core/notices.py: a nomination opened or closed, a count asked for, voting's opening, the day's end: a few a day); a count the app
owes on its own schedule computes them when it is rendered.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ..state.model import EXILE, DayState, GameState, Nomination, Phase
from .away import away_now
from .hand_nudge import waiting_since
from .voting import (
    about_to_die,
    about_to_die_now,
    is_decided,
    leading_others,
    leading_so_far,
    max_possible,
    needs,
    population,
    threshold_now,
)


def nomination_facts(state: GameState, n: Nomination) -> dict[str, Any]:
    seats = {s.name: s for s in state.seats}
    facts: dict[str, Any] = {
        "kind": n.kind, "by_butcher": n.by_butcher, "nominee": n.nominee,
        "nominator": n.nominator, "post_number": n.post_number, "yes": n.yes,
        "threshold": threshold_now(state, n),
        "population": n.living_at_close if not n.is_open else population(state, n),
        "open": n.is_open,
        "locked": [{"player": v.player, "vote": v.vote, "note": v.note,
                    "ghost": v.ghost_vote_spent, "post_number": v.post_number}
                   for v in n.locked],
    }
    if n.is_open:
        need = needs(state, n)
        unlocked = n.unlocked()
        facts.update({
            "hand": n.hand,
            "hand_since": waiting_since(n),
            "cast": [{"player": p, "vote": n.cast[p].value} for p in unlocked if p in n.cast],
            "not_voted": [p for p in unlocked if p not in n.cast and seats[p].alive],
            "dead_voters": [{"player": p, "token": seats[p].ghost_vote}
                            for p in unlocked if not seats[p].alive],
            "needed_to_execute": need.to_execute,
            "leaders": leading_others(state.today, n.nominee)
            if state.today and need.to_execute > facts["threshold"] else [],
            "needed_to_tie": need.to_tie,
            "max_possible": max_possible(state, n),
        })
    # the votes it needs, as the summary line and the picture say: to execute while it is
    # open (an exile, and a closed nomination: its threshold)
    facts["needed"] = facts["needed_to_execute"] if n.is_open and n.kind != EXILE \
        else facts["threshold"]
    return facts


def count_facts(state: GameState, day: int | None = None, at: datetime | None = None) -> dict[str, Any]:
    """The facts of `day`'s vote count (default: the latest day) at `at` (who is away then)."""
    chosen = [d for d in state.days if day is None or d.number == day]
    shown: DayState | None = chosen[-1] if chosen else None
    current = shown is not None and shown is state.today
    return {
        "day": shown.number if shown else 0,
        "phase": state.phase_label,
        "phase_code": state.phase.value,
        "deadline": state.phase_ends_at,
        "nominations": [nomination_facts(state, n) for n in shown.nominations] if shown else [],
        "exiles": [nomination_facts(state, n) for n in shown.exiles] if shown else [],
        "about_to_die": (about_to_die_now(state, shown) if current else about_to_die(shown))
        if shown else None,
        "decided": is_decided(state) if current else False,
        "leading": leading_so_far(state, shown) if current and shown else None,
        "executed": shown.executed if shown and not current else None,
        "ended": bool(shown and shown.ended_at),
        "away": away_now(state, at) if current else {},  # seat: its return (`/away`)
        # while nominations are open, voting's end is ahead too: both deadlines are shown
        "voting_ends": state.phase_ends_at + state.setup.lengths.of(Phase.VOTING)
        if current and state.phase is Phase.NOMINATION and state.phase_ends_at else None,
    }
