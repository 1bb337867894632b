"""Theory of operation: the thread index, a post of the bot's own near the top of the game thread.

On a thread of hundreds of posts hosts keep an index by hand; the bot keeps one. It is a post
of its own (never the opening post, whose edits change the topic's excerpt), made at the
game's first cycle, so near the top, and rewritten as the game goes: each phase's post, each
day's last vote count, each nomination, execution and death, each player's posts (Discourse's
`?username_filters=NAME` on the topic: TopicsController#show, the "ISO" forum players use;
renamed with the player), and the phase's deadline with its countdown.

Everything in it is public: the bot's own thread posts (their numbers, from the outbox's sent
rows, `Store.posted`) and the public facts of the game's state (nominations and their posts,
executions, the deaths the thread was told of: never a death before the post that tells it).
`index_view` builds it; `ThreadIndex.owed` compares it with
the index's newest revision and, when it differs, owes one edit: at most one waiting at a time
(a revision still waiting takes the newest words instead, so the index shows the thread's phase
when it goes), at most once every `vote_count_minutes` of forum time (as often as vote counts), each of kind
"revise" in a thread of its own (`{key}:index`): an edit the day's edit plan has no room for
waits for room (write_limits.py), never posted anew; a deleted or moved index is posted anew.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import quote

from ...adapters.outgoing import Outgoing
from ...adapters.store_port import IndexStore
from ...core import GameState, Phase
from ..games.runtime import GameRuntime
from .render import render
from .views import countdown_tag, date_tag

INDEX = "index"
_PHASE = re.compile(r"^(night|discussion|nomination|voting|end):(\d+)$")
_COUNT = re.compile(r"^vc:(\d+)\.(\d+):")
_DIED = re.compile(r"^died:(.+):\d{4}-")
_ECHOED = re.compile(r"^life:(.+):\d+$")  # a Storyteller's !kill or !revive, echoed in the thread


def index_view(state: GameState, topic_id: int, posted: dict[str, int], prefix: str) -> dict[str, Any]:
    """The index's values: links to the bot's posts (`posted`: key -> post number) and the
    players' posts, from public facts only."""
    own = {key.removeprefix(f"{prefix}:"): number for key, number in posted.items()}
    link = _linker(topic_id)
    return {
        "phases": _phases(own, link),
        "days": _days(state, own, link),
        "deaths": _deaths(state, own, link),
        "players": [{"player": s.name, "link": f"/t/{topic_id}?username_filters={quote(s.name)}"}
                    for s in state.seats],
        "phase": state.phase.value, "cycle": state.cycle,
        "deadline": countdown_tag(_deadline(state)), "deadline_at": date_tag(_deadline(state)),
    }


Link = Callable[[int | None], str | None]  # a post number -> its link in the thread


def _linker(topic_id: int) -> Link:
    return lambda number: f"/t/{topic_id}/{number}" if number else None


def _deadline(state: GameState) -> datetime:
    return state.setup.first_night_starts if state.phase is Phase.PREGAME else state.phase_ends_at


def _phases(own: dict[str, int], link: Link) -> list[dict[str, Any]]:
    found = [(number, m.group(1), int(m.group(2))) for key, number in own.items()
             if (m := _PHASE.match(key))]
    return [{"kind": kind, "cycle": cycle, "link": link(number)} for number, kind, cycle in sorted(found)]


def _days(state: GameState, own: dict[str, int], link: Link) -> list[dict[str, Any]]:
    counts: dict[int, tuple[int, int]] = {}  # day -> (count number, post number)
    for key, number in own.items():
        if (m := _COUNT.match(key)) and (int(m.group(2)), number) > counts.get(int(m.group(1)), (0, 0)):
            counts[int(m.group(1))] = (int(m.group(2)), number)
    return [{"number": d.number, "count": link(counts.get(d.number, (0, 0))[1]),
             "nominations": [{"nominee": n.nominee, "nominator": n.nominator, "kind": n.kind,
                              "link": link(n.post_number)} for n in (*d.nominations, *d.exiles)],
             "executed": d.executed, "end": link(own.get(f"end:{d.number}"))} for d in state.days]


def _deaths(state: GameState, own: dict[str, int], link: Link) -> list[dict[str, Any]]:
    """Each death the thread was told of, with the post that told it (a post the bot has
    sent): an execution (the day's end), a night's (the dawn), one by an ability or a
    Storyteller's command by day (its own post); who, never how. A death the thread has not
    been told of yet (a night's, before the dawn post) is not in it."""
    out: list[dict[str, Any]] = []
    for day in state.past_days:
        if day.executed and f"end:{day.number}" in own:
            out.append({"player": day.executed, "when": f"day {day.number}",
                        "link": link(own[f"end:{day.number}"])})
    for night in state.past_nights:
        dawn = own.get(f"discussion:{night.number}")
        if dawn is not None:
            out += [{"player": p, "when": f"night {night.number}", "link": link(dawn)}
                    for p in night.deaths]
    told = {d["player"] for d in out}
    for key, number in sorted(own.items(), key=lambda item: item[1]):
        died, echoed = _DIED.match(key), _ECHOED.match(key)  # an echo: a !kill or a !revive
        player = died.group(1) if died else echoed.group(1) if echoed else None
        if player and player not in told and (died or any(s.name == player and not s.alive
                                                          for s in state.seats)):
            out.append({"player": player, "when": "", "link": link(number)})
            told.add(player)
    return out


class ThreadIndex:
    """Owes the index post and its edits (see the module's docstring)."""

    def __init__(self, store: IndexStore) -> None:
        self.store = store
        self.last: dict[int, datetime] = {}  # topic id -> forum time of the last edit owed

    def owed(self, games: Iterable[GameRuntime], now: datetime) -> list[Outgoing]:
        return [row for game in games if (row := self._owed(game, now)) is not None]

    def _owed(self, game: GameRuntime, now: datetime) -> Outgoing | None:
        """Each cycle asks: the cheap checks (a revision waiting, the pace) come before the
        index is built and compared."""
        prefix, topic_id = game.options.key, game.topic_id
        if not topic_id:
            return None
        key = f"{prefix}:{INDEX}"  # the post's key, and its own outbox thread
        newest = self.store.newest_revision(key)
        waiting = newest is not None and newest.status == "pending"
        if newest is not None and not waiting and now - self.last.get(
                topic_id, datetime.min.replace(tzinfo=now.tzinfo)) < timedelta(minutes=game.options.vote_count_minutes):
            return None
        text = render("thread_index.md.j2", index=index_view(
            game.state, topic_id, self.store.posted(f"{prefix}:topic"), prefix))
        if newest is not None and newest.raw == text:
            return None
        if waiting and newest is not None:  # a revision not sent yet takes the newest words:
            self.store.rewrite_pending(newest.key, text)  # the index shows the phase when sent
            return None
        self.last[topic_id] = now
        if newest is None:
            return Outgoing(key, key, text, topic_id=topic_id)
        digest = hashlib.sha1(text.encode("utf-8")).hexdigest()[:12]
        return Outgoing(f"{key}:{digest}", key, text, topic_id=topic_id, kind="revise", edit_of=key)
