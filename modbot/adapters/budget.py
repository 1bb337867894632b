"""Theory of operation: one request budget per key, spent by priority, never past the forum's.

Discourse meters an admin key's requests per site (60 a minute by default, shared by every
admin key: lib/auth/default_current_user_provider.rb, `max_admin_api_reqs_per_minute`) and
answers 429 past it, to every caller at once. So the client charges every request it makes,
reads, writes and retries alike, to a sliding minute of the key's size (`per_minute`, a little
under the forum's), and refuses a request itself when the minute is full (forum.OverBudget,
which carries how long until a request may go) instead of letting the forum refuse it.
Requests say what they are for (`Priority`): the new posts and PMs of live games may spend
the last request of the minute, except the share kept for the posts owed now (up to
`POSTS_SHARE` while posts wait: a busy poll never holds every post back); posts that are due
(counts, phases, results) leave `RESERVE[DUE]` for the reads; background work (the edit
sweep, name look-ups, start-up and rebuild reads) leaves more, and more again while posts
are due (`due_waiting`, set by the service each cycle, as each new game starts and before
each drain: background work then leaves room for them, up to half the minute), so 40
games starting at once cannot hold back the posts the first of them owe. So a busy minute is
spent on live games first, background work waits for quiet ones, and nothing bursts past the
budget.

A User API key is also metered by the day (2,880 by default: `max_user_api_reqs_per_day`), so
a budget may keep a sliding day too (`per_day`); `day_left()` is what the MessageBus planner
reads (app/reading/bus_watch.py). The bus's thread charges the same budget as the daemon's (a held
poll is a request like any other to Discourse), so every look at it takes a lock, and `charge`
takes its priority as an argument. The forum counts the key's day, not the daemon's: the day's
requests are kept in the store by the hour (`day_cursors`, one cursor an hour) and
charged again at a restart (`restore_day`), each at its hour's end (a restored request leaves
the day no sooner than the real one did).

No clock of its own: `clock` is passed in (time.monotonic by default), and nothing sleeps.
"""

from __future__ import annotations

import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import IntEnum


class Priority(IntEnum):
    LIVE = 0  # a live game's new posts and PMs
    DUE = 1  # the posts the bot owes
    BACKGROUND = 2  # the edit sweep, name look-ups, start-up and rebuild reads


RESERVE = {Priority.LIVE: 0, Priority.DUE: 1, Priority.BACKGROUND: 12}
POSTS_SHARE = 4  # of the minute, kept from reads for the posts owed now (`due_waiting`)
WINDOW = 60.0
DAY = 86400.0
HOUR = 3600
DAY_CURSOR = "key-day:"  # the store's cursors of a key's day by the hour: "key-day:07"
HOURS_KEPT = 25  # a sliding day touches 25 wall-clock hours (its first and last in part)
SLOT = 100_000  # a cursor's value: the hour's number (since 1970) * SLOT + its requests


class Budget:
    """A sliding minute, as Discourse's RateLimiter counts (lib/rate_limiter.rb keeps the times
    of the last `max` requests and refuses one while the oldest is under a minute old)."""

    def __init__(self, per_minute: float = 55, *, per_day: int = 0,
                 clock: Callable[[], float] | None = None) -> None:
        self.per_minute = per_minute  # 0: no budget kept (a forum without limits)
        self.per_day = per_day  # 0: no day kept (an admin's key)
        self.clock = clock or (lambda: time.monotonic())  # looked up when called
        self.times: deque[float] = deque()  # the requests of the last minute
        self.day_times: deque[float] = deque()  # and of the last day, when a day is kept
        self.lock = threading.RLock()  # the bus's thread charges it too: every look is locked
        self.priority = Priority.LIVE
        self.spent = 0
        self.refused = 0
        self.due_waiting = 0  # posts owed now: background work leaves them room

    def wait_for(self, priority: Priority | None = None, count: int = 1) -> float:
        """Seconds until `count` requests of this priority may go (0: now)."""
        with self.lock:
            now = self.clock()
            return max(self._minute_wait(now, self.priority if priority is None else priority,
                                         count), self._day_wait(now))

    def _minute_wait(self, now: float, priority: Priority, count: int = 1) -> float:
        if not self.per_minute:
            return 0.0
        while self.times and now - self.times[0] >= WINDOW:
            self.times.popleft()
        allowed = int(self.per_minute) - self.reserve(priority)
        over = len(self.times) - allowed + count  # how many must leave the window first
        if over <= 0:
            return 0.0
        return WINDOW - (now - self.times[over - 1])

    def _day_wait(self, now: float) -> float:
        if not self.per_day:
            return 0.0
        while self.day_times and now - self.day_times[0] >= DAY:
            self.day_times.popleft()
        return 0.0 if len(self.day_times) < self.per_day else DAY - (now - self.day_times[0])

    def minute_used(self) -> int:
        """Requests charged in the last minute."""
        with self.lock:
            now = self.clock()
            while self.times and now - self.times[0] >= WINDOW:
                self.times.popleft()
            return len(self.times)

    def day_left(self) -> int | None:
        """Requests left in the sliding day (None: no day is kept)."""
        if not self.per_day:
            return None
        with self.lock:
            self._day_wait(self.clock())
            return self.per_day - len(self.day_times)

    def day_outlook(self, span: float = 3600.0) -> tuple[int, int, int]:
        """The sliding day as a plan reads it: requests left, those that leave the day within
        the next `span` seconds (they come back), and those spent in the last `span`."""
        if not self.per_day:
            return 0, 0, 0
        with self.lock:
            now = self.clock()
            self._day_wait(now)
            leaving = sum(1 for t in self.day_times if DAY - (now - t) <= span)
            recent = sum(1 for t in self.day_times if now - t <= span)
            return self.per_day - len(self.day_times), leaving, recent

    def reserve(self, priority: Priority) -> int:
        """Requests of the minute this priority leaves to the ones above it."""
        if priority is Priority.BACKGROUND:
            return max(RESERVE[priority], min(self.due_waiting, int(self.per_minute) // 2))
        if priority is Priority.LIVE:  # the posts owed now have their share first
            return min(self.due_waiting, POSTS_SHARE)
        return RESERVE[priority]

    def share(self, priority: Priority) -> int | None:
        """Requests a minute this priority may spend now (None: no budget is kept)."""
        return int(self.per_minute) - self.reserve(priority) if self.per_minute else None

    def charge(self, priority: Priority | None = None) -> float:
        """Spend one request of `priority` (by default the current one): 0, or (nothing spent)
        the seconds until one may go (the caller raises forum.OverBudget)."""
        with self.lock:
            wait = self.wait_for(priority)
            if wait > 0:
                self.refused += 1
                return wait
            now = self.clock()
            if self.per_minute:
                self.times.append(now)
            if self.per_day:
                self.day_times.append(now)
            self.spent += 1
            return 0.0

    @contextmanager
    def spending(self, priority: Priority) -> Iterator[Budget]:
        """Requests made inside are of this priority."""
        before, self.priority = self.priority, priority
        try:
            yield self
        finally:
            self.priority = before


def day_cursors(budget: Budget, wall_now: float) -> dict[str, int]:
    """The day's requests by the wall clock's hour, as the store's cursors (25 names, the hour's
    number modulo 25: an hour that has left the day is overwritten by a later one)."""
    with budget.lock:
        now = budget.clock()
        budget._day_wait(now)  # what has left the day goes
        hours = Counter(int((wall_now - (now - t)) // HOUR) for t in budget.day_times)
    return {f"{DAY_CURSOR}{hour % HOURS_KEPT:02}": hour * SLOT + min(count, SLOT - 1)
            for hour, count in hours.items()}


def restore_day(budget: Budget, cursors: dict[str, int], wall_now: float) -> int:
    """Charge the requests an earlier run made within the day (`day_cursors`' cursors), each
    at its hour's end, so the day's budget counts them; returns how many."""
    restored: list[float] = []
    with budget.lock:
        now = budget.clock()
        for name, value in cursors.items():
            hour, count = divmod(value, SLOT)
            if not name.startswith(DAY_CURSOR) or (hour + 1) * HOUR <= wall_now - DAY:
                continue  # another cursor, or an hour that has left the day
            age = max(0.0, wall_now - ((hour + 1) * HOUR - 1))
            restored.extend([now - age] * count)
        budget.day_times = deque(sorted([*restored, *budget.day_times]))
    return len(restored)
