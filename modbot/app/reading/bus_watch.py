"""Theory of operation: the forum pushes; the bot wakes (Discourse's MessageBus).

A `BusWatch` thread long-polls `POST /message-bus/{client_id}/poll` (its own client: a requests
session is not shared between threads) for each game thread (`/topic/{id}`) and the bot's
new-PM channel (`/notification-alert/{bot id}`), all in one request. A poll is held by the forum
until something is published (or up to 25 s); a message that names a channel is only a
wake-up: the daemon runs a cycle at once and reads what is new with the reads it always makes
(the cursors stay the truth); a message about the bot's own post wakes nobody. Polling stays:
at start-up, after an error, and as a slow sweep (`bus_sweep_seconds`). Each channel's last id
is kept in memory and, by the daemon's thread, in the store (`bus:` cursors), so a restart
resumes from the bus's backlog; whatever a backlog no longer holds, the start-up's cursor reads
find. A forum or key that refuses the
bus (404: no bus; 403: a key without the `message_bus` scope) is left to polling, said once in
the log; other errors wait and try again (a 429's `Retry-After`). When the bus's ids go back
(Redis flushed, or a channel quiet past its backlog age), the bus answers a channel whose last
id is ahead of its own with `/__status` (message_bus' client.rb `backlog`): the watch adopts
the bus's id, so its next poll is held again (never a spin of instant answers), and wakes the
daemon for a full read, which finds through the cursors whatever the reset lost. Each poll is charged to the
daemon's own request budget (adapters/budget.py, as a live game's read): Discourse counts a
bus poll like any request, so the bus and the daemon together stay under the key's minute
instead of meeting the forum's 429. In a busy minute (half the key's minute spent) a poll
that brought news is followed by a gap (`busy_gap`: polls keep to a quarter of the minute;
13 s on a User API key's 18), so a burst of posts is read in batches, each read taking every
post made meanwhile. On a User API key (2,880 requests a day, bus polls included) the polls
follow the day's plan (`user_key_pace`, request_plan.py's `bus_interval`): the next hour's
polls spend what the day allows for it less the last hour's other requests, held back to back
while a busy game leaves room, spaced as the day runs down; a quiet game's a held poll and 50 s
apart at most often. The watch counts the gaps on the budget's clock and waits them in real
seconds (`real`): on the sandbox's rehearsal clock, 60 forum seconds pass in one real second.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any, Protocol

from ...adapters.budget import Budget, Priority
from ...adapters.forum import (
    ConfigurationError,
    CredentialsRejected,
    ForumError,
    NotFound,
    OverBudget,
    PermanentError,
    TransientError,
)
from ...adapters.store_port import CursorFamily
from ...core import GameState
from .intake import Wake
from .request_plan import LastHour, bus_interval

log = logging.getLogger("modbot.app.reading.bus_watch")
CURSOR = "bus:"  # the store's cursor of a channel's last id: "bus:/topic/12"
RESET = "/__reset"  # a wake-up no cycle can place: after a reset, a full read
RETRY_SECONDS = 10
HOLD_TIMEOUT = 40  # seconds: longer than the forum's hold (long_polling_interval, 25 s)
POLL_SHARE = 0.25  # of the key's minute, what the bus's polls may take in a busy minute


class BusWatch:
    def __init__(self, make_client: Callable[..., Any], channels: Callable[[], list[str]],
                 wake: threading.Event, last: dict[str, int] | None = None,
                 pace: Callable[[int, bool], float] = lambda _polls, _news: 0.0,
                 budget: Budget | None = None, own: Callable[[], int | None] = lambda: None,
                 real: Callable[[float], float] = lambda seconds: seconds) -> None:
        self.client = make_client()
        if budget is not None:  # the daemon's: one budget for the key, polls and all
            self.client.budget, self.client.charge_as = budget, Priority.LIVE
        else:
            self.client.budget.per_minute = 0  # one held poll at a time: its own pace
        self.client.timeout = HOLD_TIMEOUT
        self.channels = channels
        # seconds from a poll's start to the next's, given the last hour's polls and whether
        # this one brought news (a User API key's day: below); counted on the budget's clock,
        # waited in real seconds (`real`)
        self.pace, self.real = pace, real
        self.clock: Callable[[], float] = budget.clock if budget is not None else time.monotonic
        self.polls = LastHour()  # the polls of the last hour, by `clock`
        self.own = own  # the bot's user id: its own posts wake nobody
        self.named: set[str] = set()  # the channels with news since the daemon last took them
        self.named_lock = threading.Lock()
        self.wake = wake
        self.last: dict[str, int] = dict(last or {})
        self.client_id = uuid.uuid4().hex
        self.refused: str | None = None  # why the forum refused the bus (then: polling only)
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, name="modbot-bus", daemon=True)

    @property
    def healthy(self) -> bool:
        return self.refused is None and self.thread.is_alive()

    def start(self) -> BusWatch:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()

    def _run(self) -> None:
        while not self.stopping.is_set():
            try:
                fresh = any(self.last.get(c, -1) < 0 for c in self.channels())
                began = self.clock()
                news = self.poll_once()
                left = self.pace(self.recent_polls(), bool(news)) - (self.clock() - began)
                if news:  # a burst is read in batches, and within the day's plan
                    self._wait(max(self.busy_gap(), left))
                elif not fresh:  # the hold ended quietly: maybe wait
                    self._wait(left)
            except (NotFound, ConfigurationError, CredentialsRejected, PermanentError) as exc:
                self.refused = str(exc)
                log.warning("the forum refuses MessageBus (%s): polling only", exc)
                return
            except OverBudget as exc:  # the minute is the daemon's: poll when it has room
                self._wait(exc.retry_after)
            except TransientError as exc:  # a fault waits real seconds, whatever the clock
                self.stopping.wait(max(self.real(exc.retry_after), RETRY_SECONDS))
            except ForumError as exc:
                log.info("MessageBus poll failed (%s): trying again", exc)
                self.stopping.wait(RETRY_SECONDS)

    def _wait(self, seconds: float) -> None:
        """Wait `seconds` of the budget's clock (the forum's, in a rehearsal on it)."""
        if seconds > 0:
            self.stopping.wait(self.real(seconds))

    def recent_polls(self) -> int:
        """The polls made in the last hour (the plan counts them apart from other requests)."""
        return self.polls.count(self.clock())

    def busy_gap(self) -> float:
        """Seconds before the next poll after one with news: none while the key's minute has
        room; once half of it is spent, polls keep to a quarter of the minute (`POLL_SHARE`),
        so a burst of posts (a day's votes within two minutes) costs a poll and a read per
        gap, each read taking all the posts that came meanwhile, not a poll and a read each."""
        budget = self.client.budget
        if not budget.per_minute or budget.minute_used() < budget.per_minute / 2:
            return 0.0
        return 60.0 / max(float(budget.per_minute) * POLL_SHARE, 1.0)

    def poll_once(self, *, hold: bool = True) -> list[dict[str, Any]]:
        """One poll of every channel; wakes the daemon when a channel had news."""
        subscriptions = {c: self.last.get(c, -1) for c in self.channels()}
        data: dict[str, int | str] = dict(subscriptions)
        if not hold:
            data["dlp"] = "t"
        began = self.clock()
        answer = self.client._request("POST", f"/message-bus/{self.client_id}/poll",
                                      data=data) or []
        self.polls.add(began)  # made (and charged): the plan counts it
        news: list[dict[str, Any]] = []
        for message in answer:
            channel = message.get("channel")
            if channel == "/__status":  # where each channel stands: resume from there
                for name, last in (message.get("data") or {}).items():
                    if self.last.get(name, -1) > int(last):  # the bus went back: a reset
                        log.warning("MessageBus channel %s went back from id %s to %s (the "
                                    "bus was reset): reading everything", name,
                                    self.last[name], last)
                        news.append({"channel": RESET, "message_id": int(last)})
                    self.last[name] = int(last)
                continue
            if channel in subscriptions:
                self.last[channel] = max(self.last.get(channel, 0), int(message["message_id"]))
                if not self._own(message):
                    news.append(message)
        if news:
            with self.named_lock:
                self.named.update(m["channel"] for m in news)
            self.wake.set()
        return news

    def take_wake(self) -> Wake | None:
        """What the channels with news since the last call name (what a woken cycle reads), or
        None when they name nothing it can place (the cycle then reads everything)."""
        with self.named_lock:
            named, self.named = self.named, set()
        return Wake.of(named) if named else None

    def has_news(self) -> bool:
        """A channel had news not yet taken (`take_wake`)."""
        with self.named_lock:
            return bool(self.named)

    def _own(self, message: dict[str, Any]) -> bool:
        """A post the bot made itself (a topic's message names its author): nothing to read,
        and a wake-up for it would cost a cycle's reads after every post the bot sends."""
        data = message.get("data")
        me = self.own()
        return me is not None and isinstance(data, dict) and data.get("user_id") == me


class Busy(Protocol):
    """What tells whether a game is busy (games/runtime.py's `GameRuntime`)."""

    @property
    def state(self) -> GameState: ...
    @property
    def clock_at(self) -> datetime | None: ...


BUSY_DEADLINE = 2 * 3600  # seconds: a deadline this near keeps the poll held continuously
BUSY_SINCE = 30 * 60  # and so does a post this recent (votes being cast)


def user_key_pace(games: Iterable[Busy], now: datetime, budget: Budget, polls: int,
                  news: bool = False) -> float:
    """Seconds from one bus poll's start to the next's on a User API key's 2,880 requests a
    day: the day plan's (request_plan.py `bus_interval`) for a busy game (a deadline near, a
    post in the last half hour, or `news`: the poll just announced a post the daemon has not
    read yet) or none, the last hour's `polls` apart from its other requests."""
    busy = news or any(game_busy(game, now) for game in games)
    left, leaving, recent = budget.day_outlook()
    return bus_interval(budget.per_day, left if budget.per_day else None, busy,
                        leaving=leaving, others=max(0, recent - polls))


def game_busy(game: Busy, now: datetime) -> bool:
    state, latest = game.state, game.clock_at
    if state.phase_ends_at is not None and \
            0 <= (state.phase_ends_at - now).total_seconds() < BUSY_DEADLINE:
        return True
    return latest is not None and (now - latest).total_seconds() < BUSY_SINCE


def stored_last(store: CursorFamily) -> dict[str, int]:
    """The channels' last ids the store kept (a restart resumes from the bus's backlog)."""
    return {name[len(CURSOR):]: value for name, value in store.cursors_with(CURSOR).items()}


def saved_last(watch: BusWatch) -> dict[str, int]:
    return {CURSOR + channel: last for channel, last in watch.last.items() if last >= 0}

