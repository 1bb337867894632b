"""Theory of operation: the Bishop's day (a Bad Moon Rising traveller).

"Only the Storyteller can nominate. At least 1 opposing player must be nominated each day."
While a sober and healthy Bishop lives (its record's `storytellers_nominate`: state/grimoire.py
`storytellers_nominate`), a player's nomination is refused with the reason (deciding/rules.py),
and the Storytellers nominate with `!nominate NOMINEE` (deciding/staff.py: they are its
nominator, so no player's daily nomination is spent and no ability of a nominator fires). When
nominations open each day they are reminded (`_told`): who may nominate, and that one player
of the team opposing the Bishop's must be nominated that day; which one is theirs to choose.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..state.events import Event, PhaseChanged
from ..state.feature import Feature, Notice, to_storytellers
from ..state.grimoire import alignment_of, storytellers_nominate
from ..state.model import GameState, Phase, iso
from ..wording import say


def _told(state: GameState, event: PhaseChanged, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    bishop = storytellers_nominate(state) if event.phase is Phase.NOMINATION else None
    if bishop is None:
        return ()
    opposing = "evil" if (alignment_of(state, bishop) or "good") == "good" else "good"
    team = state.setup.private_script.terms.alignment(opposing)
    return (to_storytellers("st_note", f"bishop:{event.cycle}:{iso(event.at)}",
                            text=say("st.bishop", bishop=bishop, team=team)),)


FEATURE = Feature("bishop", notices={PhaseChanged: _told})

__all__: list[str] = []
