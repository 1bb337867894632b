"""Theory of operation: one poll cycle reads the forum, decides, commits, then writes.

`start()` (startup.py) checks the bot's account and every game topic (clear errors for a bad key or a
missing topic), rebuilds each game from its input log (from its snapshot and the inputs after
it, `snapshot.py`; after a rules change, folding them all and comparing, `upgrade.py`), and
catches up on posts made while the bot was away (`/t/{id}/posts.json` after the game's last
post number, 20 at a time).

`cycle(now)`:
1. new thread posts: one listing of the game topics' highest post numbers, and a read by post
   number of each thread where it grew (`intake.py`: a post moved into the thread, or made
   while it was unlisted, is found like any other). One request when idle for up to 100 games.
2. the PM inbox: `GET /private-posts.json` (one request), routed to games by `pm_routing.py`:
   the Storytellers' commands, the players' night commands in their own PM with the bot, and
   whisper PMs to check (each PM is stored with the usernames of its conversation).
3. the new thread posts (each game's in post-number order) and PMs are handled merged in the
   forum's order (`created_at`, then post id), each after the clock ticks that fell due before
   it (`GameRuntime.ticks_until`); then the clock ticks up to the game's watermark: the time
   every source of the game (its thread and the inbox) is read through, less `settle` (so a
   post created just before a deadline but not yet visible is never overtaken; a failed or
   put-off read delays a deadline, never reorders it: watermark.py). A rebuild from the forum
   replays in this same order, so both derive the same posts.
A game the store has never seen starts in the first cycle where all its names are known forum
users (`deal_guard.py`); until then it is not read, and its Storytellers are told what to fix.
If its thread, or a PM it opened for the game, shows the bot's own marked posts, it ran before
on a database since lost: it is rebuilt from the forum (`recovery.py`), its earlier posts
adopted, never posted again.
4. every `names_minutes`, the seats' and Storytellers' usernames by user id, one request per
   50 users (`identities.py`): a rename is followed before the renamed player posts; seats
   not bound to their id yet (no post read from them) are looked up, 20 a check, once no
   game waits to start.
5. the edit sweep: today's posts that carried actions read again every few minutes, on a
   request budget (`edit_sweep.py`).
6. the outbox drains; a private post into an existing conversation first checks who is in it
   (`conversation_guard.py`).
A key the forum refuses (revoked) is said once and retried with backoff; no forum error ends
the cycle's caller. A post whose words fail to render is held (adapters/rendering.py).

`Service` is this module's cycle and outbox coordination, on its start-up (`StartUp`,
startup.py: the games' runtimes made from the store); the reading is its
collaborator `Intake` (intake.py), the handling of each input `Handling` (handling.py). Each
post's input row, its events, the posts it causes and the cursors commit in one transaction. All
rule decisions use the posts' `created_at`; `now` only moves the clock.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from ...adapters.budget import Priority
from ...adapters.forum import CredentialsRejected, ForumError, OverBudget, TransientError
from ...adapters.forum_port import ForumPort
from ...adapters.outbox import Outbox
from ...adapters.store import Store
from ...core import GameSetup
from ..reading.intake import Wake
from ..recovery.rebuild import Rebuilt
from ..starting.startup import StartUp
from .parts import Parts, assemble
from .settings import Settings

log = logging.getLogger("modbot.app.running.service")




@dataclass
class CycleReport:
    requests: int = 0
    posts: int = 0
    sent: int = 0
    deferred: list[str] = field(default_factory=list)
    unread: bool = False  # the live reads were put off by the budget (run_loop.py keeps them)


class Service(StartUp):
    def __init__(self, client: ForumPort, store: Store, games: list[GameSetup],
                 settings: Settings | None = None, parts: Parts | None = None,
                 wall: Callable[[], float] | None = None) -> None:
        """The service over `client` and `store`, its collaborators `parts` (compose.py
        assembles them; by default, assembled here the same way: parts.py); `wall`: the
        forum's time in seconds, where it is not real time (a rehearsal's sandbox)."""
        self.client = client
        self.wall = wall or time.time  # the outbox's gaps between posts are the forum's
        self.store = store
        self.settings = settings or Settings()
        self.setups = games
        parts = parts or assemble(client, store, self.settings, self.reload)
        self.games = parts.games
        self.guard, self.sweeper, self.snapshots = parts.guard, parts.sweeper, parts.snapshots
        self.identities, self.long_reads = parts.identities, parts.long_reads
        self.own_edits, self.index, self.watermark = parts.own_edits, parts.index, parts.watermark
        self.hooks, self.quarantine = parts.hooks, parts.quarantine
        self.handling, self.intake = parts.handling, parts.intake
        self.outbox: Outbox | None = None
        self.waiting: dict[int, GameSetup] = {}  # new games whose names are not all checked
        self.quiet_until = 0.0  # monotonic time: after a 429, no request before this
        self.key_refused = 0  # cycles in a row the forum refused the key (revoked?)
        self.rebuilt: dict[int, Rebuilt] = {}  # topic id -> what its rebuild did
        self.bot_id: int | None = None  # the bot's forum user id (its posts, whatever its name)
        self.next_read: Callable[[], float | None] | None = None  # set by the run loop

    def save_snapshots(self, every: float | None = None) -> None:
        """Snapshot the games with new inputs (see snapshot.py); `every=0` at a stop."""
        self.snapshots.save(self.games.values(), every)

    @property
    def started(self) -> Outbox:
        """The outbox, which `start()` (`connect`) sets up before any cycle or drain."""
        if self.outbox is None:
            raise RuntimeError("the service is not started: call start() first")
        return self.outbox

    # -- the cycle --------------------------------------------------------------------------

    def cycle(self, now: datetime, wake: Wake | None = None) -> CycleReport:
        """One cycle: start what waits, read what is new (only what `wake` names, when the
        forum's MessageBus woke it: intake.py), run the clock, send what is owed."""
        report = CycleReport()
        if time.monotonic() < max(self.quiet_until, self.started.quiet_until):
            report.deferred.append("waiting for the forum's Retry-After")  # after a 429
            return report
        before = self.client.requests_made
        budget = self.client.budget
        budget.due_waiting = self.store.due_count(self.wall())  # background work leaves them room
        try:
            with budget.spending(Priority.BACKGROUND):  # start-up and rebuild reads, names
                report.deferred.extend(f"game {name}: start-up put off"
                                       for name in self._admit_waiting(now))
            with budget.spending(Priority.LIVE):
                report.unread = True  # until read through (a fault clears it: _deferred)
                report.posts = self.intake.read_new(now, wake)
                report.unread = False
            with budget.spending(Priority.BACKGROUND):
                if self.identities.due(now):
                    self.handling.learn_names(now)
                if self.own_edits.due(now):  # the bot's seal and reveal, edited? (own_edits.py)
                    self.handling.commit_outgoing(self.own_edits.check(list(self.games.values()), now))
        except ForumError as exc:  # any read error: logged, read again next cycle
            self._deferred(report, exc)
        else:  # the clock moves only as far as every source of the game is read (watermark)
            self._key_works()
            self.handling.commit_outgoing(self.index.owed(self.games.values(), now))
            for game in self.games.values():
                if (through := self.watermark.through(game.topic_id)) is not None:
                    self.handling.tick_until(game, through)
            with budget.spending(Priority.BACKGROUND):
                self.sweeper.step(now, self.games, self.intake.sweep_game)
            self.save_snapshots()
        report.sent = self.drain()
        report.requests = self.client.requests_made - before
        return report

    def _deferred(self, report: CycleReport, exc: ForumError) -> None:
        report.unread = report.unread and isinstance(exc, OverBudget)
        if isinstance(exc, OverBudget):  # the rest waits for the budget's next tokens
            log.info("cycle: %s; the rest of the reading waits %.0fs", exc, exc.retry_after)
        elif isinstance(exc, CredentialsRejected):
            self._key_was_refused(exc)
        elif isinstance(exc, TransientError):
            log.warning("forum unavailable this cycle: %s", exc)
            if exc.status == 429:
                self.quiet_until = time.monotonic() + exc.retry_after
        else:
            log.error("forum read failed this cycle (tried again next cycle): %s", exc)
        report.deferred.append(str(exc))

    def _key_was_refused(self, exc: CredentialsRejected) -> None:
        """Every request answered 403 for the key (revoked): said once, then tried again after
        a backoff that doubles up to `max_backoff`; nothing read is lost (the cursors did not
        move) and nothing owed is dropped (the outbox holds it)."""
        if self.key_refused == 0:
            log.error("the forum refuses the bot's API key (%s): it was revoked or deleted, or "
                      "belongs to another account. Make a new key for %s, put it where the "
                      "configuration's api_key_env says and restart; until then modbot keeps "
                      "trying, and loses nothing", exc, self.settings.bot_username)
        self.key_refused += 1
        wait = min(2.0 ** self.key_refused, self.settings.max_backoff)
        self.quiet_until = max(self.quiet_until, time.monotonic() + wait)

    def _key_works(self) -> None:
        if self.key_refused:
            log.warning("the forum accepts the bot's API key again; resuming")
            self.key_refused = 0

    def drain(self) -> int:
        if time.monotonic() < self.quiet_until:
            return 0
        self.client.budget.due_waiting = self.store.due_count(self.wall())  # reads leave them a share
        try:
            with self.client.budget.spending(Priority.DUE):
                return self.started.drain()
        except TransientError as exc:  # raised outside a row (the marker search)
            log.warning("outbox paused: %s", exc)
            if exc.status == 429:
                self.quiet_until = time.monotonic() + exc.retry_after
            return 0
        except CredentialsRejected as exc:
            self._key_was_refused(exc)
            return 0
        except ForumError as exc:  # any other answer to the marker search: next drain
            log.error("outbox paused: %s", exc)
            return 0
