"""Theory of operation: rebuild a game from the forum, when the database lost it (`modbot run`
finds the bot's own marked posts in the thread, or in the PMs, of a game it has nothing stored
for) or on purpose (`modbot recover`, in `modbot/cli/recover.py`: a lost disk, a new machine).

`rebuild_game` reads what the forum keeps (`rebuild.gather`), then replays it through the
service's own reading path (`Service.handle_in_order`: the same order, PM routing and clock
ticks as the live loop), with the bot's earlier posts adopted by marker so nothing the forum
shows is posted again; it ends with one note to the Storytellers. All in one transaction.
(The service is passed in, not imported: the service calls this module.)
"""

from __future__ import annotations

import dataclasses
import logging
from datetime import datetime, timedelta
from typing import Protocol

from ...adapters.forum_port import ForumPort
from ...adapters.outgoing import Batch
from ...adapters.port import ForumPost
from ...adapters.store import Store
from ...core import GameSetup, GameState
from ..games.handling import Handling
from ..games.identities import Identities
from ..games.runtime import GameRuntime
from ..posting.reactions import WELCOME, title_forms
from ..posting.render import later
from ..reading.pm_routing import member, waiting_member
from ..reading.thread_reads import PagedReads
from ..running.settings import Settings
from ..starting.seal_salt import keep_salt, recovered_salt
from .rebuild import ForumHistory, Rebuilt, gather, ran_before, unmatched

log = logging.getLogger("modbot.app.recovery.recovery")


class Recovering(Protocol):
    """What a game's first read and its rebuild use of the service (service.py's
    `Service`, through start-up): the forum and the store, the handling that replays, the
    identities, the long reads, the games started and waiting, and where a rebuild is told."""

    client: ForumPort
    store: Store
    settings: Settings
    setups: list[GameSetup]
    games: dict[int, GameRuntime]
    handling: Handling
    identities: Identities
    long_reads: PagedReads
    rebuilt: dict[int, Rebuilt]


def first_read(service: Recovering, game: GameRuntime, now: datetime | None) -> bool:
    """A game with nothing stored: new, or run before from a database since lost (the bot's
    own marked posts in its thread or its PMs for the game say which: rebuild.py). False
    while its thread is not all read (a long one: a few pages a cycle, thread_reads.py)."""
    posts = service.long_reads.read(service.client, game.topic_id, show_deleted="true")
    if posts is None:
        return False
    if ran_before(service.client, service.settings.bot_username, game.options.key,
                  game.topic_id, posts, title_forms(game.options.name, game.topic_id)):
        service.rebuilt[game.topic_id] = rebuild_game(service, game, now, posts)
    else:
        service.handling.handle_in_order({game: posts}, [])
    return True


def rebuild_game(service: Recovering, game: GameRuntime, now: datetime | None,
                 thread: list[ForumPost] | None = None) -> Rebuilt:
    """Replay what the forum keeps of a game whose stored inputs are gone, adopting the bot's
    earlier posts; tell the Storytellers. One transaction. (`thread`: read already, deleted
    posts included.)"""
    bot = service.settings.bot_username
    history = gather(service.client, bot, game.topic_id, thread)
    log.warning("game %s: nothing stored, but the forum shows the bot's posts: rebuilding it "
                "from %d thread posts and %d PMs", game.setup.name, len(history.thread),
                len(history.pms))
    _recover_salt(service.store, game, history)
    service.handling.adopt.add(history)
    members = [*service.handling.members(), member(game, service.identities),
               *(waiting_member(s) for s in service.setups
                 if s.topic_id not in service.games and s.topic_id != game.topic_id)]
    service.handling.rebuilding = game
    store = service.store
    try:
        with store.db.atomic():
            service.handling.handle_in_order({game: history.thread}, history.pms,
                                    [(game, p) for p in history.edits.values()], members)
            if now is not None:
                service.handling.tick_until(game, now - timedelta(seconds=service.settings.settle_seconds))
            done = _tell_storytellers(service, game, history)
            if history.pms and store.cursor("private_post_id") is None:
                store.commit(Batch(cursors={"private_post_id": max(p.id for p in history.pms)}))
    finally:
        service.handling.rebuilding = None
    store.send_again(list(service.handling.adopt.last_edit.values()))  # once: this game's
    service.handling.adopt.last_edit.clear()
    return done


def _recover_salt(store: Store, game: GameRuntime, history: ForumHistory) -> None:
    """The seal's salt, as the Storytellers' conversation's first note shows it: the deal's
    seal was made with it (seal_salt.py). Set before anything is folded."""
    welcome = history.own.get(f"{game.options.key}:{WELCOME}")
    salt = recovered_salt(welcome.raw) if welcome is not None else None
    if salt is None or salt == game.setup.seal_salt:
        return
    keep_salt(store, str(game.topic_id), salt)
    game.setup = dataclasses.replace(game.setup, seal_salt=salt)
    game.state = GameState.from_setup(game.setup)


def _tell_storytellers(service: Recovering, game: GameRuntime, history: ForumHistory) -> Rebuilt:
    prefix = f"{game.options.key}:"
    bot = service.settings.bot_username.lower()
    done = Rebuilt(
        thread_posts=sum(1 for p in history.thread if p.username.lower() != bot),
        pms=len(game.seen_pms), recognised=service.store.count_rows(prefix, "sent"),
        owed=service.store.count_rows(prefix, "pending"), left_out=history.left_out,
        unmatched=unmatched(history, service.handling.adopt.derived, game.options.key))
    last = max((p.id for p in [*history.thread, *history.pms]), default=0)
    raw = later("rebuilt.md.j2", done=done, topic_id=game.topic_id)
    service.handling.commit_outgoing([game.reactor.note_to_storytellers(
        game.setup.storytellers, f"rebuilt:{last}", raw)])
    log.warning("game %s: rebuilt: %d thread posts and %d PMs replayed, %d of the bot's posts "
                "recognised, %d owed", game.setup.name, done.thread_posts, done.pms,
                done.recognised, done.owed)
    return done

