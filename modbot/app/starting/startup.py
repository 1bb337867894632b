"""Theory of operation: the service's start-up, and a game's runtime made from the store.

`start()` checks the bot's account (`connect`: the outbox's cadence, staff or not, and the
conversation guard) and every game topic, the busiest first; a game the store knows starts at
once (`start_game`: its runtime from its snapshot and the inputs after it, or all of them
folded, with the upgrade check when the rules changed: upgrade.py), and catches up on its
thread; a new game waits until its names are known forum users (`_admit_waiting`,
deal_guard.py), then is read in full (a long thread a few pages a cycle) or rebuilt from the
forum when it ran before (recovery.py). A game whose stored inputs cannot be folded does not
start, and the others do (quarantine.py). `reload` makes a running game again from what the
store committed, after an input whose handling raised.

`StartUp` is the part of `Service` (service.py) that does this; the service's own fields are
declared here for the type checker.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any

from ...adapters.budget import Priority
from ...adapters.forum import ConfigurationError, ForumError, NotFound, OverBudget
from ...adapters.forum_port import ForumPort
from ...adapters.outbox import Outbox
from ...adapters.outgoing import Batch
from ...adapters.store import Store
from ...adapters.write_limits import edits_per_day, topic_spacing
from ...core import GameSetup
from ..games.handling import Handling
from ..games.identities import Identities, bot_account
from ..games.quarantine import Quarantine
from ..games.runtime import GameRuntime
from ..posting.conversation_guard import ConversationGuard
from ..posting.outbox_hooks import OutboxHooks
from ..posting.reactions import GameOptions
from ..posting.render import later
from ..reading.intake import Intake, listed_topics
from ..reading.thread_reads import PagedReads
from ..recovery.rebuild import Rebuilt
from ..recovery.recovery import first_read
from ..recovery.snapshot import Snapshots
from ..recovery.upgrade import check_history, rules_version, version_cursor
from ..running.settings import Settings
from .deal_guard import DealGuard, reading_note, tell_held
from .seal_salt import salted

log = logging.getLogger("modbot.app.running.service")



def topic_of(setup: GameSetup) -> int:
    """The game's topic id; a game file without one is a configuration error."""
    if setup.topic_id is None:
        raise ConfigurationError(f"game {setup.name!r} has no thread yet: `modbot game new` "
                                 "opens it and writes its topic_id into the game file")
    return setup.topic_id


def _last_posted(listed: dict[int, dict[str, Any]], setup: GameSetup) -> str:
    """When the game's thread was last posted in, as the listing says ("" when unknown)."""
    return str((listed.get(setup.topic_id or 0) or {}).get("last_posted_at") or "")


class StartUp:
    """The service's start-up (service.py's `Service` is one)."""

    client: ForumPort
    store: Store
    settings: Settings
    setups: list[GameSetup]
    games: dict[int, GameRuntime]
    waiting: dict[int, GameSetup]
    outbox: Outbox | None
    guard: DealGuard
    bot_id: int | None
    hooks: OutboxHooks
    handling: Handling
    intake: Intake
    identities: Identities
    snapshots: Snapshots
    long_reads: PagedReads
    quarantine: Quarantine
    rebuilt: dict[int, Rebuilt]  # topic id -> what its rebuild did
    next_read: Callable[[], float | None] | None  # seconds to the next read (the run loop's)
    wall: Callable[[], float]  # the forum's time in seconds (the outbox's gaps)

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
                self._start_or_hold(setup)


    def take_up(self, setup: GameSetup) -> None:
        """A game opened while the daemon runs (`game new --from-signups`): it starts as a
        game named at start-up does (its names checked first), with no restart."""
        topic_id = topic_of(setup)
        if topic_id in self.games or topic_id in self.waiting:
            return
        self.setups.append(setup)
        self.waiting[topic_id] = setup  # a game the store knows is restored when it starts


    def set_up_again(self, setup: GameSetup) -> None:
        """The game's file changed while the bot runs (game_files.py): before the deal, the
        game starts again from it as after a restart (its stored inputs folded with the new
        set-up, its names checked); after the deal it goes on as dealt, and the log says so."""
        topic_id = topic_of(setup)
        game = self.games.get(topic_id)
        if game is not None and game.state.dealt:
            log.warning("game %s: its game file changed after the deal: the game goes on as "
                        "dealt (the grimoire is sealed)", setup.name)
            return
        self.setups = [setup if s.topic_id == topic_id else s for s in self.setups]
        if game is not None or topic_id in self.waiting:
            log.info("game %s: its game file changed before the deal: set up again from it",
                     setup.name)
            self.games.pop(topic_id, None)
            self.waiting[topic_id] = setup

    def _start_or_hold(self, setup: GameSetup) -> None:
        """Start a game the store knows; one whose stored inputs cannot be folded does not
        start (the others do), its Storytellers told once (quarantine.py)."""
        try:
            self.start_game(setup)
        except (ConfigurationError, ForumError):
            raise
        except Exception as exc:
            row = self.store.game(str(topic_of(setup)), setup.name)
            runtime = GameRuntime(setup, self._options(setup), row.id)
            self.store.commit(self.quarantine.fold_failed(runtime, exc))


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
                             replaced_note=self.hooks.replaced_note,
                             edits_a_day=edits_per_day(staff, me.trust_level),
                             conversation_spacing=topic_spacing(staff, me.trust_level)
                             if self.settings.post_spacing is None else spacing,
                             on_limit=self.hooks.limit, on_opened=self.hooks.opened,
                             wall=self.wall)
        self.hooks.connected(self.outbox, self.bot_id)


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
        options = self._options(setup)
        runtime = GameRuntime(setup, options, row.id)
        self._wire(runtime)
        held = set(runtime.reactor.held_posts())  # folded, so their words are rendered again
        changed = self.store.cursor(version_cursor(options.key)) != rules_version()
        restored = not changed and not held and self.snapshots.restore(runtime)
        if not restored:
            inputs = self.store.inputs(row.id)
            derived = runtime.load(inputs, collect=changed and bool(inputs), again=held)
            if changed:  # the rules changed since this game's events were stored: compare
                self.store.commit(check_history(self.store, runtime, inputs, derived))
        runtime.last_post_number = max(runtime.last_post_number, row.last_post_number)
        self.quarantine.folded(row.id)  # it folds now: a failed fold of an earlier start ends
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


    def _options(self, setup: GameSetup) -> GameOptions:
        topic_id = topic_of(setup)
        return GameOptions(topic_id, f"g{topic_id}", self.settings.vote_count_minutes,
                           self.settings.close_topic_at_night, setup.storytellers,
                           pictures=setup.pictures, vote_counts=setup.vote_counts,
                           name=setup.name)


    def _wire(self, runtime: GameRuntime) -> None:
        """The reactor's lines to the store: the game's held posts, its quarantined inputs."""
        prefix = runtime.options.key + ":"
        runtime.reactor.held_posts = lambda: [r.key for r in self.store.held(prefix)]
        runtime.reactor.quarantined = lambda: self.quarantine.listing(runtime.game_id)
        runtime.reactor.plan = self.plan_now
        runtime.reactor.newest_raw = lambda key: (row.raw if (row := self.store.newest_revision(
            key)) is not None else None)  # a countdown's post, made before a restart


    def plan_now(self) -> dict[str, Any] | None:
        """The key's request plan as `!status` shows it: when the bot reads next, what is
        left of the minute and of the day (None: no budget is kept)."""
        budget = self.client.budget
        if not budget.per_minute:
            return None
        next_read = self.next_read() if self.next_read is not None else None
        return {"next_read_s": None if next_read is None else round(next_read),
                "minute_used": budget.minute_used(), "per_minute": int(budget.per_minute),
                "day_left": budget.day_left(), "per_day": budget.per_day}

    def reload(self, game: GameRuntime) -> None:
        """The game as the inputs the store committed make it: after an input whose handling
        raised, what the runtime had done of it is forgotten (quarantine.py). A game held
        after an upgrade is held again the same way (upgrade.py)."""
        fresh = GameRuntime(game.setup, game.options, game.game_id)
        self._wire(fresh)
        if game.upgrade is not None:
            inputs = self.store.inputs(game.game_id)
            derived = fresh.load(inputs, collect=True)
            check_history(self.store, fresh, inputs, derived)  # holds it again; said already
        elif not self.snapshots.restore(fresh):
            fresh.load(self.store.inputs(game.game_id))
        row = self.store.find_game(str(game.topic_id))
        fresh.last_post_number = max(fresh.last_post_number, row.last_post_number if row else 0)
        fresh.again = []
        vars(game).clear()
        vars(game).update(vars(fresh))
        self._wire(game)


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
                    self.client.budget.due_waiting = self.store.due_count(self.wall())  # what it owes
                except OverBudget:  # its reads wait for the budget's next tokens
                    log.info("game %s: start-up waits for the request budget", setup.name)
                    put_off.append(setup.name)
                    continue
                except (ConfigurationError, ForumError) as exc:
                    log.error("game %s: cannot start yet: %s", setup.name, exc)
                    continue
                except Exception as exc:  # its stored inputs cannot be folded (quarantine.py)
                    row = self.store.game(str(topic_id), setup.name)
                    self.store.commit(self.quarantine.fold_failed(
                        GameRuntime(setup, self._options(setup), row.id), exc))
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
