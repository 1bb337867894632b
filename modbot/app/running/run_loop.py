"""Theory of operation: the daemon's loop (`modbot run` once the service has started).

One thread runs every cycle; the bus (bus_watch.py), when the forum has one, runs in its own
and only wakes this one. The loop runs:

- a full cycle every `poll_seconds` (with a healthy bus, only every `bus_sweep_seconds`: the
  bus wakes the bot for the rest), and at once when a game's clock has a moment due (a
  deadline, a lock, a reminder: checked each second, `Intake.moment_due`);
- a woken cycle when the bus named something new: only what it named is read;
- the outbox's drain every second, and at the moment a post held for one of the forum's gaps
  (between posts, between new conversations) may go (`Outbox.ready_at`): a deal of role PMs
  goes at the forum's pace, not a second later each.

A cycle whose live reads the request budget put off (`CycleReport.unread`) keeps what it was
to read (the bus's wake, or everything) and runs again as soon as the budget has room for a
live read, before anything the bus names later: a post the forum announced is never left for
the next full sweep because a busy minute took its turn. Reads put off for background work
(start-ups, names) run again when the budget has room for background work.

The loop paces itself by its clock's seconds (`seconds`): real time, or in a rehearsal on the
sandbox's clock the forum's, which the budget and the outbox count too, so a day at 60x spends
the requests a real day would.

State is the loop's own (`RunLoop`), not shared cells. One `Stop` serves the whole run: a
signal (SIGTERM, SIGINT) from the start-up on, or `max_cycles`, sets it, and the loop ends after
the current cycle.
"""

from __future__ import annotations

import logging
import math
import signal
import threading
import time
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

import schedule

from ...adapters.budget import Priority, day_cursors
from ...adapters.forum import ForumError
from ...adapters.outgoing import Batch
from ...adapters.store_port import LoopStore
from ..reading.bus_watch import BusWatch, game_busy, saved_last, stored_last, user_key_pace
from ..reading.intake import Wake
from ..reading.request_plan import REQUESTS_A_READ, LastHour, poll_every, sweep_every
from ..starting.game_files import GameFiles
from ..starting.signups import SignupWatch

if TYPE_CHECKING:
    from ...adapters.forum import ForumClient
    from .service import Service


class GameClock(Protocol):
    """The bot's clock (daemon.py's `ForumClock` or `RehearsalClock`)."""

    def now(self) -> datetime: ...
    def seconds(self) -> float: ...


class LoopConfig(Protocol):
    """What the loop reads of the daemon's configuration (daemon.py's `Config`)."""

    poll_seconds: float
    bus_sweep_seconds: float
    message_bus: bool
    rehearsal_start: datetime | None
    forum_clock: bool
    games: list[str]  # the game files (game_files.py watches them)

    @property
    def key_kind(self) -> str: ...
    def forum_client(self) -> ForumClient: ...

log = logging.getLogger("modbot")
EVERYTHING = "everything"  # what a full cycle put off reads: everything again


class Stop:
    """Whether the run is to stop: set by a signal, or by the loop itself (`max_cycles`)."""

    def __init__(self) -> None:
        self.flag = False

    def __call__(self, signum: int, _frame: object) -> None:
        log.info("signal %s: stopping after this cycle", signum)
        self.flag = True

    def catch_signals(self) -> Stop:
        signal.signal(signal.SIGTERM, self)
        signal.signal(signal.SIGINT, self)
        return self


class RunLoop:
    def __init__(self, config: LoopConfig, client: ForumClient, store: LoopStore, service: Service,
                 watch: SignupWatch, clock: GameClock, max_cycles: int | None = None,
                 stop: Stop | None = None) -> None:
        self.config, self.client, self.store = config, client, store
        self.service, self.watch, self.clock = service, watch, clock
        # the loop's pace in the clock's seconds: a rehearsal's forum minute is its minute, as
        # the budget and the sandbox's limiter count it (real time: the wall's seconds)
        self.seconds: Callable[[], float] = getattr(clock, "seconds", time.monotonic)
        self.max_cycles = max_cycles
        self.stop = stop or Stop()
        self.cycles = 0
        self.swept_at = float("-inf")  # the last full cycle (the sweep's clock)
        self.reads = LastHour()  # the full reads of the last hour
        self.background_owed = False  # the last cycle put off background reads
        self.unread: Wake | str | None = None  # live reads put off: a wake, or EVERYTHING
        self.seen_now = clock.now()  # the main thread's last reading, for the bus's thread
        self.bus: BusWatch | None = None  # started after the first cycle (games known then)
        self.files = GameFiles(config.games)  # changed before the deal
        self.woken = threading.Event()
        self.was_due = False  # a moment was due after the last cycle (it did not pass it)
        self.put_off = False  # the last cycle waited for the key's minute (said once)
        service.next_read = self.next_read_in  # `!status` shows the plan (startup.py)
        shortest = self.poll_every(busy=True)  # the key's limits make the poll's pace
        if shortest > config.poll_seconds:  # (request_plan.py)
            log.info("poll_seconds %g: the key sustains a full read every %.0f s at most; the "
                     "bot polls that often (with the MessageBus, its news wake it sooner)",
                     config.poll_seconds, shortest)

    # -- one cycle ------------------------------------------------------------------------

    def cycle(self, woken: bool = False, retry: bool = False) -> None:
        """A full cycle, or (`woken`) one that reads what the bus named; `retry`: the reads a
        cycle put off, now the budget has room (with anything the bus named since)."""
        if not woken and not retry and self._sweep_can_wait():
            self._counted()  # the bus wakes the bot; a full poll only every bus_sweep_seconds,
            return  # or when the clock has something due (a deadline, a lock, a reminder)
        if not woken and not retry and self._poll_can_wait():
            return  # without the bus: the key's pace (request_plan.py), or something due
        wake = self._what_to_read(woken, retry)
        room = self.client.budget.wait_for(Priority.LIVE)
        if room > 0:  # the key's minute is spent: the reads wait for its room (the plan's)
            self.unread = EVERYTHING if wake is None else wake
            if not self.put_off:
                log.info("the key's minute is spent: the next read in %.0fs", room)
            self.put_off = True
            return
        self.put_off = False
        if wake is None:
            self.swept_at = self.seconds()  # a full cycle: the sweep's clock starts again
            self.reads.add(self.swept_at)  # the plan counts the last hour's reads
        if kept := self._kept():  # a restart resumes from the bus's backlog, and counts the
            self.store.commit(Batch(cursors=kept))  # key's day so far
        try:
            self.seen_now = self.clock.now()
            for opened in self.watch.seated_games():  # `game new --from-signups` ran: no
                self.service.take_up(opened)  # restart needed (app/starting/signups.py)
            for changed in self.files.changed():  # `setup --write` after the seating: the
                self.service.set_up_again(changed)  # game made again, until the deal
            self.watch.cycle(self.seen_now)  # the sign-up threads' lists
            report = self.service.cycle(self.seen_now, wake)  # woken: what the bus named
        except ForumError as exc:  # never ends a running daemon: logged, tried next cycle
            log.error("cycle failed (tried again next cycle): %s", exc)
            return
        except Exception:  # a fault outside any one input (those are quarantined: quarantine.py)
            log.exception("cycle failed on an error modbot did not expect; the daemon goes on "
                          "and tries again next cycle (please report it with this log)")
            return
        self.background_owed = bool(report.deferred) and not report.unread
        if report.unread:  # kept: read again as soon as a live read has room
            self.unread = EVERYTHING if wake is None else wake
        self.was_due = self.due()  # still due: the moment waits for the next poll, not a second
        self._counted()
        log.info("cycle %d: %d requests, %d posts handled, %d sent%s", self.cycles,
                 report.requests, report.posts, report.sent,
                 f", deferred: {report.deferred[0]}" if report.deferred else "")

    def next_read_in(self) -> float:
        """Seconds until this loop reads the forum again at the latest: at once when reads
        wait for room (then when the key's minute has it), else the next full read (with a
        working bus, its news wakes a read sooner)."""
        room = self.client.budget.wait_for(Priority.LIVE)
        if self.unread is not None:
            return room
        return max(room, self._full_read_every() - (self.seconds() - self.swept_at), 0.0)

    def poll_every(self, busy: bool | None = None) -> float:
        """The interval between full reads without the bus now: `poll_seconds`, or what the
        key sustains (request_plan.py): a busy game's pace, or the day's."""
        budget = self.client.budget
        if busy is None:
            busy = any(game_busy(game, self.seen_now) for game in self.service.games.values())
        left, leaving, recent = budget.day_outlook()
        reads = self.reads.count(self.seconds())
        return poll_every(self.config.poll_seconds, budget.per_minute, budget.per_day,
                          left if budget.per_day else None, busy, leaving=leaving,
                          others=max(0, recent - REQUESTS_A_READ * reads))

    def _bus_healthy(self) -> bool:
        return self.bus is not None and self.bus.healthy

    def _poll_can_wait(self) -> bool:
        """A timed cycle without a healthy bus, nothing due or owed, sooner than the key's
        pace: no reads."""
        if self._bus_healthy() or self.unread is not None or self.due():
            return False
        return self.seconds() - self.swept_at < self.poll_every()

    def _sweep_can_wait(self) -> bool:
        """A timed cycle with a healthy bus, nothing due and nothing owed: no reads."""
        owed = self.background_owed and not self.client.budget.wait_for(Priority.BACKGROUND)
        return self._bus_healthy() and not self.due() and not owed and self.unread is None \
            and self.seconds() - self.swept_at < self._full_read_every()

    def _what_to_read(self, woken: bool, retry: bool) -> Wake | None:
        """What this cycle reads: the bus's named channels and any put-off reads (a woken
        cycle or a retry), or everything (None)."""
        named = self.bus.has_news() if self.bus is not None else False
        pushed = self.bus.take_wake() if self.bus is not None else None  # taken either way:
        held, self.unread = self.unread, None  # a full cycle reads it all
        if held == EVERYTHING or not (woken or retry) or ((named or woken) and pushed is None):
            return None  # (a bus wake-up it cannot place: everything)
        parts = [w for w in (held, pushed) if isinstance(w, Wake)]
        return Wake(frozenset().union(*(w.topics for w in parts)), any(w.pms for w in parts))

    def due(self) -> bool:
        """A game has something due on the clock by now (the cycle must run, bus or not)."""
        return self.service.intake.moment_due(list(self.service.games), self.clock.now())

    def _counted(self) -> None:
        self.cycles += 1
        if self.max_cycles is not None and self.cycles >= self.max_cycles:
            self.stop.flag = True

    def _kept(self) -> dict[str, int]:
        """What a restart resumes from: the bus's last ids, a User API key's day."""
        kept = saved_last(self.bus) if self.bus is not None else {}
        if self.client.budget.per_day:
            kept.update(day_cursors(self.client.budget, self.service.wall()))
        return kept

    # -- the loop -------------------------------------------------------------------------

    def run(self) -> int:
        scheduler = schedule.Scheduler()
        scheduler.every(max(1, math.ceil(self.config.poll_seconds))).seconds.do(self.cycle)
        scheduler.every(1).seconds.do(self._each_second)
        self.cycle()
        self._start_bus()
        while not self.stop.flag:
            scheduler.run_pending()
            if self.woken.wait(0.05):
                self.woken.clear()
                self.cycle(woken=True)
            elif self._unread_has_room():
                self.cycle(retry=True)
            elif self.service.started.ready_at <= self.service.wall():
                self.service.started.ready_at = float("inf")  # one drain a hint (it sets
                self._drain()  # the next): a post held for a forum's gap goes on time
        self._shut_down()
        return 0

    def _each_second(self) -> None:
        """The outbox's drain; and a cycle at once when a moment is due (not at the next
        poll), unless live reads wait for the budget (they run first, when it has room)."""
        if self.unread is None and not self.was_due and self.due():
            self.cycle()
        elif self.seconds() - self.swept_at >= self._full_read_every():
            self.cycle()  # the key's pace, or the bus's sweep, to the second of its clock
        self._drain()

    def _full_read_every(self) -> float:
        """Seconds of the loop's clock between full reads: the bus's sweep while it works,
        else the key's pace (request_plan.py). On the sandbox's clock at 60x the sweep's 300
        s pass in five real ones: the scheduler's real-time tick alone would sweep every 15
        forum minutes."""
        if not self._bus_healthy():
            return self.poll_every()
        budget = self.client.budget
        return sweep_every(self.config.bus_sweep_seconds, budget.per_day, budget.day_left())

    def _drain(self) -> None:
        """The outbox's drain; an error it did not expect is logged, and the daemon goes on."""
        try:
            self.service.drain()
        except Exception:
            log.exception("the outbox's drain failed on an error modbot did not expect; it is "
                          "tried again in a second (please report it with this log)")

    def _unread_has_room(self) -> bool:
        return self.unread is not None and not self.client.budget.wait_for(Priority.LIVE)

    def _start_bus(self) -> None:
        config = self.config
        if not config.message_bus or config.rehearsal_start is not None:
            return  # (the bot's own rehearsal clock is not the forum's: its bus would lag)
        budget, service = self.client.budget, self.service
        pace = (lambda polls, news: user_key_pace(tuple(service.games.values()),
                                                  self.seen_now, budget, polls, news)) \
            if config.key_kind == "user" else (lambda _polls, _news: 0.0)
        # the plan's seconds are the clock's: the forum's in a rehearsal on it (daemon.py)
        real = getattr(self.clock, "real_seconds", lambda seconds: seconds)
        self.bus = BusWatch(config.forum_client, self._channels, self.woken,
                            stored_last(self.store), pace, budget,
                            own=lambda: service.bot_id, real=real).start()

    def _channels(self) -> list[str]:
        """What the bus watches: each game thread and sign-up thread, and the bot's new PMs."""
        service = self.service
        topics = [*service.games, *(s.topic_id for s in self.watch.setups if s.topic_id)]
        alerts = [f"/notification-alert/{service.bot_id}"] if service.bot_id else []
        return [f"/topic/{t}" for t in topics] + alerts

    def _shut_down(self) -> None:
        if self.bus is not None:
            self.bus.stop()
        self.store.commit(Batch(cursors=self._kept()))
        self.service.drain()  # what the last cycle owes goes out before the stop
        self.service.save_snapshots(every=0)  # the next start folds nothing
        self.store.close()
        log.info("stopped")
