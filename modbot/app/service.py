"""Theory of operation: one poll cycle reads the forum, decides, commits, then writes.

`start()` checks the bot's account and every game topic (clear errors for a bad key or a
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

`Service` is this module's start-up, cycle and outbox coordination; the reading is its
collaborator `Intake` (intake.py), the handling of each input `Handling` (handling.py). Each
post's input row, its events, the posts it causes and the cursors commit in one transaction. All
rule decisions use the posts' `created_at`; `now` only moves the clock.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from ..adapters.budget import Priority
from ..adapters.forum import (
    ConfigurationError,
    CredentialsRejected,
    ForumError,
    NotFound,
    OverBudget,
    TransientError,
)
from ..adapters.forum_port import ForumPort
from ..adapters.outbox import Outbox
from ..adapters.outgoing import Batch
from ..adapters.store import Store
from ..adapters.write_limits import edits_per_day, topic_spacing
from ..core import GameSetup
from .conversation_guard import ConversationGuard
from .deal_guard import DealGuard, reading_note, tell_held
from .edit_sweep import EditSweep
from .handling import Handling
from .identities import Identities, bot_account
from .intake import Intake, Wake, listed_topics
from .outbox_hooks import OutboxHooks
from .own_edits import OwnEdits
from .reactions import GameOptions
from .rebuild import Rebuilt
from .recovery import first_read
from .render import later
from .runtime import GameRuntime
from .seal_salt import salted
from .settings import Settings
from .snapshot import Snapshots
from .thread_index import ThreadIndex
from .thread_reads import PagedReads
from .upgrade import check_history, rules_version, version_cursor
from .watermark import Watermark

log = logging.getLogger("modbot.app.service")


def _last_posted(listed: dict[int, dict], setup: GameSetup) -> str:
    """When the game's thread was last posted in, as the listing says ("" when unknown)."""
    return str((listed.get(setup.topic_id or 0) or {}).get("last_posted_at") or "")


def topic_of(setup: GameSetup) -> int:
    """The game's topic id; a game file without one is a configuration error."""
    if setup.topic_id is None:
        raise ConfigurationError(f"game {setup.name!r} has no thread yet: `modbot game new` "
                                 "opens it and writes its topic_id into the game file")
    return setup.topic_id


@dataclass
class CycleReport:
    requests: int = 0
    posts: int = 0
    sent: int = 0
    deferred: list[str] = field(default_factory=list)
    unread: bool = False  # the live reads were put off by the budget (run_loop.py keeps them)


class Service:
    def __init__(self, client: ForumPort, store: Store, games: list[GameSetup],
                 settings: Settings | None = None) -> None:
        self.client = client
        self.store = store
        self.settings = settings or Settings()
        self.setups = games
        self.games: dict[int, GameRuntime] = {}
        self.outbox: Outbox | None = None
        self.guard = DealGuard(client)  # no deal to a name the forum does not know
        self.waiting: dict[int, GameSetup] = {}  # new games whose names are not all checked
        self.sweeper = EditSweep(self.settings.sweep_minutes)  # on a request budget
        self.quiet_until = 0.0  # monotonic time: after a 429, no request before this
        self.key_refused = 0  # cycles in a row the forum refused the key (revoked?)
        self.rebuilt: dict[int, Rebuilt] = {}  # topic id -> what its rebuild did
        self.snapshots = Snapshots(store, self.settings.snapshot_seconds)
        self.identities = Identities(client, store, self.settings.names_minutes * 60)
        self.bot_id: int | None = None  # the bot's forum user id (its posts, whatever its name)
        self.long_reads = PagedReads(store=store)  # a new or rebuilt game's thread, by id
        self.own_edits = OwnEdits(client, store)
        self.index = ThreadIndex(store)  # the bot's index post in each game thread
        self.watermark = Watermark(timedelta(seconds=self.settings.settle_seconds))
        self.hooks = OutboxHooks(self)  # what the outbox asks of the games (outbox_hooks.py)
        self.handling = Handling(client, store, self.settings, self.games, self.identities,
                                 self.watermark, self.hooks)
        self.intake = Intake(client, store, self.games, self.watermark, self.sweeper,
                             self.handling)

    # -- start-up ---------------------------------------------------------------------------

    def start(self) -> None:
        self.connect()
        todo = [s for s in self.setups if s.topic_id not in self.games
                and s.topic_id not in self.waiting]  # a retried start-up keeps what it has
        new = [s for s in todo if self._never_started(s)]
        listed = listed_topics(self.client, [s.topic_id for s in new if s.topic_id])
        todo.sort(key=lambda s: _last_posted(listed, s), reverse=True)  # the busiest first
        for setup in todo:
            self.client.pacer.wait()  # many games: under the forum's per-minute limit
            if setup in new:
                if topic_of(setup) not in listed:
                    self._check_topic(setup)  # unlisted, or missing: one read says which
                self.waiting[topic_of(setup)] = setup  # started once its names are checked
            else:
                self.start_game(setup)

    def connect(self) -> None:
        """Check the bot's account; set up the outbox (its cadence: staff or not)."""
        me = bot_account(self.client, self.setups, self.settings.bot_username)
        self.bot_id = self.handling.bot_id = self.handling.router.bot_id = me.id
        self.client.api_user_id = self.bot_id  # by id from now on: a rename leaves it working
        staff = me.staff
        spacing = self.settings.post_spacing
        if spacing is None:  # Discourse's gap between a non-staff account's posts, and a margin
            spacing = 0.0 if staff else 31.0 if me.trust_level == 0 else 6.0
        guard = ConversationGuard(self.client, self.settings.bot_username, staff,
                                  on_intruder=self.hooks.intruder, bot_id=me.id,
                                  expected_ids=self.hooks.recipient_ids)
        self.handling.conversations = guard
        self.outbox = Outbox(self.client, self.store, spacing=spacing,
                             on_failure=self.hooks.failure_report,
                             on_pm_limit=self.hooks.pm_limit,
                             max_backoff=self.settings.max_backoff, guard=guard.allows,
                             bot_id=self.bot_id, merge_replies=not staff,
                             recipients_now=self.hooks.recipients_now,
                             on_lost_post=self.hooks.lost_post,
                             edits_a_day=edits_per_day(staff, me.trust_level),
                             conversation_spacing=topic_spacing(staff, me.trust_level)
                             if self.settings.post_spacing is None else spacing,
                             on_limit=self.hooks.limit, on_opened=self.hooks.opened)

    def _never_started(self, setup: GameSetup) -> bool:
        row = self.store.find_game(str(topic_of(setup)))
        return row is None or not self.store.has_inputs(row.id)

    def _check_topic(self, setup: GameSetup) -> None:
        """One read proves the topic exists (a new game is read in full once it starts)."""
        try:
            self.client.posts_after(topic_of(setup), 0)
        except NotFound as exc:
            raise ConfigurationError(f"game {setup.name!r}: topic {setup.topic_id} not found "
                                     "(or the bot cannot see it)") from exc

    def start_game(self, setup: GameSetup, now: datetime | None = None) -> bool:
        topic_id = topic_of(setup)
        setup = salted(self.store, setup, topic_id)  # the seal's secret (seal_salt.py)
        row = self.store.game(str(topic_id), setup.name)
        options = GameOptions(topic_id, f"g{topic_id}",
                              self.settings.vote_count_minutes,
                              self.settings.close_topic_at_night, setup.storytellers,
                              pictures=setup.pictures, vote_counts=setup.vote_counts,
                              name=setup.name)
        runtime = GameRuntime(setup, options, row.id)
        runtime.reactor.held_posts = lambda: [r.key for r in self.store.held(options.key + ":")]
        held = set(runtime.reactor.held_posts())  # folded, so their words are rendered again
        changed = self.store.cursor(version_cursor(options.key)) != rules_version()
        restored = not changed and not held and self.snapshots.restore(runtime)
        if not restored:
            inputs = self.store.inputs(row.id)
            derived = runtime.load(inputs, collect=changed and bool(inputs), again=held)
            if changed:  # the rules changed since this game's events were stored: compare
                self.store.commit(check_history(self.store, runtime, inputs, derived))
        runtime.last_post_number = max(runtime.last_post_number, row.last_post_number)
        folded = len(runtime.inputs)
        self._bind(runtime, upgrade=bool(folded))
        try:  # one request a game at start: reading the topic also proves it exists
            if folded:
                caught = self.intake.catch_up(runtime)
                log.info("game %s: %d inputs %s, %d new posts caught up", setup.name, folded,
                         "restored from its snapshot" if restored else "replayed", caught)
            elif not first_read(self, runtime, now):
                return False  # a long thread: read a few pages a cycle (thread_reads.py)
        except NotFound as exc:
            raise ConfigurationError(f"game {setup.name!r}: topic {setup.topic_id} not found "
                                     "(or the bot cannot see it)") from exc
        self.games[topic_id] = runtime
        if runtime.again:  # held posts, rendered again (adapters/rendering.py)
            self.handling.commit_outgoing(runtime.again)
            runtime.again = []
        return True

    def _bind(self, game: GameRuntime, upgrade: bool) -> None:
        """Bind the game's places to their user ids (identities.py) before its first read: the
        names the game file and the store do not bind are looked up now. A new game with a
        name no one holds does not start; a running game bound for the first time (an
        upgrade) goes on, and its Storytellers are shown the result."""
        unbound = self.identities.bind(game).unbound
        if seated := self.identities.seated_observers(game):
            raise ConfigurationError(f"game {game.setup.name!r}: {', '.join(seated)} watched the grimoire as "
                                     "an observer and cannot play in it: take them out of the game file")
        if not unbound:
            return
        found = self.identities.look_up(game.topic_id, list(unbound), legacy=upgrade)
        binding = self.identities.bind(game)
        if upgrade:
            self.handling.commit_outgoing([game.reactor.note_to_storytellers(
                game.setup.storytellers, "bound:" + "+".join(sorted(n.lower() for n in found)),
                later("bound_at_upgrade.md.j2", found=found, names=binding.names))])
        elif binding.unbound:
            raise ConfigurationError(f"game {game.setup.name!r}: no forum user is called "
                                     f"{', '.join(binding.unbound)}: fix the game file")

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
        budget.due_waiting = self.store.due_count()  # background work leaves them room
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

    def _admit_waiting(self, now: datetime) -> list[str]:
        """Start each new game whose names are all forum users (see deal_guard.py); the names
        of those whose start-up is put off to a later cycle (a long thread, the budget)."""
        put_off: list[str] = []
        self.intake.started_now = set()
        self.guard.check(list(self.waiting.values()))
        for topic_id, setup in list(self.waiting.items()):
            unknown = self.guard.unknown_names(setup)
            if unknown:
                tell_held(self.store, setup, unknown)
            elif unknown is None:
                try:
                    if not self.start_game(setup, now):  # its long thread: read on next time
                        self._tell_reading(setup)
                        put_off.append(setup.name)
                        continue
                    self.client.budget.due_waiting = self.store.due_count()  # what it owes
                except OverBudget:  # its reads wait for the budget's next tokens
                    log.info("game %s: start-up waits for the request budget", setup.name)
                    put_off.append(setup.name)
                    continue
                except (ConfigurationError, ForumError) as exc:
                    log.error("game %s: cannot start yet: %s", setup.name, exc)
                    continue
                del self.waiting[topic_id]
                self.intake.started_now.add(topic_id)
        return put_off

    def _tell_reading(self, setup: GameSetup) -> None:
        """A long thread takes several cycles: said in the log, and once to the STs."""
        read, left = self.long_reads.progress(topic_of(setup))
        log.info("game %s: reading its thread before it starts: %d posts read, %d to go",
                 setup.name, read, left)
        note = reading_note(setup, read, left, self.client.budget.share(Priority.BACKGROUND))
        if self.store.row(note.key) is None:
            self.store.commit(Batch(outbox=[note]))

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
        self.client.budget.due_waiting = self.store.due_count()  # reads leave them a share
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
