"""Theory of operation: one poll cycle reads the forum, decides, commits, then writes.

`start()` checks the bot's account and every game topic (clear errors for a bad key or a
missing topic), rebuilds each game from its input log (from its snapshot and the inputs after
it, `snapshot.py`; after a rules change, folding them all and comparing, `upgrade.py`), and
catches up on posts made while the bot was away (`/t/{id}/posts.json` after the game's last
post number, 20 at a time).

`cycle(now)`:
1. new thread posts: one listing of the game topics' highest post numbers, and a read by post
   number of each thread where it grew (`intake.py`: a post moved into the thread, or made
   while it was unlisted, is found like any other). One request when idle for up to 30 games.
2. the PM inbox: `GET /private-posts.json` (one request), routed to games by `pm_routing.py`:
   the Storytellers' commands, the players' night commands in their own PM with the bot, and
   whisper PMs to check (each PM is stored with the usernames of its conversation).
3. the new thread posts (each game's in post-number order) and PMs are handled merged in the
   forum's order (`created_at`, then post id), each after the clock ticks that fell due before
   it (`GameRuntime.ticks_until`); then the clock ticks up to `now - settle` (so a post created
   just before a deadline but not yet visible is never overtaken). A rebuild from the forum
   replays in this same order, so both derive the same posts.
A game the store has never seen starts in the first cycle where all its names are known forum
users (`deal_guard.py`); until then it is not read, and its Storytellers are told what to fix.
If its thread, or a PM it opened for the game, shows the bot's own marked posts, it ran before
on a database since lost: it is rebuilt from the forum (`recovery.py`), its earlier posts
adopted, never posted again.
4. the edit sweep: today's posts that carried actions read again every few minutes, on a
   request budget (`edit_sweep.py`).
5. the outbox drains.
Each post's input row, its events, the posts it causes and the cursors commit in one
transaction. All rule decisions use the posts' `created_at`; `now` only moves the clock.
"""

from __future__ import annotations

import heapq
import logging
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from ..adapters.forum import (
    ConfigurationError,
    CredentialsRejected,
    ForumClient,
    ForumError,
    NotFound,
    TransientError,
)
from ..adapters.outbox import Outbox
from ..adapters.store import Batch, Outgoing, Store
from ..core import GameSetup
from .conversation_guard import ConversationGuard
from .deal_guard import DealGuard, held_note
from .edit_sweep import BATCH, EditSweep
from .identities import Identities
from .intake import changed_topics, new_posts
from .late import is_late
from .pm_routing import Ask, Member, PmRouter, member
from .reactions import GameOptions
from .rebuild import (
    Adoption,
    Rebuilt,
    ran_before,
    read_thread,
    when,
    when_edited,
)
from .recovery import rebuild_game
from .render import render
from .runtime import GameRuntime, Step, sha1
from .snapshot import Snapshots
from .upgrade import check_history, rules_version, version_cursor

log = logging.getLogger("modbot.app.service")
PAGE = 50
MAX_PAGES = 10


@dataclass
class Settings:
    bot_username: str = "modbot"
    settle_seconds: float = 10
    vote_count_minutes: float = 60
    sweep_minutes: float = 3
    post_spacing: float | None = None  # None: 0 for staff accounts, 6 s otherwise
    close_topic_at_night: bool = False
    max_backoff: float = 60  # seconds between retries after 5xx, timeouts, dropped connections
    snapshot_seconds: float = 60  # at most one snapshot of a game this often (snapshot.py)
    names_minutes: float = 10  # how often seats' usernames are checked by id (identities.py)


@dataclass
class CycleReport:
    requests: int = 0
    posts: int = 0
    sent: int = 0
    deferred: list[str] = field(default_factory=list)


class Service:
    def __init__(self, client: ForumClient, store: Store, games: list[GameSetup],
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
        self.router = PmRouter(client, self.settings.bot_username)
        self.quiet_until = 0.0  # monotonic time: after a 429, no request before this
        self.key_refused = 0  # cycles in a row the forum refused the key (revoked?)
        self.adopt = Adoption()  # the bot's posts a rebuild found on the forum (rebuild.py)
        self.rebuilding: GameRuntime | None = None
        self.rebuilt: dict[int, Rebuilt] = {}  # topic id -> what its rebuild did
        self.snapshots = Snapshots(store, self.settings.snapshot_seconds)
        self.identities = Identities(client, store, self.settings.names_minutes * 60)
        self.bot_id: int | None = None  # the bot's forum user id (its posts, whatever its name)

    # -- start-up ---------------------------------------------------------------------------

    def start(self) -> None:
        self.connect()
        for setup in self.setups:
            if setup.topic_id in self.games or setup.topic_id in self.waiting:
                continue  # a retried start-up keeps the games it has
            self.client.pacer.wait()  # many games: under the forum's per-minute limit
            if self._never_started(setup):
                self._check_topic(setup)
                self.waiting[setup.topic_id] = setup  # started once its names are checked
            else:
                self.start_game(setup)

    def connect(self) -> None:
        """Check the bot's account; set up the outbox (its cadence: staff or not)."""
        try:
            me = self.client.user(self.settings.bot_username)
        except NotFound as exc:
            raise ConfigurationError(f"the bot account {self.settings.bot_username!r} does not "
                                     "exist on the forum") from exc
        self.bot_id = me.get("id")
        staff = bool(me.get("admin") or me.get("moderator"))
        spacing = self.settings.post_spacing
        guard = ConversationGuard(self.client, self.settings.bot_username, staff,
                                  on_intruder=self._intruder)
        self.outbox = Outbox(self.client, self.store,
                             spacing=(0.0 if staff else 6.0) if spacing is None else spacing,
                             on_failure=self._failure_report,
                             max_backoff=self.settings.max_backoff, guard=guard.allows)

    def _never_started(self, setup: GameSetup) -> bool:
        if setup.topic_id is None:
            raise ConfigurationError(f"game {setup.name!r}: set game.topic_id")
        row = self.store.find_game(str(setup.topic_id))
        return row is None or not self.store.has_inputs(row.id)

    def _check_topic(self, setup: GameSetup) -> None:
        """One read proves the topic exists (a new game is read in full once it starts)."""
        try:
            self.client.posts_after(setup.topic_id, 0)
        except NotFound as exc:
            raise ConfigurationError(f"game {setup.name!r}: topic {setup.topic_id} not found "
                                     "(or the bot cannot see it)") from exc

    def start_game(self, setup: GameSetup, now: datetime | None = None) -> None:
        if setup.topic_id is None:
            raise ConfigurationError(f"game {setup.name!r}: set game.topic_id")
        row = self.store.game(str(setup.topic_id), setup.name)
        options = GameOptions(setup.topic_id, f"g{setup.topic_id}",
                              self.settings.vote_count_minutes,
                              self.settings.close_topic_at_night, setup.storytellers,
                              pictures=setup.pictures, vote_counts=setup.vote_counts)
        runtime = GameRuntime(setup, options, row.id)
        changed = self.store.cursor(version_cursor(options.key)) != rules_version()
        restored = not changed and self.snapshots.restore(runtime)
        if not restored:
            inputs = self.store.inputs(row.id)
            derived = runtime.load(inputs, collect=changed and bool(inputs))
            if changed:  # the rules changed since this game's events were stored: compare
                self.store.commit(check_history(self.store, runtime, inputs, derived))
        runtime.last_post_number = max(runtime.last_post_number, row.last_post_number)
        self.identities.bind(runtime)
        folded = len(runtime.inputs)
        try:  # one request a game at start: reading the topic also proves it exists
            if folded:
                caught = self.catch_up(runtime)
                log.info("game %s: %d inputs %s, %d new posts caught up", setup.name, folded,
                         "restored from its snapshot" if restored else "replayed", caught)
            else:
                self._first_read(runtime, now)
        except NotFound as exc:
            raise ConfigurationError(f"game {setup.name!r}: topic {setup.topic_id} not found "
                                     "(or the bot cannot see it)") from exc
        self.games[setup.topic_id] = runtime

    def save_snapshots(self, every: float | None = None) -> None:
        """Snapshot the games with new inputs (see snapshot.py); `every=0` at a stop."""
        self.snapshots.save(self.games.values(), every)

    def _first_read(self, game: GameRuntime, now: datetime | None) -> None:
        """A game with nothing stored: new, or run before from a database since lost (the bot's
        own marked posts in its thread or its PMs for the game say which). See rebuild.py."""
        posts = read_thread(self.client, game.topic_id)
        if ran_before(self.client, self.settings.bot_username, game.options.key, game.topic_id,
                      posts):
            self.rebuilt[game.topic_id] = rebuild_game(self, game, now)
        else:
            self.handle_in_order({game: posts}, [])

    def catch_up(self, game: GameRuntime) -> int:
        """Read the game topic after its last post number, 20 posts a request."""
        return self.handle_in_order({game: new_posts(self.client, game.topic_id,
                                                     game.last_post_number)}, [])

    # -- the cycle --------------------------------------------------------------------------

    def cycle(self, now: datetime) -> CycleReport:
        report = CycleReport()
        if time.monotonic() < max(self.quiet_until, self.outbox.quiet_until):
            report.deferred.append("waiting for the forum's Retry-After")  # after a 429
            return report
        before = self.client.requests_made
        try:
            self._admit_waiting(now)
            report.posts = self._read_new()
            if self.identities.due(now):
                self._follow_renames(self.identities.renames(now), now)
        except ForumError as exc:  # any read error: logged, read again next cycle
            self._deferred(report, exc)
        else:  # the clock moves only once the posts before it are read
            self._key_works()
            for game in self.games.values():
                self.tick_until(game, now - timedelta(seconds=self.settings.settle_seconds))
            self.sweeper.step(now, self.games, self._sweep_game)
            self.save_snapshots()
        report.sent = self.drain()
        report.requests = self.client.requests_made - before
        return report

    def _admit_waiting(self, now: datetime) -> None:
        """Start each new game whose names are all forum users (see deal_guard.py)."""
        self.guard.new_cycle()
        for topic_id, setup in list(self.waiting.items()):
            unknown = self.guard.unknown_names(setup)
            if unknown:
                self._tell_held(setup, unknown)
            elif unknown is None:
                try:
                    self.start_game(setup, now)
                except (ConfigurationError, ForumError) as exc:
                    log.error("game %s: cannot start yet: %s", setup.name, exc)
                    continue
                del self.waiting[topic_id]

    def _tell_held(self, setup: GameSetup, unknown) -> None:
        note = held_note(setup, unknown)
        if self.store.row(note.key) is None:  # told once
            log.warning("game %s: not started: %s %s not a forum user", setup.name,
                        ", ".join(name for _, name, _ in unknown),
                        "is" if len(unknown) == 1 else "are")
            self.store.commit(Batch(outbox=[note]))

    def _deferred(self, report: CycleReport, exc: ForumError) -> None:
        if isinstance(exc, CredentialsRejected):
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
        try:
            return self.outbox.drain()
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

    def _read_new(self) -> int:
        """The new posts of the game threads (found by `intake.py`) and the new PMs, handled in
        the order the forum made them (`created_at`, then post id), as a rebuild would."""
        self._skip_own_posts()
        changed = changed_topics(self.client, {t: g.last_post_number for t, g in self.games.items()})
        thread = {self.games[t]: new_posts(self.client, t, self.games[t].last_post_number)
                  for t in changed}
        private, private_cursor = self._private_listing()
        # On the very first run, PMs older than the inbox's newest are not read (old commands
        # must not run again); a game rebuilt from the forum has read them already.
        pms = [p for p in private if p["id"] > private_cursor] if private_cursor is not None \
            else []
        handled = self.handle_in_order(thread, sorted(pms, key=lambda p: (when(p), p["id"])))
        newest = max((p["id"] for p in private), default=0)
        if private_cursor is None or newest > private_cursor:  # an empty inbox too
            self.store.commit(Batch(cursors={
                "private_post_id": max(newest, self.store.cursor("private_post_id") or 0)}))
        return handled

    def _skip_own_posts(self) -> None:
        """Move each game's cursor past the posts right after it that the bot made itself (the
        outbox knows their numbers): a thread whose only new posts are the bot's costs no read."""
        moved = {}
        for game in self.games.values():
            own = self.store.sent_numbers(game.reactor.thread, game.last_post_number)
            number = game.last_post_number
            while number + 1 in own:
                number += 1
            if number != game.last_post_number:
                game.last_post_number = moved[game.game_id] = number
        if moved:
            self.store.commit(Batch(last_post_numbers=moved))

    def _private_listing(self) -> tuple[list[dict], int | None]:
        """The newest PMs the bot can see (`/private-posts.json`), paging back with `before=`
        while a page is full and newer than the stored cursor (at most MAX_PAGES pages)."""
        cursor = self.store.cursor("private_post_id")
        page = self.client.private_posts().get("private_posts", [])
        collected = list(page)
        pages = 1
        while (cursor is not None and len(page) == PAGE and min(p["id"] for p in page) > cursor
               and pages < MAX_PAGES):
            page = self.client.private_posts(before=min(p["id"] for p in page)) \
                .get("private_posts", [])
            collected.extend(page)
            pages += 1
        return collected, cursor

    def handle_in_order(self, thread: dict[GameRuntime, list[dict]], pms: list[dict],
                         edits: list[tuple[GameRuntime, dict]] = (), members=None) -> int:
        """Thread posts (each game's in post-number order), PMs and edit notices merged in the
        forum's order, each after the clock ticks that fell due before it."""
        streams = [[(when(p), p["id"], "post", game, p) for p in posts]
                   for game, posts in thread.items()]
        streams.append([(when(p), p["id"], "pm", None, p) for p in pms])
        streams.append(sorted((when_edited(p), p["id"], "edit", game, p) for game, p in edits))
        handled = 0
        for _, _, kind, game, post in heapq.merge(*streams, key=lambda item: item[:2]):
            if kind == "post":
                handled += self._handle_post(game, post)
            elif kind == "pm":
                self._handle_pm(post, members)
            elif post["id"] in game.today_posts:  # what the live edit sweep would have read
                self._edited(game, post)
        return handled

    def _follow_renames(self, current: dict[int, str], at: datetime) -> None:
        """Each game whose bound users (by id) go by another name now follows the rename."""
        for game in list(self.games.values()):
            for user_id, name in list(self.identities.names.get(game.topic_id, {}).items()):
                new = current.get(user_id)
                if new is not None and new.lower() != name.lower():
                    self._rename(game, user_id, name, new, at)

    def _author_renamed(self, post: dict) -> None:
        """A post or PM whose author's id is bound under another name: the games follow first."""
        for game in [*self.games.values(), *([self.rebuilding] if self.rebuilding else [])]:
            renamed = self.identities.renamed_author(game, post)
            if renamed is not None:
                self._rename(game, post["user_id"], *renamed, when(post))

    def _rename(self, game: GameRuntime, user_id: int, old: str, new: str,
                at: datetime) -> None:
        log.info("game %s: forum user %s is now called %s", game.setup.name, old, new)
        self.tick_until(game, at)
        self._commit(game, game.on_rename(old, new, at))
        self.identities.renamed(game, user_id, new)
        self.router.topics.clear()  # the conversations' participants show the new name

    def _is_bot(self, post: dict) -> bool:
        if self.bot_id is not None and post.get("user_id") is not None:
            return post["user_id"] == self.bot_id
        return post["username"].lower() == self.settings.bot_username.lower()

    def _handle_post(self, game: GameRuntime, post: dict) -> int:
        number = post["post_number"]
        if number <= game.last_post_number:
            return 0
        if post.get("post_type", 1) == 1 and not self._is_bot(post):
            self._author_renamed(post)
        if post.get("post_type", 1) != 1 or self._is_bot(post) or (
                post.get("deleted_at") and self.rebuilding is None):  # live: not an input
            game.last_post_number = number
            self.store.commit(Batch(last_post_numbers={game.game_id: number}))
            return 0
        at = when(post)
        if is_late(game.history, at):  # moved in, or read after an unlist (late.py)
            log.warning("game %s: post #%s by %s (made %s) reached the thread late: held",
                        game.setup.name, number, post["username"], post.get("created_at"))
            step = game.on_late(post["id"], number, post["username"], at, post.get("raw") or "")
        else:
            self.tick_until(game, at)
            step = game.on_post(post["id"], number, post["username"], at, post.get("raw") or "")
        self._commit(game, step, last_post_number=number)
        return 1

    def tick_until(self, game: GameRuntime, at: datetime) -> None:
        """Commit a tick at each moment something fell due for the game, up to `at`."""
        for step in game.ticks_until(at):
            self._commit(game, step)

    def members(self) -> list[Member]:
        return [member(g) for g in self.games.values()]

    def _handle_pm(self, post: dict, members: list[Member] | None = None) -> None:
        """A PM the bot can see, for the game `pm_routing` finds (`members`: the games it may
        be for; by default the running games)."""
        if not self._is_bot(post):
            self._author_renamed(post)
        target = self.router.route(post, members if members is not None else self.members())
        if isinstance(target, Ask):
            self._ask_which_game(post, list(target.games))
            return
        game = self.games.get(target.topic_id) if target else None
        if game is None and target is not None and self.rebuilding is not None \
                and target.topic_id == self.rebuilding.topic_id:
            game = self.rebuilding
        if game is None or post["id"] in game.seen_pms:
            return
        at = when(post)
        self.tick_until(game, at)
        participants = self.router.participants(post["topic_id"])
        shared = self.router.has_players(post["topic_id"], game.state.setup)
        self._commit(game, game.on_pm(post["id"], post["topic_id"], post["post_number"],
                                      post["username"], at, post.get("raw") or "", shared=shared,
                                      participants=tuple(sorted(participants))))

    def _ask_which_game(self, post: dict, games: list[str]) -> None:
        """A PM from someone in several games, naming none: nothing runs; they are asked."""
        log.warning("PM %s from %s: in several games and names none; asked which",
                    post["id"], post["username"])
        raw = render("which_game.md.j2", post_number=post["post_number"], games=games)
        self.commit_outgoing([Outgoing(
            f"modbot:which-game:{post['id']}", f"modbot:pmtopic:{post['topic_id']}", raw,
            topic_id=post["topic_id"])])

    def _commit(self, game: GameRuntime, step: Step, last_post_number: int | None = None) -> None:
        if step.input is None:
            return
        batch = Batch(inputs=[(game.game_id, step.input)],
                      events=[(game.game_id, 0, name, data) for name, data in step.events])
        if last_post_number is not None:
            batch.last_post_numbers[game.game_id] = last_post_number
        batch.cursors.update(step.cursors)
        self.commit_outgoing(list(step.outgoing), batch)

    def commit_outgoing(self, outgoing: list[Outgoing], batch: Batch | None = None) -> None:
        """Commit the posts owed, adopting those the forum already shows (see rebuild.py)."""
        batch = batch or Batch()
        batch.outbox = outgoing
        if self.adopt:
            batch.adopted = self.adopt.adopted(outgoing, replaying=self.rebuilding is not None)
        self.store.commit(batch)

    # -- edits ------------------------------------------------------------------------------

    @property
    def last_sweep(self) -> datetime | None:
        """When the last edit-sweep round started (a test may set it, to hold the next)."""
        return self.sweeper.last_round

    @last_sweep.setter
    def last_sweep(self, value: datetime | None) -> None:
        self.sweeper.last_round = value

    def sweep(self) -> int:
        """Read every game's posts of today that carried actions again, now, whatever the
        budget; flag edits and self-deletes."""
        flagged = 0
        for game in self.games.values():
            try:
                flagged += self._sweep_game(game)
            except ForumError as exc:  # one game's error never stops the others
                log.error("game %s: edit sweep failed (tried again next sweep): %s",
                          game.topic_id, exc)
        return flagged

    def _sweep_game(self, game: GameRuntime) -> int:
        flagged = 0
        ids = sorted(game.today_posts)
        for start in range(0, len(ids), BATCH):
            for post in self.client.posts_by_ids(game.topic_id, ids[start:start + BATCH]):
                flagged += self._edited(game, post)
        return flagged

    def _edited(self, game: GameRuntime, post: dict) -> int:
        """A counted post as the forum shows it now: flagged if its text changed."""
        if not game.changed(post):
            return 0
        raw = post.get("raw") or ""
        self._commit(game, game.on_edit(post["id"], raw, sha1(raw), when_edited(post)))
        return 1

    def _intruder(self, row, topic_id: int, names: list[str]) -> None:
        """Someone the game did not put there joined a private conversation (see
        conversation_guard.py): the player is told in their new one, the Storytellers what the
        newcomers could read."""
        self.router.topics.pop(topic_id, None)
        game = next((g for g in self.games.values() if row.key.startswith(g.options.key + ":")),
                    None)
        if game is None:
            return
        recipients = [r for r in (row.recipients or "").split(",") if r]
        player = None if row.thread.endswith(":pm:storytellers") or not recipients \
            else recipients[0]
        self.commit_outgoing(game.reactor.intruded(player, topic_id, names,
                                                   game.state.setup.storytellers))

    def _failure_report(self, row, error: str):
        game = next((g for g in self.games.values() if row.key.startswith(g.options.key + ":")),
                    None)
        if game is None or row.thread.endswith(":pm:storytellers") or not game.setup.storytellers:
            return None
        recipients = tuple(filter(None, (row.recipients or "").split(",")))
        recipients = tuple(r for r in recipients if r not in game.setup.storytellers)
        if not recipients and ":pm:" in row.thread:
            recipients = (row.thread.rsplit(":pm:", 1)[1],)
        return game.reactor.failure_report(game.setup.storytellers, row.key, error, recipients)
