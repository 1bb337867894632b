"""Theory of operation: a forum user is a user id; a username is a name that can change.

Discourse lets a user (or staff) rename an account at any time, and rewrites the old name in
old posts when it does (app/services/username_changer.rb); the id stays. So every seat and
every Storyteller of a running game is bound to its user id (`bind`): the seat's `user_id`
from the game file when it has one, else the id the forum gave for that name (asked once,
`GET /u/NAME.json`, then kept in the store as a cursor row `user_id:NAME`, so a restart asks
nothing). A post or PM whose author's id is bound under another name is a rename
(`renamed_author`): the service feeds it to the game (`GameRuntime.on_rename`) before the post
itself, so the post counts for the seat. Renames are also looked for without waiting for a
post: every `check_seconds`, one `GET /user-cards.json?user_ids=…` (Discourse's
UsersController#cards: up to 50 users by id in one request) for every bound id (`renames`).
"""

from __future__ import annotations

import logging
from datetime import datetime

from ..adapters.forum import ForumClient, ForumError, NotFound
from ..adapters.store import Batch, Store

log = logging.getLogger("modbot.app.identities")
CARDS = 50  # user ids per /user-cards.json request (Discourse's limit)


def cursor_name(username: str) -> str:
    return f"user_id:{username.lower()}"


class Identities:
    def __init__(self, client: ForumClient, store: Store, check_seconds: float = 600) -> None:
        self.client = client
        self.store = store
        self.check_seconds = check_seconds
        self.last_check: datetime | None = None  # forum time (a rehearsal's clock keeps pace)
        self.names: dict[int, dict[int, str]] = {}  # topic id -> user id -> name in the game

    def user_id(self, username: str) -> int | None:
        """The forum's id for a name: from the store, else asked (and kept)."""
        known = self.store.cursor(cursor_name(username))
        if known:
            return known
        try:
            user = self.client.user(username)
        except NotFound:
            return None
        self.remember(username, int(user["id"]))
        return int(user["id"])

    def remember(self, username: str, user_id: int) -> None:
        self.store.commit(Batch(cursors={cursor_name(username): user_id}))

    def bind(self, game) -> None:
        """Bind the game's seats and Storytellers (as the game names them now) to user ids."""
        given = dict(game.setup.user_ids)
        first = dict(game.options.threads)  # a renamed player -> the name the file gave
        bound: dict[int, str] = {}
        names = [s.name for s in game.state.seats] + list(game.state.setup.storytellers)
        for name in names:
            filed = first.get(name.lower(), name.lower())
            user_id = next((i for n, i in given.items() if n.lower() == filed), None)
            try:
                user_id = user_id or self.user_id(name)
            except ForumError as exc:
                log.warning("game %s: cannot look up %s's user id yet: %s", game.setup.name,
                            name, exc)
                continue
            if user_id:
                bound[user_id] = name
        self.names[game.topic_id] = bound

    def renamed_author(self, game, post: dict) -> tuple[str, str] | None:
        """(old, new) when the post's author is bound to this game under another name."""
        name = self.names.get(game.topic_id, {}).get(post.get("user_id") or 0)
        if name is None or name.lower() == str(post.get("username", "")).lower():
            return None
        return name, post["username"]

    def renamed(self, game, user_id: int, new: str) -> None:
        self.names.setdefault(game.topic_id, {})[user_id] = new
        self.remember(new, user_id)

    def due(self, now: datetime) -> bool:
        if self.last_check is None or now < self.last_check:
            self.last_check = now  # the first cycle: the names were just bound
            return False
        return self.check_seconds > 0 and (now - self.last_check).total_seconds() >= \
            self.check_seconds

    def renames(self, now: datetime) -> dict[int, str]:
        """Every bound user's current username, by id (one request per 50 users)."""
        self.last_check = now
        ids = sorted({i for bound in self.names.values() for i in bound})
        current: dict[int, str] = {}
        for start in range(0, len(ids), CARDS):
            for user in self.client.users_by_ids(ids[start:start + CARDS]):
                current[int(user["id"])] = user["username"]
        return current
