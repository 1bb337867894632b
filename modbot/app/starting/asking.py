"""Theory of operation: a long check asks the forum patiently, and says how far it has got.

`modbot check` of a forum's worth of games makes hundreds of requests on a key whose minute
allows 60 (an admin's) or 20 (a User API key's). `Asker.ask` makes one request; when the
forum answers 429 (its `Retry-After`, or `extras.wait_seconds`: adapters/forum.py) or the key's
own request budget has no token for it yet (`OverBudget`), it waits that long and asks again,
so the check finishes instead of failing every name past the minute. Only when a daemon runs
on the same database (the run lock says so: its requests and the check's share the key) does
a 429 stop the check, with one line (`KeyBusy`). The waiting is `sleep`, injected (a test's
forum clock moves instead).

`Progress` counts what is left to ask; on a terminal it draws a bar (tqdm) with the requests
to go and how long the forum's limit makes them, otherwise it prints a plain line every
`LINE_EVERY` requests.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO, TypeVar

from ...adapters.forum import OverBudget, TransientError

T = TypeVar("T")
LINE_EVERY = 25  # requests between two plain progress lines (output not a terminal)


class KeyBusy(Exception):
    """The forum refuses this key more requests for now (429), and a daemon uses it."""

    def __init__(self, retry_after: float) -> None:
        super().__init__(retry_after)
        self.retry_after = retry_after


class Progress:
    """How many requests the check has to go, shown as it goes."""

    def __init__(self, per_minute: float, out: TextIO | None = None,
                 bar: bool | None = None) -> None:
        self.per_minute = per_minute
        self.out = out if out is not None else sys.stderr
        self.bar_wanted = self.out.isatty() if bar is None else bar
        self.bar = None
        self.total = 0
        self.done = 0

    def plan(self, requests: int, what: str) -> None:
        """`requests` more to make (`what` they are for)."""
        self.total += requests
        if self.total < LINE_EVERY:
            return
        minutes = self.total / self.per_minute if self.per_minute else 0
        if self.bar_wanted:
            from tqdm import tqdm
            if self.bar is None:
                self.bar = tqdm(total=self.total, unit="req", file=self.out, desc="modbot check")
            else:
                self.bar.total = self.total
                self.bar.refresh()
        print(f"check: {what}: {self.total - self.done} requests to go (about "
              f"{max(1, round(minutes))} min at the forum's {self.per_minute:g} a minute)",
              file=self.out)

    def step(self) -> None:
        self.done += 1
        if self.bar is not None:
            self.bar.update(1)
        elif self.total >= LINE_EVERY and self.done % LINE_EVERY == 0:
            print(f"check: {self.done} of {self.total} requests made", file=self.out)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


class Asker:
    """Requests made patiently (see the top)."""

    def __init__(self, sleep: Callable[[float], None] = time.sleep, daemon_running: bool = False,
                 progress: Progress | None = None) -> None:
        self.sleep = sleep
        self.daemon_running = daemon_running
        self.progress = progress
        self.waited = 0.0  # seconds spent waiting for the forum's limit

    def ask(self, request: Callable[[], T]) -> T:
        while True:
            try:
                answer = request()
            except OverBudget as exc:  # the key's own minute: wait for its next token
                self._wait(exc.retry_after)
                continue
            except TransientError as exc:
                if exc.status != 429:
                    raise
                if self.daemon_running:
                    raise KeyBusy(exc.retry_after) from exc
                self._wait(exc.retry_after)
                continue
            if self.progress is not None:
                self.progress.step()
            return answer

    def _wait(self, seconds: float) -> None:
        seconds = max(seconds, 1.0)
        self.waited += seconds
        self.sleep(seconds)
