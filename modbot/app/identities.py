"""Theory of operation: a forum user is a user id; a username is a name that can change.

Discourse lets a user (or staff) rename an account at any time, and rewrites the old name in
old posts when it does (app/services/username_changer.rb); the id stays. So every seat and
every Storyteller of a running game is bound to its user id (`bind`), learnt without a request
where the forum already says it: the seat's `user_id` from the game file; else the id kept in
the store (a cursor row `user_id:NAME`); else the author's id of the first post or PM the bot
reads under that name (`observe`: every post carries `user_id`, so a rebuild binds every seat
that ever posted for free). A name still unbound is asked in the background
(`GET /u/NAME.json`, `look_up`), `LOOK_UPS` at each names check, once no game waits to
start (so an idle cycle still costs 2 requests): Discourse has no
request that turns many names into ids (its mention check, deal_guard.py, says only which
exist). A post or PM whose author's id is bound under another name is a rename
(`renamed_author`): the service feeds it to the game (`GameRuntime.on_rename`) before the post
itself, so the post counts for the seat. Renames are also looked for without waiting for a
post: every `check_seconds`, one `GET /user-cards.json?user_ids=…` (Discourse's
UsersController#cards: up to 50 users by id in one request) for every bound id (`renames`).
"""

from __future__ import annotations

import logging
from datetime import datetime

from ..adapters.forum import ForumClient, ForumError, NotFound
from ..adapters.outgoing import Batch
from ..adapters.port import ForumPost
from ..adapters.store import Store

log = logging.getLogger("modbot.app.identities")
CARDS = 50  # user ids per /user-cards.json request (Discourse's limit)
LOOK_UPS = 20  # name look-ups a names check (every `check_seconds`)


def cursor_name(username: str) -> str:
    return f"user_id:{username.lower()}"


class Identities:
    def __init__(self, client: ForumClient, store: Store, check_seconds: float = 600) -> None:
        self.client = client
        self.store = store
        self.check_seconds = check_seconds
        self.last_check: datetime | None = None  # forum time (a rehearsal's clock keeps pace)
        self.names: dict[int, dict[int, str]] = {}  # topic id -> user id -> name in the game
        self.unbound: dict[int, set[str]] = {}  # topic id -> lower-cased names with no id yet
        self.missing: set[str] = set()  # names the forum answered 404 for (renamed away?)

    def remember(self, username: str, user_id: int) -> None:
        self.store.commit(Batch(cursors={cursor_name(username): user_id}))

    def bind(self, game) -> None:
        """Bind the game's seats and Storytellers (as the game names them now) to the user ids
        known without asking; the rest wait for a post (`observe`) or a look-up."""
        given = dict(game.setup.user_ids)
        first = dict(game.options.threads)  # a renamed player -> the name the file gave
        bound: dict[int, str] = {}
        unbound: set[str] = set()
        for name in [s.name for s in game.state.seats] + list(game.state.setup.storytellers):
            filed = first.get(name.lower(), name.lower())
            user_id = next((i for n, i in given.items() if n.lower() == filed), None)
            user_id = user_id or self.store.cursor(cursor_name(name))
            if user_id:
                bound[user_id] = name
            else:
                unbound.add(name.lower())
        self.names[game.topic_id] = bound
        self.unbound[game.topic_id] = unbound

    def observe(self, game, post: ForumPost) -> None:
        """A post or PM by a name of the game not bound yet binds that name to its author."""
        unbound = self.unbound.get(game.topic_id)
        if not unbound or post.username.lower() not in unbound or not post.user_id:
            return
        if post.user_id in self.names.get(game.topic_id, {}):
            return  # a bound user now using the name: a rename, not a new binding
        self._bind_name(post.username, post.user_id)

    def _bind_name(self, name: str, user_id: int) -> None:
        """Bind `name` to `user_id` in every game that has it unbound, and keep it."""
        for topic_id, unbound in self.unbound.items():
            if name.lower() in unbound:
                unbound.discard(name.lower())
                self.names.setdefault(topic_id, {})[user_id] = name
        self.remember(name, user_id)

    def look_up(self, limit: int = LOOK_UPS) -> int:
        """Ask the forum for up to `limit` unbound names' ids (the background's share)."""
        todo = sorted({n for names in self.unbound.values() for n in names} - self.missing)
        for name in todo[:limit]:
            try:
                user = self.client.account(name)
            except NotFound:
                log.warning("no forum user is called %s now (renamed before they posted?)",
                            name)
                self.missing.add(name)
                continue
            except ForumError as exc:
                log.info("the user id of %s waits: %s", name, exc)
                return 0
            self._bind_name(user.username, user.id)
        return min(limit, len(todo))

    def stranger(self, game, post: ForumPost) -> bool:
        """The post's author is known to be none of the game's users (by id) and goes by a
        name one of its seats answers to as an alias."""
        user_id, name = post.user_id, post.username.lower()
        if not user_id or user_id in self.names.get(game.topic_id, {}) or \
                name in self.unbound.get(game.topic_id, ()):
            return False
        return any(a.lower() == name for s in game.state.setup.seats for a in s.aliases)

    def renamed_author(self, game, post: ForumPost) -> tuple[str, str] | None:
        """(old, new) when the post's author is bound to this game under another name."""
        name = self.names.get(game.topic_id, {}).get(post.user_id or 0)
        if name is None or name.lower() == post.username.lower():
            return None
        return name, post.username

    def renamed(self, game, user_id: int, new: str) -> None:
        self.names.setdefault(game.topic_id, {})[user_id] = new
        self.remember(new, user_id)

    def due(self, now: datetime) -> bool:
        if self.last_check is None or now < self.last_check:
            self.last_check = now  # the first cycle: the names were just bound
            return False
        return self.check_seconds > 0 and (now - self.last_check).total_seconds() >= \
            self.check_seconds

    def renames(self, now: datetime, also: tuple[int, ...] = ()) -> dict[int, str]:
        """Every bound user's current username (and `also`'s: the bot's), by id (one request
        per 50 users)."""
        self.last_check = now
        ids = sorted({i for bound in self.names.values() for i in bound} | set(also))
        current: dict[int, str] = {}
        for start in range(0, len(ids), CARDS):
            for user in self.client.users_by_ids(ids[start:start + CARDS]):
                current[user.id] = user.username
        return current
