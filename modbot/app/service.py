"""Theory of operation: one poll cycle reads the forum, decides, commits, then writes.

`start()` checks the bot's account and every game topic (clear errors for a bad key or a
missing topic), rebuilds each game from its input log, and catches up on posts made while the
bot was away (`/t/{id}/posts.json` after the game's last post number, 20 at a time).

`cycle(now)`:
1. new public posts: `GET /posts.json` (50 newest, site-wide), paging back with `before=` only
   while the page is full and newer than the stored cursor; posts of game topics after each
   game's last post number are handled in post-number order. One request when idle, whatever
   the number of games.
2. the PM inbox: `GET /private-posts.json` (one request): the Storytellers' commands, the
   players' night commands in their own PM with the bot, and whisper PMs to check (each PM
   is stored with the usernames of its conversation, asked once per conversation).
3. the clock: each game advances to `now - settle` (so a post created just before a deadline
   but not yet visible is never overtaken).
A game the store has never seen starts in the first cycle where all its names are known forum
users (`deal_guard.py`); until then it is not read, and its Storytellers are told what to fix.
4. every few minutes, an edit/delete sweep of today's counted posts (20 ids a request).
5. the outbox drains.
Each post's input row, its events, the posts it causes and the cursors commit in one
transaction. All rule decisions use the posts' `created_at`; `now` only moves the clock.
"""

from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from ..adapters.forum import ConfigurationError, ForumClient, ForumError, NotFound, TransientError
from ..adapters.outbox import Outbox
from ..adapters.store import Batch, Outgoing, Store
from ..core import GameSetup
from .deal_guard import DealGuard, held_note
from .reactions import GameOptions
from .render import render
from .runtime import GameRuntime, Step, sha1

log = logging.getLogger("modbot.app.service")
PAGE = 50
MAX_PAGES = 10
SWEEP_BATCH = 20


@dataclass
class Settings:
    bot_username: str = "modbot"
    settle_seconds: float = 10
    vote_count_minutes: float = 60
    sweep_minutes: float = 3
    post_spacing: float | None = None  # None: 0 for staff accounts, 6 s otherwise
    close_topic_at_night: bool = False
    max_backoff: float = 60  # seconds between retries after 5xx, timeouts, dropped connections


@dataclass
class CycleReport:
    requests: int = 0
    posts: int = 0
    sent: int = 0
    deferred: list[str] = field(default_factory=list)


GAME_LINE = re.compile(r"^\s*[*_]*game\s*:\s*(.+?)[*_]*\s*$", re.IGNORECASE | re.MULTILINE)


def _named_game(games: list[GameRuntime], raw: str) -> list[GameRuntime]:
    """The games a PM may be for: with a `game: NAME` line (a game's name or topic id), that
    one (none if it names another); without, every game the author is in."""
    if len(games) < 2:
        return games
    line = GAME_LINE.search(raw)
    if line is None:
        return games
    wanted = line.group(1).strip().casefold()
    return [g for g in games if wanted in (g.setup.name.casefold(), str(g.topic_id))]


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
        self.last_sweep: datetime | None = None
        self.pm_topics: dict[int, set[str]] = {}  # PM topic id -> its participants
        self.quiet_until = 0.0  # monotonic time: after a 429, no request before this

    # -- start-up ---------------------------------------------------------------------------

    def start(self) -> None:
        try:
            me = self.client.user(self.settings.bot_username)
        except NotFound as exc:
            raise ConfigurationError(f"the bot account {self.settings.bot_username!r} does not "
                                     "exist on the forum") from exc
        staff = bool(me.get("admin") or me.get("moderator"))
        spacing = self.settings.post_spacing
        self.outbox = Outbox(self.client, self.store,
                             spacing=(0.0 if staff else 6.0) if spacing is None else spacing,
                             on_failure=self._failure_report,
                             max_backoff=self.settings.max_backoff)
        for setup in self.setups:
            if setup.topic_id in self.games or setup.topic_id in self.waiting:
                continue  # a retried start-up keeps the games it has
            if self._never_started(setup):
                self._check_topic(setup)
                self.waiting[setup.topic_id] = setup  # started once its names are checked
            else:
                self._start_game(setup)

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

    def _start_game(self, setup: GameSetup) -> None:
        if setup.topic_id is None:
            raise ConfigurationError(f"game {setup.name!r}: set game.topic_id")
        row = self.store.game(str(setup.topic_id), setup.name)
        options = GameOptions(setup.topic_id, f"g{setup.topic_id}",
                              self.settings.vote_count_minutes,
                              self.settings.close_topic_at_night, setup.storytellers,
                              pictures=setup.pictures, vote_counts=setup.vote_counts)
        runtime = GameRuntime(setup, options, row.id)
        runtime.load(self.store.inputs(row.id))
        runtime.last_post_number = max(runtime.last_post_number, row.last_post_number)
        try:  # one request a game at start: reading the topic also proves it exists
            self.catch_up(runtime)
        except NotFound as exc:
            raise ConfigurationError(f"game {setup.name!r}: topic {setup.topic_id} not found "
                                     "(or the bot cannot see it)") from exc
        self.games[setup.topic_id] = runtime

    def catch_up(self, game: GameRuntime) -> int:
        """Read the game topic after its last post number, 20 posts a request."""
        handled = 0
        while True:
            posts = self.client.posts_after(game.topic_id, game.last_post_number)
            handled += self._handle_posts(game, posts)
            if len(posts) < 20:  # each batch moves last_post_number past all its posts
                return handled

    # -- the cycle --------------------------------------------------------------------------

    def cycle(self, now: datetime) -> CycleReport:
        report = CycleReport()
        if time.monotonic() < max(self.quiet_until, self.outbox.quiet_until):
            report.deferred.append("waiting for the forum's Retry-After")  # after a 429
            return report
        before = self.client.requests_made
        try:
            self._admit_waiting()
            report.posts = self._read_public()
            self._read_private()
        except ForumError as exc:  # any read error: logged, read again next cycle
            self._deferred(report, exc)
        else:  # the clock moves only once the posts before it are read
            for game in self.games.values():
                self._commit(game, game.on_tick(now - timedelta(seconds=self.settings.settle_seconds)))
            if self._sweep_due(now):
                self.sweep()
                self.last_sweep = now
        report.sent = self.drain()
        report.requests = self.client.requests_made - before
        return report

    def _admit_waiting(self) -> None:
        """Start each new game whose names are all forum users (see deal_guard.py)."""
        self.guard.new_cycle()
        for topic_id, setup in list(self.waiting.items()):
            unknown = self.guard.unknown_names(setup)
            if unknown:
                self._tell_held(setup, unknown)
            elif unknown is None:
                try:
                    self._start_game(setup)
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
        if isinstance(exc, TransientError):
            log.warning("forum unavailable this cycle: %s", exc)
            if exc.status == 429:
                self.quiet_until = time.monotonic() + exc.retry_after
        else:
            log.error("forum read failed this cycle (tried again next cycle): %s", exc)
        report.deferred.append(str(exc))

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

    def _read_public(self) -> int:
        cursor = self.store.cursor("public_post_id")
        page = self.client.latest_posts()["latest_posts"]
        collected = list(page)
        pages = 1
        while (cursor is not None and len(page) == PAGE and min(p["id"] for p in page) > cursor
               and pages < MAX_PAGES):
            page = self.client.latest_posts(before=min(p["id"] for p in page))["latest_posts"]
            collected.extend(page)
            pages += 1
        handled = 0
        for topic_id, game in self.games.items():
            posts = sorted((p for p in collected if p.get("topic_id") == topic_id),
                           key=lambda p: p["post_number"])
            if pages == MAX_PAGES:
                handled += self.catch_up(game)  # far behind: read the topic itself
            else:
                handled += self._handle_posts(game, posts)
        newest = max((p["id"] for p in collected), default=cursor or 0)
        if cursor is None or newest > cursor:
            self.store.commit(Batch(cursors={"public_post_id": newest}))
        return handled

    def _read_private(self) -> None:
        """New PMs the bot can see, in order (see `_handle_pm`). On the very first run, PMs
        older than the inbox's newest are not read (old commands must not run again)."""
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
        if cursor is not None:
            for post in sorted((p for p in collected if p["id"] > cursor), key=lambda p: p["id"]):
                self._handle_pm(post)
        newest = max((p["id"] for p in collected), default=0)
        if cursor is None or newest > cursor:  # an empty inbox too: from now on, all count
            self.store.commit(Batch(cursors={"private_post_id": newest}))

    def _handle_pm(self, post: dict) -> None:
        """A PM the bot can see: a Storyteller's commands (only in PMs the bot takes part
        in), or a player's: night commands in their own PM with the bot, or a whisper."""
        author = post["username"]
        if author.lower() == self.settings.bot_username.lower():
            return
        games = [g for g in self.games.values() if g.setup.is_storyteller(author)] or \
            [g for g in self.games.values() if g.state.is_seated(author)]
        games = _named_game(games, post.get("raw") or "")
        if len(games) > 1:
            self._ask_which_game(post, games)
            return
        if not games:
            return
        game = games[0]
        if post["id"] in game.seen_pms:
            return
        participants = self._participants(post["topic_id"])
        staff_author = game.setup.is_storyteller(author)
        if staff_author and not self._bot_is_in(post["topic_id"]):
            return
        if not staff_author and not self._bot_is_in(post["topic_id"]) and \
                not self._has_other_players(post["topic_id"], game, author):
            return  # a player's PM with non-players, seen only because the bot is an admin
        at = datetime.fromisoformat(post["created_at"])
        shared = self._has_players(post["topic_id"], game)
        self._commit(game, game.on_pm(post["id"], post["topic_id"], post["post_number"], author,
                                      at, post.get("raw") or "", shared=shared,
                                      participants=tuple(sorted(participants))))

    def _ask_which_game(self, post: dict, games: list[GameRuntime]) -> None:
        """A PM from someone in several games, naming none: nothing runs; they are asked."""
        log.warning("PM %s from %s: in several games and names none; asked which",
                    post["id"], post["username"])
        raw = render("which_game.md.j2", post_number=post["post_number"],
                     games=[g.setup.name for g in games])
        self.store.commit(Batch(outbox=[Outgoing(
            f"modbot:which-game:{post['id']}", f"modbot:pmtopic:{post['topic_id']}", raw,
            topic_id=post["topic_id"])]))

    def _has_other_players(self, topic_id: int, game: GameRuntime, author: str) -> bool:
        seated = {s.name.lower() for s in game.state.seats} - {author.lower()}
        return bool(self._participants(topic_id) & seated)

    def _participants(self, topic_id: int) -> set[str]:
        """Who takes part in a PM (lower-case usernames). Asked once per topic."""
        if topic_id not in self.pm_topics:
            details = self.client.topic_by_id(topic_id).get("details", {})
            self.pm_topics[topic_id] = {u.get("username", "").lower()
                                        for u in details.get("allowed_users") or []}
        return self.pm_topics[topic_id]

    def _bot_is_in(self, topic_id: int) -> bool:
        """An admin bot sees every PM on the site: a Storyteller's PM to someone else is not
        addressed to it."""
        return self.settings.bot_username.lower() in self._participants(topic_id)

    def _has_players(self, topic_id: int, game: GameRuntime) -> bool:
        staff = {self.settings.bot_username.lower(), *(s.lower() for s in game.setup.storytellers)}
        return bool(self._participants(topic_id) - staff)

    def _handle_posts(self, game: GameRuntime, posts: list[dict]) -> int:
        handled = 0
        for post in posts:
            number = post["post_number"]
            if number <= game.last_post_number:
                continue
            if post.get("post_type", 1) != 1 or \
                    post["username"].lower() == self.settings.bot_username.lower():
                game.last_post_number = number
                self.store.commit(Batch(last_post_numbers={game.game_id: number}))
                continue
            at = datetime.fromisoformat(post["created_at"])
            step = game.on_post(post["id"], number, post["username"], at, post.get("raw") or "")
            self._commit(game, step, last_post_number=number)
            handled += 1
        return handled

    def _commit(self, game: GameRuntime, step: Step, last_post_number: int | None = None) -> None:
        if step.input is None:
            return
        batch = Batch(inputs=[(game.game_id, step.input)],
                      events=[(game.game_id, 0, name, data) for name, data in step.events],
                      outbox=list(step.outgoing))
        if last_post_number is not None:
            batch.last_post_numbers[game.game_id] = last_post_number
        self.store.commit(batch)

    # -- edits ------------------------------------------------------------------------------

    def _sweep_due(self, now: datetime) -> bool:
        return self.last_sweep is None or \
            now - self.last_sweep >= timedelta(minutes=self.settings.sweep_minutes)

    def sweep(self) -> int:
        """Compare today's counted posts with the forum; flag edits and self-deletes."""
        flagged = 0
        for game in self.games.values():
            today = game.state.today
            if today is None:
                continue
            try:
                flagged += self._sweep_game(game)
            except ForumError as exc:  # one game's error never stops the others
                log.error("game %s: edit sweep failed (tried again next sweep): %s",
                          game.topic_id, exc)
        return flagged

    def _sweep_game(self, game: GameRuntime) -> int:
        flagged = 0
        ids = sorted(game.today_posts)
        for start in range(0, len(ids), SWEEP_BATCH):
            for post in self.client.posts_by_ids(game.topic_id, ids[start:start + SWEEP_BATCH]):
                if game.changed(post):
                    raw = post.get("raw") or ""
                    at = datetime.fromisoformat(post.get("updated_at") or post["created_at"])
                    self._commit(game, game.on_edit(post["id"], raw, sha1(raw), at))
                    flagged += 1
        return flagged

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
