"""Theory of operation: `!status`, the answer the Storytellers read like a grimoire.

The phase and its deadline (a [date] tag, in each reader's time), the grimoire as a table in
clock order (`core.grimoire_rows`), the Demon's bluffs, and the whole replay report folded
away below it for the details. Private: it only ever goes to the Storytellers.
"""

from __future__ import annotations

from ...core import GameState, grimoire_rows
from ...core import report as replay_report
from .render import render, render_text_report
from .views import date_tag, deadline_label


def status_text(state: GameState) -> str:
    script = state.setup.script
    bluffs = [c.name for b in state.bluffs if (c := script.get(b))] if script else []
    return render("st_status.md.j2", game=state.setup, phase=state.phase_said,
                  deadline_label=deadline_label(state), deadline=date_tag(state.phase_ends_at),
                  living=sum(1 for s in state.seats if s.alive), rows=grimoire_rows(state),
                  bluffs=bluffs, winner=state.setup.terms.alignment(state.winner)
                  if state.winner else None,
                  replay=render_text_report(state.setup, replay_report(state)))
