"""Theory of operation: game time moves only as far as the bot has read (a watermark).

A deadline, a lock or a clock hand's move at forum time T is applied only once every source of
the game has been read through T: its thread and the bot's PM inbox. As stream processors keep
a watermark, `Watermark` keeps, for each game thread and for the inbox, the forum time of the
last read that saw everything up to it:

- a thread is read through `now` when a cycle that started at `now` read it to its end (a full
  cycle: the listing's `highest_post_number` read in full, or the thread unchanged; a cycle the
  MessageBus woke: the named thread read after its last post number until nothing was left);
- the inbox is read through `now` when that cycle's `/private-posts.json` read succeeded.

A read that failed, or was put off, moves nothing: the game's clock waits (`through`), and the
posts read later are handled in their places, never held as "late" (late.py keeps that word for
what truly arrived late: a moved or unlisted post). The clock of a game ticks to
`min(thread, inbox) - settle_seconds` at the end of a cycle; before a thread post it ticks to
the post's own time, which its thread read covers, but not past the inbox's mark
(`inbox`): a post whose handling would move the clock past a moment the inbox is not read
through waits for the next full cycle (intake.py reads the inbox too when a woken cycle's games
have a moment due, so that wait is rare). A rename found by the names check happens at most at
the game's mark (`cap`). Nothing here reads a clock: times come from the cycle.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta


@dataclass
class Watermark:
    settle: timedelta
    threads: dict[int, datetime] = field(default_factory=dict)  # topic id -> read through
    inbox: datetime | None = None  # the inbox read through: how far a thread post's handling
    # may move the clock without the inbox read again

    def thread_read(self, topic_id: int, at: datetime) -> None:
        """The thread was read to its end by a read that started at forum time `at`."""
        known = self.threads.get(topic_id)
        self.threads[topic_id] = at if known is None else max(known, at)

    def inbox_read(self, at: datetime) -> None:
        self.inbox = at if self.inbox is None else max(self.inbox, at)

    def through(self, topic_id: int) -> datetime | None:
        """How far the game's clock may tick: every source read through it, less the settle
        time (a post made just before it may not be visible yet); None before both are read."""
        thread = self.threads.get(topic_id)
        if thread is None or self.inbox is None:
            return None
        return min(thread, self.inbox) - self.settle

    def cap(self, topic_id: int, at: datetime, floor: datetime | None) -> datetime:
        """`at`, or the game's mark when that is earlier, but never before `floor` (the time
        of the game's latest input: its history never goes back)."""
        mark = self.through(topic_id)
        capped = at if mark is None else min(at, mark)
        return capped if floor is None else max(capped, floor)
