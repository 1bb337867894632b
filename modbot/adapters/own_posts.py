"""Theory of operation: the bot's own posts found on the forum by their markers.

After an attempt whose fate is unknown (the process died after the forum accepted the post, or
the answer timed out), the outbox looks for the row's marker (`<!-- modbot:KEY -->`) before
sending again: in the thread after the last post it knows it sent there, 20 posts a request;
in the PMs the bot can see, paging back as far as the row's first attempt (with a margin for
the forum's clock, `CLOCK_SKEW`; at most `PM_PAGES` pages for rows from before attempts were
recorded). Only the bot's own posts count (by its user id, else its name): a marker anyone
else writes proves nothing. Found, the row is marked sent with the post's place, never resent.
"""

from __future__ import annotations

from datetime import datetime

from .forum_port import ForumPort
from .markers import marker
from .port import ForumPost
from .store import OutboxRow
from .store_port import OutboxStore

CLOCK_SKEW = 600  # seconds the forum's clock may differ from ours, when paging back
PM_PAGES = 20  # pages of PMs read at most for one marker


def _epoch(created_at: str | None) -> float | None:
    if not created_at:
        return None
    try:
        return datetime.fromisoformat(created_at.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


class OwnPosts:
    # what it uses of the outbox (outbox.py sets them)
    client: ForumPort
    store: OutboxStore
    bot_id: int | None

    def _already_posted(self, row: OutboxRow, topic_id: int | None) -> bool:
        """Look for the row's marker on the forum (after an attempt whose fate is unknown), in
        the bot's own posts only: a marker anyone else writes proves nothing."""
        found = self._own_post_in_topic(row, topic_id) if topic_id else self._own_pm(row)
        if found is None:
            return False
        self.store.mark_sent(row, found.id, found.topic_id or topic_id, found.post_number)
        return True

    def _is_ours(self, post: ForumPost, row: OutboxRow) -> bool:
        mine = post.user_id == self.bot_id if self.bot_id is not None and post.user_id \
            else post.username.casefold() == self.client.api_username.casefold()
        return mine and marker(row.key) in post.raw

    def _own_post_in_topic(self, row: OutboxRow, topic_id: int) -> ForumPost | None:
        after = self.store.last_sent_number(row.thread, topic_id)
        while True:
            posts = self.client.posts_after(topic_id, after)
            found = next((p for p in posts if self._is_ours(p, row)), None)
            if found is not None or len(posts) < 20:
                return found
            after = posts[-1].post_number

    def _own_pm(self, row: OutboxRow) -> ForumPost | None:
        """Page back through the PMs the bot can see, as far as the row's first attempt (with a
        margin for clock skew; at most PM_PAGES pages for rows from before it was recorded)."""
        since = (row.first_attempt or 0) - CLOCK_SKEW
        before = None
        for _ in range(PM_PAGES):
            posts = self.client.private_posts(before)
            found = next((p for p in posts if self._is_ours(p, row)), None)
            if found is not None or not posts:
                return found
            oldest = _epoch(posts[-1].created_at)
            if row.first_attempt and oldest is not None and oldest < since:
                return None
            before = posts[-1].id
        return None


__all__ = ["CLOCK_SKEW", "PM_PAGES", "OwnPosts"]
