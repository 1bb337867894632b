"""Theory of operation: the bot's thread posts that count down to a deadline, edited when the
deadline no longer applies (issue 56).

A phase's post, a vote count and the day's end show deadlines as Discourse countdowns
(views.py's `countdown_tag`: each reader sees the time left). When a day ends before its
deadline (every vote locked, the Storytellers' `!endday` or `!execute`, an ability's
execution) or the game ends, those countdowns would go on counting to a moment that will not
come. The reactor tells `Countdowns` of each thread post it makes with a deadline (`follow`:
by the post it is or edits, so a running count's latest words are the ones kept) and, when a
deadline stops applying, asks for the edits (`ended`): each post whose deadline is later is
rewritten with every countdown to a moment after the end shown as its plain date, said to no
longer apply (`expired`), the rest of the post as it was, its pictures kept. A post whose
deadline passes as planned is forgotten (`forget_until`): its countdown reads "ago" as
Discourse shows it. Each edit's key names its post and the moment, so the fold after a restart
makes the same edit, which the outbox has sent already; where the forum refuses the edit (slow
mode, the day's edits spent) it goes out as a post of its own, as a running count's does.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from ...adapters.outgoing import Outgoing, Rendered
from ...core import CARRIED, COUNT, DAY_END, Notice, say
from .catalogue import words
from .render import DEADLINES
from .views import date_tag

COUNTDOWN = re.compile(r'\[date=(\d{4}-\d\d-\d\d) time=(\d\d:\d\d:\d\d) timezone="UTC" '
                       r'countdown="true"\]')
DAY_ENDED, GAME_ENDED = "countdown.day_ended", "countdown.game_ended"


def expired(raw: str, ended: datetime, why: str) -> str:
    """`raw` with each countdown to a moment after `ended` as its date, said to no longer
    apply (`why`: the code saying what ended)."""
    def plain(match: re.Match[str]) -> str:
        at = datetime.fromisoformat(f"{match[1]}T{match[2]}").replace(tzinfo=UTC)
        if at <= ended:
            return match[0]
        return f"{date_tag(at)} ({words(say(why, ended=date_tag(ended)))})"
    return COUNTDOWN.sub(plain, raw)


@dataclass
class Countdowns:
    """By the post each is or edits: its thread, topic and latest deadline (kept in snapshots),
    and the post itself while this process made it (`recent`: its words, rendered late; never
    pickled: a restart from a snapshot reads them from the store, `newest_raw`)."""

    deadlines: dict[str, tuple[str, int | None, datetime]] = field(default_factory=dict)
    recent: dict[str, Outgoing] = field(default_factory=dict)

    def __getstate__(self) -> dict[str, Any]:
        return {"deadlines": self.deadlines, "recent": {}}

    def follow(self, posts: list[Outgoing], deadline: datetime | None) -> None:
        """The thread posts just made, showing `deadline` (the latest they count down to)."""
        for post in posts:
            if deadline is not None and post.kind in ("post", "edit"):
                target = post.edit_of or post.key
                self.deadlines[target] = (post.thread, post.topic_id, deadline)
                self.recent[target] = post

    def forget_until(self, at: datetime) -> None:
        """Posts whose deadline came as planned by `at` (an event's moment, never the time a
        cycle ran: the posts a game derives depend on its events alone): nothing to edit."""
        gone = [k for k, (_, _, deadline) in self.deadlines.items() if deadline <= at]
        for target in gone:
            del self.deadlines[target]
            self.recent.pop(target, None)

    def no_longer(self, notice: Notice, voting_ends: datetime | None,
                  newest_raw: Callable[[str], str | None]) -> list[Outgoing]:
        """A day that ends before its deadline (`voting_ends`), or the game's end: the edits
        of the posts counting down past it (`newest_raw`: a post's words as the store has
        them, for one made before a restart)."""
        if notice.count == DAY_END and voting_ends is not None and notice.moment < voting_ends:
            return self.ended(notice.moment, DAY_ENDED, newest_raw)
        if notice.count == DAY_END:  # the day's deadline came as planned
            self.forget_until(notice.moment)
        if notice.template == "game_over" and isinstance(notice.view.get("at"), datetime):
            return self.ended(notice.view["at"], GAME_ENDED, newest_raw)
        return []

    def ended(self, at: datetime, why: str,
              newest_raw: Callable[[str], str | None]) -> list[Outgoing]:
        """The edits of the posts counting down past `at`, when that no longer applies."""
        edits = [self._edit(target, thread, topic_id, at, why, newest_raw)
                 for target, (thread, topic_id, deadline) in self.deadlines.items()
                 if deadline > at]
        self.deadlines, self.recent = {}, {}
        return edits

    def _edit(self, target: str, thread: str, topic_id: int | None, at: datetime, why: str,
              newest_raw: Callable[[str], str | None]) -> Outgoing:
        post = self.recent.get(target)

        def body() -> Rendered:
            if post is not None:
                return Rendered(expired(post.raw, at, why), post.pictures)
            return Rendered(expired(newest_raw(target) or "", at, why))
        return Outgoing(f"{target}:ended:{at:%Y%m%dT%H%M%S}", thread, body, topic_id=topic_id,
                        kind="edit", edit_of=target)


def deadline_of(notice: Notice, voting_ends: datetime | None) -> datetime | None:
    """The latest deadline a thread post of `notice` counts down to (a count's: the day's)."""
    if notice.count in (COUNT, CARRIED):
        return voting_ends
    moments = [v for k, v in notice.view.items() if k in DEADLINES and isinstance(v, datetime)]
    return max(moments, default=None)


__all__ = ["DAY_ENDED", "GAME_ENDED", "Countdowns", "deadline_of", "expired"]
