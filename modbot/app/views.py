"""View models: plain dicts the templates render. Only public facts go into public views.

Public views are built from the public day state (seats, nominations, votes, phases); never
from the grimoire (a test renders every public template). What seed 001 makes public at the
start is the core's (`characters/public_roles.py`).
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from ..core import (
    EXILE,
    GameState,
    Nomination,
    Phase,
    about_to_die,
    about_to_die_now,
    is_decided,
    leading_others,
    leading_so_far,
    max_possible,
    needs,
    population,
    threshold_now,
    waiting_since,
)

_MD_SPECIAL = re.compile(r"([\\`*_~#|!])")
_ENTITIES = {"@": "&#64;", "[": "&#91;", "]": "&#93;", "<": "&lt;", ">": "&gt;", "&": "&amp;",
             ":": "&#58;"}


_DEADLINE_LABELS = {"discussion": "Nominations open", "nomination": "Nominations close",
                    "voting": "Voting ends", "night": "Day breaks"}


def deadline_label(state: GameState) -> str:
    """What the phase's deadline ends ("Voting ends"), before its [date] tag."""
    return _DEADLINE_LABELS.get(state.phase.value, "The phase ends")


def md(text) -> str:
    """Escape a name for Markdown/BBCode: no emphasis, tags, links, HTML or @mentions."""
    text = _MD_SPECIAL.sub(r"\\\1", str(text))  # first: entities below contain '#'
    return "".join(_ENTITIES.get(c, c) for c in text)


def clock_text(at: datetime) -> str:
    """A forum time as plain text ("Wed 02 Dec 16:00 UTC"), where a [date] tag would not do."""
    return at.strftime("%a %d %b %H:%M UTC")


def date_tag(at: datetime | None) -> str:
    """A Discourse [date] tag, shown in each reader's local time."""
    if at is None:
        return "(no deadline)"
    return f'[date={at:%Y-%m-%d} time={at:%H:%M:%S} timezone="UTC"]'


def nomination_view(state: GameState, n: Nomination, topic_id: int | None) -> dict:
    seats = {s.name: s for s in state.seats}
    view: dict[str, Any] = {
        "kind": n.kind,
        "by_butcher": n.by_butcher,
        "nominee": n.nominee,
        "nominator": n.nominator,
        "post_number": n.post_number,
        "link": f"/t/{topic_id}/{n.post_number}" if topic_id and n.post_number else None,
        "yes": n.yes,
        "threshold": threshold_now(state, n),
        "population": n.living_at_close if not n.is_open else population(state, n),
        "open": n.is_open,
        "locked": [{"player": v.player, "vote": v.vote, "note": v.note,
                    "ghost": v.ghost_vote_spent, "post_number": v.post_number,
                    "link": f"/t/{topic_id}/{v.post_number}" if topic_id and v.post_number
                    else None}
                   for v in n.locked],
    }
    if n.is_open:
        need = needs(state, n)
        unlocked = n.unlocked()
        view.update({
            "hand": n.hand,
            "hand_since": date_tag(waiting_since(n)),
            "cast": [{"player": p, "vote": n.cast[p].value} for p in unlocked if p in n.cast],
            "not_voted": [p for p in unlocked if p not in n.cast and seats[p].alive],
            "dead_voters": [{"player": p, "token": seats[p].ghost_vote}
                            for p in unlocked if not seats[p].alive],
            "needed_to_execute": need.to_execute,
            "leaders": leading_others(state.today, n.nominee)
            if state.today and need.to_execute > view["threshold"] else [],
            "needed_to_tie": need.to_tie,
            "max_possible": max_possible(state, n),
        })
    # the votes it needs, as the summary line and the picture say: to execute while it is
    # open (an exile, and a closed nomination: its threshold)
    view["needed"] = view["needed_to_execute"] if n.is_open and n.kind != EXILE \
        else view["threshold"]
    return view


def vote_count_view(state: GameState, *, number: int, as_of: int | None,
                    topic_id: int | None, edits: list[dict] | None = None,
                    day: int | None = None) -> dict:
    """The vote count of `day` (default: the latest day)."""
    days = state.past_days + ((state.today,) if state.today else ())
    chosen = [d for d in days if day is None or d.number == day]
    shown = chosen[-1] if chosen else None
    current = shown is not None and shown is state.today
    return {
        "game": state.setup.name,
        "day": shown.number if shown else 0,
        "number": number,
        "as_of": as_of,
        "phase": state.phase_label,
        "deadline": date_tag(state.phase_ends_at),
        "nominations": [nomination_view(state, n, topic_id) for n in shown.nominations]
        if shown else [],
        "exiles": [nomination_view(state, n, topic_id) for n in shown.exiles] if shown else [],
        "about_to_die": (about_to_die_now(state, shown) if current else about_to_die(shown))
        if shown else None,
        "decided": is_decided(state) if current else False,
        "leading": leading_so_far(state, shown) if current and shown else None,
        "executed": shown.executed if shown and not current else None,
        "ended": bool(shown and shown.ended_at),
        "deadline_label": deadline_label(state),
        # while nominations are open, voting's end is ahead too: both deadlines are shown
        "voting_ends": date_tag(state.phase_ends_at + state.setup.lengths.of(Phase.VOTING))
        if current and state.phase is Phase.NOMINATION and state.phase_ends_at else None,
        "edits": edits or [],
    }
