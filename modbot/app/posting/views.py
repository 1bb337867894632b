"""View models: plain dicts the templates render. Only public facts go into public views.

Public views are built from the public day state (seats, nominations, votes, phases); never
from the grimoire (a test renders every public template). A vote count's numbers are the
core's (`count_facts`: the rules that decide the day compute them once); here they only take
the forum's forms. What seed 001 makes public at the
start is the core's (`characters/public_roles.py`).
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from ...core import GameState, count_facts

_MD_SPECIAL = re.compile(r"([\\`*_~#|!])")
_ENTITIES = {"@": "&#64;", "[": "&#91;", "]": "&#93;", "<": "&lt;", ">": "&gt;", "&": "&amp;",
             ":": "&#58;"}


_DEADLINE_LABELS = {"discussion": "Nominations open", "nomination": "Nominations close",
                    "voting": "Voting ends", "night": "Day breaks"}


def deadline_label(state: GameState) -> str:
    """What the phase's deadline ends ("Voting ends"), before its [date] tag."""
    return _DEADLINE_LABELS.get(state.phase.value, "The phase ends")


def md(text: object) -> str:
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


def countdown_tag(at: datetime | None) -> str:
    """A deadline in a public post: a [date] tag each reader sees as the time left ("in 2
    days"), Discourse's local-dates `countdown` (plugins/discourse-local-dates/assets/
    javascripts/lib/local-date-builder.js, `_applyFormatting`). PMs keep plain [date] tags."""
    if at is None:
        return date_tag(at)
    return f'[date={at:%Y-%m-%d} time={at:%H:%M:%S} timezone="UTC" countdown="true"]'


def range_tag(start: datetime, end: datetime) -> str:
    """A phase in a public post, from its start to its deadline: Discourse's [date-range]
    (discourse-local-dates.js, `addLocalRange`), in each reader's own time."""
    return f'[date-range from={start:%Y-%m-%dT%H:%M:%S} to={end:%Y-%m-%dT%H:%M:%S} timezone="UTC"]'


def nomination_view(facts: dict[str, Any], topic_id: int | None) -> dict[str, Any]:
    """A nomination's facts (core/deciding/count_facts.py) with links to its posts and the
    clock hand's wait as a [date] tag."""
    view = {**facts, "link": _link(topic_id, facts["post_number"]),
            "locked": [{**v, "link": _link(topic_id, v["post_number"])}
                       for v in facts["locked"]]}
    if facts["open"]:
        view["hand_since"] = date_tag(facts["hand_since"])
    return view


def _link(topic_id: int | None, post_number: int | None) -> str | None:
    return f"/t/{topic_id}/{post_number}" if topic_id and post_number else None


def vote_count_view(state: GameState, *, number: int, as_of: int | None,
                    topic_id: int | None, edits: list[dict[str, Any]] | None = None,
                    day: int | None = None, facts: dict[str, Any] | None = None,
                    at: datetime | None = None) -> dict[str, Any]:
    """The vote count of `day` (default: the latest day): the core's facts (`facts`, as a
    notice carries them, else count_facts), in the forum's forms (links, [date] tags) and
    with what the app remembers (its number, the last post read, the edits to mention)."""
    facts = facts if facts is not None else count_facts(state, day, at)
    return {
        **facts,
        "game": state.setup.name,
        "number": number,
        "as_of": as_of,
        "deadline": countdown_tag(facts["deadline"]),
        "deadline_at": date_tag(facts["deadline"]),
        "nominations": [nomination_view(n, topic_id) for n in facts["nominations"]],
        "exiles": [nomination_view(n, topic_id) for n in facts["exiles"]],
        "deadline_label": deadline_label(state),
        "voting_ends": countdown_tag(facts["voting_ends"]) if facts["voting_ends"] else None,
        "voting_ends_at": date_tag(facts["voting_ends"]) if facts["voting_ends"] else None,
        "edits": edits or [],
        "away": {player: date_tag(until) for player, until in facts.get("away", {}).items()},
    }
