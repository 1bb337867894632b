"""Theory of operation: which game threads have new posts, found by what Discourse keeps.

A post's id and `created_at` survive a moderator's move, an unlist or a hide; its place in
the site-wide newest-posts window (`/posts.json`) does not: a reply moved into a game thread
keeps its old id, so a reader that pages the window by id never sees it, and an unlisted
topic's posts are left out of that window. So each cycle asks one listing for every game
topic's `highest_post_number` (`GET /latest.json?topic_ids=…`, TopicQuery's `topic_ids`
option, up to `LISTING` topics as one page; a forum that pages smaller is paged through),
and reads a thread by post number (`/t/{id}/posts.json` after the game's last post number,
20 a request) only where that number grew. A post moved in
takes the thread's next post number (Discourse's PostMover), so it is read like any new post,
and ordered with the others by its `created_at`. A topic the listing leaves out (unlisted,
and the bot is not staff) is read directly every cycle while it is left out.

Idle cost: one listing request per `LISTING` games (with the PM inbox, 2 requests a cycle
for up to 100 games); a thread that changed costs one read more (more when over 20 posts came),
and a thread whose only new posts are the bot's own costs nothing (`_skip_own_posts`: the
outbox knows their numbers). A cycle the forum's MessageBus woke (`Wake`: the channels its
messages named) reads only what they named: each named game thread, without the listing, and
the PM inbox when a new PM was announced or when one of those games has a moment due (its
clock may not pass a moment the inbox is not read through: watermark.py); the sweep's full
cycles catch anything else. A game the cycle has just started was read to its end: the
listing leaves it out (a fresh start lists once).

`Intake` is the service's reading, a collaborator of its own: the threads (above), the PM
inbox (`/private-posts.json`, paging back while a page is full and newer than the stored
cursor), and the edit sweep's rounds (edit_sweep.py). It is given the client, the store, the
games, the watermark and the sweep, and hands what it read to a `Handler` (handling.py);
it keeps the one thing of its own, the games a cycle started (`started_now`).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from ...adapters.forum import ForumError, TransientError
from ...adapters.forum_port import ForumPort
from ...adapters.outgoing import Batch
from ...adapters.port import ForumPost
from ...adapters.store_port import ReadingStore
from ..games.runtime import GameRuntime
from .edit_sweep import BATCH, EditSweep
from .renumbered import Renumbered
from .thread_reads import read_thread
from .watermark import Watermark

log = logging.getLogger("modbot.app.running.service")
PAGE = 50  # PMs a page of /private-posts.json
MAX_PAGES = 10
LISTING = 100  # topics asked per listing request (`per_page`, at most 100 in Discourse)


def listed_topics(client: ForumPort, topic_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
    """Each listed topic's listing entry (a topic the listing leaves out is not in it)."""
    ids = sorted(topic_ids)
    found: dict[int, dict[str, Any]] = {}
    for start in range(0, len(ids), LISTING):
        page = 0
        while True:  # one page, unless the forum pages the listing smaller than asked
            listing = client.topics_listed(ids[start:start + LISTING], page)
            for topic in listing.get("topics", []):
                found[int(topic["id"])] = topic
            if not listing.get("more_topics_url") or not listing.get("topics"):
                break
            page += 1
    return found


@dataclass(frozen=True)
class Wake:
    """What a MessageBus wake-up named: the topics with news, and whether a PM came."""

    topics: frozenset[int]
    pms: bool

    @classmethod
    def of(cls, channels: Iterable[str]) -> Wake | None:
        """The wake-up of these channels, or None (read everything) for one it cannot place."""
        topics, pms = set(), False
        for channel in channels:
            kind, _, rest = channel.rpartition("/")
            if kind == "/topic" and rest.isdigit():
                topics.add(int(rest))
            elif kind == "/notification-alert":
                pms = True
            else:
                return None
        return cls(frozenset(topics), pms)


class Handler(Protocol):
    """What handles what the intake read (handling.py)."""

    def handle_in_order(self, thread: dict[GameRuntime, list[ForumPost]],
                        pms: list[ForumPost], *args: Any, **kwargs: Any) -> int: ...

    def edited(self, game: GameRuntime, post: ForumPost) -> int: ...

    def holds(self, game: GameRuntime) -> bool: ...


class Intake:
    def __init__(self, client: ForumPort, store: ReadingStore, games: dict[int, GameRuntime],
                 watermark: Watermark, sweeper: EditSweep, handler: Handler) -> None:
        self.client = client
        self.store = store
        self.games = games  # the service's, by topic id
        self.watermark = watermark
        self.sweeper = sweeper
        self.handler = handler
        self.started_now: set[int] = set()  # games this cycle started (read to their end)
        self.renumbered = Renumbered(client, store)  # a post is its id: numbers are reused

    def catch_up(self, game: GameRuntime) -> int:
        """Read the game topic after its last post number, 20 posts a request; its stream of
        ids is checked at the next full cycle (a split while the bot was away reuses numbers
        below the cursor: renumbered.py)."""
        self.renumbered.verify.add(game.topic_id)
        return self.handler.handle_in_order({game: read_thread(self.client, game.topic_id,
                                                       after=game.last_post_number)}, [])

    def read_new(self, now: datetime, wake: Wake | None = None) -> int:
        """The new posts of the game threads (found by `intake.py`) and the new PMs, handled in
        the order the forum made them (`created_at`, then post id), as a rebuild would. Woken
        by the forum (`wake`), only what the wake-up named is read: its topics, without the
        listing, and the PMs when a new one was announced or when a game read has a moment
        due by `now` (its clock may not pass a moment the inbox is not read through:
        watermark.py). Each source read in full is marked read through `now`."""
        self._skip_own_posts()
        by_id: set[int] = set()  # games whose thread a stream check read (renumbered.py)
        if wake is None:  # (a game started in this cycle has just been read to its end)
            listing = listed_topics(self.client, [t for t in self.games
                                                  if t not in self.started_now])
            changed, by_id = self.renumbered.changes(listing, {
                t: g for t, g in self.games.items() if t not in self.started_now})
            complete = list(self.games)  # the listing shows where every other thread ends
        else:
            changed = complete = sorted(t for t in wake.topics if t in self.games)
        thread = {self.games[t]: read_thread(self.client, t, after=self.games[t].last_post_number)
                  for t in changed}
        for topic_id in by_id:
            game = self.games[topic_id]
            thread[game] = self.renumbered.unseen(game, thread.get(game, []))
        held: set[int] = set()  # games whose posts wait for the inbox's next read
        if wake is not None and not wake.pms and not self.moment_due(complete, now):
            handled = self.handler.handle_in_order(thread, [], limit=self.watermark.inbox,
                                           held=held)
            self._read_through(complete, held, now)
            return handled
        private, private_cursor = self._private_listing()
        # On the very first run, PMs older than the inbox's newest are not read (old commands
        # must not run again); a game rebuilt from the forum has read them already.
        pms = [p for p in private if p.id > private_cursor] if private_cursor is not None \
            else []
        # a PM of a game whose thread this cycle did not read through may not move its clock
        # past the thread's mark (watermark.py): it waits for a read of both (`held_pms`)
        unread = {t: self.watermark.through(t) for t in self.games if t not in complete}
        held_pms: set[int] = set()
        handled = self.handler.handle_in_order(thread, sorted(pms, key=lambda p: (p.created, p.id)),
                                               by_id=by_id, pm_limits=unread, held_pms=held_pms)
        waiting = [p for p in pms if p.id in held_pms]
        self.watermark.inbox_read(min((p.created for p in waiting), default=now))
        self._read_through(complete, held, now)
        newest = max((p.id for p in private), default=0)
        kept = max(newest, self.store.cursor("private_post_id") or 0)
        if waiting:  # read again next time, from the first that waits
            kept = min(p.id for p in waiting) - 1
        if private_cursor is None or kept != private_cursor:  # an empty inbox too
            self.store.commit(Batch(cursors={"private_post_id": kept}))
        return handled

    def _read_through(self, topic_ids: Iterable[int], held: set[int], now: datetime) -> None:
        """Mark the threads read (and handled) in full through `now`: not those held."""
        for topic_id in topic_ids:
            if topic_id not in held:
                self.watermark.thread_read(topic_id, now)

    def moment_due(self, topic_ids: Iterable[int], now: datetime) -> bool:
        """One of these games has a moment due by `now` (a deadline, a lock, a count): due
        once a read at `now` lets the clock pass it (the watermark keeps `settle` back). A
        held game's clock waits (quarantine.py): nothing of it is due."""
        return any((due := self._next_due(self.games[t])) is not None
                   and due + self.watermark.settle <= now for t in topic_ids)

    def _next_due(self, game: GameRuntime) -> datetime | None:
        if self.handler.holds(game):
            return None
        try:
            return game.next_due()
        except Exception:  # the next cycle's tick quarantines what raises (feeding.py)
            return None

    def _skip_own_posts(self) -> None:
        """Move each game's cursor past the posts right after it that the bot made itself (the
        outbox knows their numbers): a thread whose only new posts are the bot's costs no read."""
        games = {game.reactor.thread: game for game in self.games.values()}
        own = self.store.sent_numbers({t: g.last_post_number for t, g in games.items()})
        moved = {}
        for thread, game in games.items():
            number = game.last_post_number
            while number + 1 in own[thread]:
                number += 1
            if number != game.last_post_number:
                game.last_post_number = moved[game.game_id] = number
        if moved:
            self.store.commit(Batch(last_post_numbers=moved))

    def _private_listing(self) -> tuple[list[ForumPost], int | None]:
        """The newest PMs the bot can see (`/private-posts.json`), paging back with `before=`
        while a page is full and newer than the stored cursor (at most MAX_PAGES pages)."""
        cursor = self.store.cursor("private_post_id")
        page = self.client.private_posts()
        collected = list(page)
        pages = 1
        while (cursor is not None and len(page) == PAGE and min(p.id for p in page) > cursor
               and pages < MAX_PAGES):
            page = self.client.private_posts(before=min(p.id for p in page))
            collected.extend(page)
            pages += 1
        return collected, cursor

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
                flagged += self.sweep_game(game)
            except TransientError as exc:  # the forum's limit, a 5xx, a timeout
                log.info("game %s: edit sweep put off (%s): read again next sweep",
                         game.topic_id, exc)
            except ForumError as exc:  # one game's error never stops the others
                log.error("game %s: edit sweep failed (tried again next sweep): %s",
                          game.topic_id, exc)
        return flagged

    def sweep_game(self, game: GameRuntime) -> int:
        flagged = 0
        ids = sorted(game.sweep_posts)
        shown: list[ForumPost] = []  # hidden posts whose words can be read now
        for start in range(0, len(ids), BATCH):
            for post in self.client.posts_by_ids(game.topic_id, ids[start:start + BATCH]):
                if post.id in game.hidden_ids and not post.words_hidden:
                    shown.append(post)
                else:
                    flagged += self.handler.edited(game, post)
        if shown:  # at their own times, as posts that arrive late (hidden.py)
            self.handler.handle_in_order({game: sorted(shown, key=lambda p: (p.created, p.id))},
                                         [], by_id={game.topic_id})
        return flagged
