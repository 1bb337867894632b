"""Theory of operation: what the outbox asks of the service while it sends, by private row.

The outbox (adapters/outbox.py) knows rows, not games. For a private row it asks:
- `recipient_ids`: the user ids its recipients are bound to in its game (identities.py), so
  the conversation guard (conversation_guard.py) compares who is in a conversation by id;
- `lost_post`: a post the bot edits was deleted, moved or hidden, so the edit went out as a
  new post: the Storytellers are told once;
- `recipients_now`: a new conversation's recipients by their names now, asked by id (one
  `GET /user-cards.json` for every game's places, at most once a minute), so a name someone
  renamed away from, and someone else took, never receives a grimoire;
and it reports back: a conversation it opened (`opened`: the PM router knows who is in it), an
intruder found in a conversation (`intruder`), the day's new
conversations spent (`pm_limit`), slow mode or the day's edits delaying it (`limit`), a post
refused for good (`failure_report`), and, from the store, a post whose words failed to render
(`held`). Each answer goes to the row's game's Storytellers.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ...adapters.outbox import Outbox
from ...adapters.outgoing import Outgoing
from ...adapters.store import OutboxRow
from ...adapters.store_port import PendingStore
from ..games.identities import Identities
from ..games.runtime import GameRuntime
from ..reading.pm_routing import PmRouter
from .conversation_guard import intrusion_notes
from .render import later, render

NAMES_FRESH = 60.0  # seconds a look-up of the places' names serves new conversations


class OutboxHooks:
    """Given the games, the identities, the store and the bot's name (running/parts.py); told
    where to commit and whom the PM router knows (`attach`), and the outbox and the bot's
    account once the service has connected (`connected`)."""

    def __init__(self, games: dict[int, GameRuntime], identities: Identities, store: PendingStore,
                 bot_username: str) -> None:
        self.games, self.identities, self.store = games, identities, store
        self.bot_username = bot_username
        self.commit: Callable[[list[Outgoing]], object] = _unattached
        self.router: PmRouter | None = None
        self.outbox: Outbox | None = None
        self.bot_id: int | None = None
        self.names_now: dict[int, str] = {}  # user id -> username, asked for new conversations
        self.asked = -NAMES_FRESH  # when (monotonic)

    def attach(self, commit: Callable[[list[Outgoing]], object], router: PmRouter) -> None:
        """Where the notes go (the handling's commit) and the router that learns who is in a
        conversation the bot opened."""
        self.commit, self.router = commit, router

    def connected(self, outbox: Outbox, bot_id: int | None) -> None:
        self.outbox, self.bot_id = outbox, bot_id

    def game_of(self, row: OutboxRow) -> GameRuntime | None:
        return self._game_by_key(row.key)

    def _game_by_key(self, key: str) -> GameRuntime | None:
        return next((g for g in self.games.values()
                     if key.startswith(g.options.key + ":")), None)

    def _bound(self, row: OutboxRow) -> list[tuple[str, int | None]] | None:
        """A private row's recipients with the user id each is bound to in the row's game
        (None for a name the game has not bound); None without a game or recipients."""
        game = self.game_of(row)
        names = [r.strip() for r in (row.recipients or "").split(",") if r.strip()]
        if game is None or not names:
            return None
        return [(name, self.identities.holder(game, name)) for name in names]

    def recipient_ids(self, row: OutboxRow) -> set[int] | None:
        """The user ids a private row's recipients are bound to in its game (None: a name the
        game has not bound; the guard then compares names)."""
        bound = self._bound(row)
        if bound is None or any(i is None for _, i in bound):
            return None
        return {i for _, i in bound if i is not None}

    def recipients_now(self, row: OutboxRow) -> str | None:
        """A new conversation's recipients by their names now: each bound to an id in the
        row's game, asked by id (every game's places in one request for 50, at most once a
        minute: a deal, or 40 games' first notes, cost one), so a name someone renamed away
        from, and someone else took, never gets it."""
        bound = self._bound(row)
        if bound is None:
            return None
        if time.monotonic() - self.asked > NAMES_FRESH or \
                any(i is not None and i not in self.names_now for _, i in bound):
            places = {i for names in self.identities.names.values() for i in names}
            self.names_now = self.identities.current_names(places)
            self.asked = time.monotonic()
        return ",".join(self.names_now.get(i, name) if i is not None else name
                        for name, i in bound)

    def opened(self, row: OutboxRow, topic_id: int) -> None:
        """The bot opened conversation `topic_id` for `row`: who is in it is known (the bot
        and the recipients, by the ids they are bound to), so the PM router need not read it
        when they write there (pm_routing.py; the guard still reads it before each post)."""
        bound, bot_id = self._bound(row), self.bot_id
        if bot_id is None or bound is None or any(i is None for _, i in bound):
            return  # a name not bound to an id: the router reads the conversation
        people = {bot_id: self.bot_username.lower()}
        people.update({i: self.names_now.get(i, name).lower() for name, i in bound
                       if i is not None})
        if self.router is not None:
            self.router.topics[topic_id] = people

    def intruder(self, row: OutboxRow, topic_id: int, names: list[str]) -> None:
        """Someone the game did not put there joined a private conversation (see
        conversation_guard.py): the player is told in their new one, the Storytellers what the
        newcomers could read."""
        if self.router is not None:
            self.router.topics.pop(topic_id, None)
        game = self.game_of(row)
        if game is None:
            return
        recipients = [r for r in (row.recipients or "").split(",") if r]
        player = None if row.thread.endswith((":pm:storytellers", ":pm:observers")) or \
            ":pmtopic:" in row.thread or not recipients else recipients[0]
        self.commit(intrusion_notes(game.reactor, player, topic_id, names,
                                                     game.state.setup.storytellers))

    def pm_limit(self, row: OutboxRow, seconds: float) -> None:
        """The bot's new conversations for the day are spent: each game with some waiting is
        told once per day's window, in its Storytellers' conversation."""
        outbox = self.outbox
        if outbox is None:
            return
        waiting = [r for r in self.store.pending() if outbox.opens_conversation(r)]
        for game in self.games.values():
            mine = [r for r in waiting if r.key.startswith(game.options.key + ":")]
            if mine:
                window = int((time.time() + seconds) // 3600)
                self.commit([game.reactor.note_to_storytellers(
                    game.state.setup.storytellers, f"pm-limit:{window}",
                    later("pm_limit.md.j2", waiting=len(mine),
                          hours=max(1, round(seconds / 3600)),
                          bot=self.bot_username))])

    def limit(self, row: OutboxRow, kind: str, seconds: float) -> None:
        """A forum limit delays the bot's posts (write_limits.py: "slow_mode", "edit_limit";
        standing.py: "silenced"): the row's game's Storytellers are told once (slow mode: once
        per game; the edits of a day, a silence: once per forum day), with what would lift it."""
        game = self.game_of(row)
        if game is None:
            return
        when = "" if kind == "slow_mode" else f":{int((time.time() + seconds) // 86400)}"
        self.commit([game.reactor.note_to_storytellers(
            game.state.setup.storytellers, f"limit:{kind}{when}",
            later("forum_limit.md.j2", kind=kind, bot=self.bot_username,
                  minutes=max(1, round(seconds / 60)), hours=max(1, round(seconds / 3600)),
                  ends_in=seconds))])

    def held(self, key: str, error: str) -> None:
        """A post whose words failed to render is held (adapters/rendering.py): its game's
        Storytellers are told once, with its key and the error; the game goes on, and the post
        is rendered again when the bot next starts."""
        game = self._game_by_key(key)
        if game is None or ":held:" in key:  # a note about a held post held itself: logged
            return
        self.commit([game.reactor.note_to_storytellers(
            game.state.setup.storytellers, f"held:{key.split(':', 1)[1]}",
            later("post_held.md.j2", key=key, error=error))])

    def replaced_note(self, row: OutboxRow, target: OutboxRow, why: str | None) -> str:
        """The line a post made anew ends with, where the post it could not edit (the
        running vote count) is still there for readers: which post it replaces."""
        game = self.game_of(row)
        if game is None or why in ("deleted", "moved"):  # nothing left to mistake it for
            return ""
        return render("replaces.md.j2", post_number=target.post_number,
                      topic_id=target.topic_id or game.topic_id).strip()

    def lost_post(self, row: OutboxRow, why: str) -> None:
        """A post the bot keeps up to date was deleted, moved or hidden by someone else: it
        went out as a new post in the game thread; the Storytellers hear it once."""
        game = self.game_of(row)
        if game is None:
            return
        kept = row.edit_of or row.key
        self.commit([game.reactor.note_to_storytellers(
            game.state.setup.storytellers, f"lost-post:{kept.split(':', 1)[-1]}:{why}",
            later("own_post_lost.md.j2", why=why, topic_id=game.topic_id))])

    def failure_report(self, row: OutboxRow, error: str) -> Outgoing | None:
        game = self.game_of(row)
        if game is None or row.thread.endswith(":pm:storytellers") or not game.setup.storytellers:
            return None
        recipients = tuple(filter(None, (row.recipients or "").split(",")))
        recipients = tuple(r for r in recipients if r not in game.setup.storytellers)
        if not recipients and ":pm:" in row.thread:
            recipients = (row.thread.rsplit(":pm:", 1)[1],)
        return game.reactor.failure_report(game.setup.storytellers, row.key, error, recipients)


def _unattached(_outgoing: list[Outgoing]) -> None:
    raise RuntimeError("the outbox hooks are not attached to the handling (running/parts.py)")
