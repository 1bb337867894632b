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
makes the same edit, which the outbox has sent already.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime

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
    posts: dict[str, tuple[Outgoing, datetime]] = field(default_factory=dict)  # by its post

    def follow(self, posts: list[Outgoing], deadline: datetime | None) -> None:
        """The thread posts just made, showing `deadline` (the latest they count down to)."""
        for post in posts:
            if deadline is not None and post.kind in ("post", "edit"):
                self.posts[post.edit_of or post.key] = (post, deadline)

    def forget_until(self, at: datetime) -> None:
        """Posts whose deadline came as planned: nothing to edit."""
        self.posts = {k: v for k, v in self.posts.items() if v[1] > at}

    def no_longer(self, notice: Notice, at: datetime, voting_ends: datetime | None) -> list[Outgoing]:
        """A day that ends before its deadline (`voting_ends`), or the game's end: the edits
        of the posts counting down past it."""
        if notice.count == DAY_END and voting_ends is not None and notice.moment < voting_ends:
            return self.ended(notice.moment, DAY_ENDED)
        if notice.template == "game_over":
            return self.ended(at, GAME_ENDED)
        return []

    def ended(self, at: datetime, why: str) -> list[Outgoing]:
        """The edits of the posts counting down past `at`, when that no longer applies."""
        edits = [self._edit(target, post, at, why) for target, (post, deadline)
                 in self.posts.items() if deadline > at]
        self.posts = {}
        return edits

    @staticmethod
    def _edit(target: str, post: Outgoing, at: datetime, why: str) -> Outgoing:
        def body() -> Rendered:
            return Rendered(expired(post.raw, at, why), post.pictures)
        return Outgoing(f"{target}:ended:{at:%Y%m%dT%H%M%S}", post.thread, body,
                        topic_id=post.topic_id, kind="edit", edit_of=target)


def deadline_of(notice: Notice, voting_ends: datetime | None) -> datetime | None:
    """The latest deadline a thread post of `notice` counts down to (a count's: the day's)."""
    if notice.count in (COUNT, CARRIED):
        return voting_ends
    moments = [v for k, v in notice.view.items() if k in DEADLINES and isinstance(v, datetime)]
    return max(moments, default=None)


__all__ = ["DAY_ENDED", "GAME_ENDED", "Countdowns", "deadline_of", "expired"]
