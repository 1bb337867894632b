"""No deal to a name the forum does not know: a new game starts only once every seat and every
Storyteller is a forum user, and its Storytellers are told what to fix.

Theory of operation: a game the store has never seen (no input yet) waits outside the running
games (`Service.waiting`) until each of its names is known to be a forum user. The names of
every waiting game are asked together, `BATCH` to a request, with Discourse's mention check
(`GET /u/is_local_username.json?usernames[]=…`, which answers many names at once; it gives no
ids: the seats are bound to their ids by identities.py, from the game file, their posts or a
look-up in the background), so 40 new games cost one or two requests, not one per player. A
name is asked once for all games. While a name is unknown the game is not read, so nothing is
dealt and no post changes it; its Storytellers get one note naming the seat, the name, a near
miss when the forum has one (one user search for each unknown name), and the fix (the game
file, or the forum account). A place the game file binds by user id (as `modbot check` writes
it) is not asked: the id is the account, so a game bound in full starts without this request.
A name found unknown is asked again after `RECHECK_SECONDS`, so an account created later lets
the game start; its posts are then read from the thread's beginning, as at any start.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable

from ...adapters.forum import ForumError
from ...adapters.forum_port import ForumPort
from ...adapters.outgoing import Batch, Outgoing
from ...adapters.store_port import OwnPostStore
from ...core import GameSetup
from ..posting.reactions import GameOptions, Reactor
from ..posting.render import later
from ..reading.thread_reads import IDS_A_READ
from .preflight import near_misses

Unknown = list[tuple[int, str, tuple[str, ...]]]  # (seat, name, near misses): unknown names

log = logging.getLogger("modbot.app.starting.deal_guard")

BATCH = 50  # names a request (a URL of a few kilobytes; Discourse sets no limit of its own)
RECHECK_SECONDS = 600.0


BACKUP = -1  # the "seat number" of a backup in `game_names`


def game_names(setup: GameSetup) -> list[tuple[int, str]]:
    """(seat number, name) of every seat, then (0, name) of every Storyteller and (BACKUP,
    name) of every backup: each a place the game binds to a forum account before it starts."""
    return [(i + 1, s.name) for i, s in enumerate(setup.seats)] + \
        [(0, name) for name in setup.storytellers] + [(BACKUP, name) for name in setup.backups]


def names_to_ask(setup: GameSetup) -> list[tuple[int, str]]:
    """The places of `game_names` the game file does not bind by user id (those `modbot check`
    found and wrote: the id is the account, whatever it is called now)."""
    bound = {name.lower() for name, _ in setup.user_ids}
    return [(seat, name) for seat, name in game_names(setup) if name.lower() not in bound]


class DealGuard:
    def __init__(self, client: ForumPort, wall: Callable[[], float] = time.monotonic) -> None:
        self.client = client
        self.wall = wall
        self.known: set[str] = set()
        self.unknown: dict[str, tuple[float, tuple[str, ...]]] = {}  # name -> (asked at, near)

    def check(self, setups: list[GameSetup]) -> None:
        """Ask the forum about every name of these games not asked yet (or due again)."""
        names = list(dict.fromkeys(name.lower() for setup in setups  # in the games' order:
                                   for _, name in names_to_ask(setup)  # the busiest first
                                   if self._to_ask(name.lower())))
        for start in range(0, len(names), BATCH):
            asked = names[start:start + BATCH]
            try:
                valid = self.client.local_usernames(asked)
            except ForumError:
                return  # asked again next cycle
            for name in asked:
                if name in valid:
                    self.known.add(name)
                    self.unknown.pop(name, None)
                else:
                    self.unknown[name] = (self.wall(), tuple(near_misses(self.client, name)))

    def _to_ask(self, key: str) -> bool:
        if key in self.known:
            return False
        asked = self.unknown.get(key)
        return asked is None or self.wall() - asked[0] >= RECHECK_SECONDS

    def unknown_names(self, setup: GameSetup) -> list[tuple[int, str, tuple[str, ...]]] | None:
        """None when every name is a forum user; else the (seat number, name, near misses) the
        forum does not know (empty: some names are not asked yet)."""
        names = names_to_ask(setup)
        missing = [(seat, name, self.unknown[name.lower()][1]) for seat, name in names
                   if name.lower() in self.unknown]
        waiting = any(name.lower() not in self.known for _, name in names)
        return missing if missing or waiting else None


def _reactor(setup: GameSetup) -> Reactor:
    """What writes a waiting game's notes (start-up refuses a game without a topic)."""
    assert setup.topic_id is not None, setup.name
    return Reactor(GameOptions(setup.topic_id, f"g{setup.topic_id}",
                               storytellers=setup.storytellers, name=setup.name))


def tell_held(store: OwnPostStore, setup: GameSetup, unknown: Unknown) -> None:
    """A game not started for names that are no forum user's: logged, and the Storytellers
    told, once."""
    note = held_note(setup, unknown)
    if store.row(note.key) is None:
        log.warning("game %s: not started: %s %s not a forum user", setup.name,
                    ", ".join(name for _, name, _ in unknown),
                    "is" if len(unknown) == 1 else "are")
        store.commit(Batch(outbox=[note]))


def held_note(setup: GameSetup, unknown: Unknown) -> Outgoing:
    """The Storytellers' note for a game held by unknown names (one per set of names)."""
    key = "held:" + "+".join(sorted(name.lower() for _, name, _ in unknown))
    reactor = _reactor(setup)
    return reactor.note_to_storytellers(setup.storytellers, key, later(
        "deal_held.md.j2", game=setup.name, unknown=unknown))


def reading_note(setup: GameSetup, read: int, left: int, reads_a_minute: int | None) -> Outgoing:
    """The Storytellers' note, once, that a long thread is read before the game goes live
    (`reads_a_minute`: the background's share of the request budget; None: unlimited)."""
    reactor = _reactor(setup)
    requests = math.ceil(left / IDS_A_READ)
    minutes = max(1, math.ceil(requests / reads_a_minute) if reads_a_minute else 1)
    return reactor.note_to_storytellers(setup.storytellers, "reading:thread", later(
        "reading_thread.md.j2", game=setup.name, total=read + left, read=read, left=left,
        minutes=minutes))
