"""No deal to a name the forum does not know: a new game starts only once every seat and every
Storyteller is a forum user, and its Storytellers are told what to fix.

Theory of operation: a game the store has never seen (no input yet) waits outside the running
games (`Service.waiting`) until each of its names has been looked up (`GET /u/NAME.json`), at
most `PER_CYCLE` lookups a cycle so that many new games stay inside the admin budget; a name is
looked up once for all games. While a name is unknown the game is not read, so nothing is dealt
and no post changes it; its Storytellers get one note naming the seat, the name, a near miss
when the forum has one, and the fix (the game file, or the forum account). A name found unknown
is asked again after `RECHECK_SECONDS`, so an account created later lets the game start; its
posts are then read from the thread's beginning, as at any start. The ids found are kept
(`on_found`), so binding the seats to their accounts (identities.py) asks nothing more.
"""

from __future__ import annotations

import time

from ..adapters.forum import ForumClient, ForumError, NotFound
from ..adapters.store import Outgoing
from ..core import GameSetup
from .preflight import near_misses
from .reactions import GameOptions, Reactor
from .render import render

PER_CYCLE = 20
RECHECK_SECONDS = 600.0


class DealGuard:
    def __init__(self, client: ForumClient, wall=time.monotonic, on_found=None) -> None:
        self.client = client
        self.on_found = on_found  # (name, user id): the ids identities.py binds seats to
        self.wall = wall
        self.known: set[str] = set()
        self.unknown: dict[str, tuple[float, tuple[str, ...]]] = {}  # name -> (asked at, near)
        self.budget = PER_CYCLE

    def new_cycle(self) -> None:
        self.budget = PER_CYCLE

    def unknown_names(self, setup: GameSetup) -> list[tuple[int, str, tuple[str, ...]]] | None:
        """None when every name is a forum user; else the (seat number, name, near misses) the
        forum does not know (empty: some names are not looked up yet)."""
        names = [(i + 1, s.name) for i, s in enumerate(setup.seats)] + \
            [(0, name) for name in setup.storytellers]
        waiting = False
        for _, name in names:
            waiting |= not self._looked_up(name)
        missing = [(seat, name, self.unknown[name.lower()][1]) for seat, name in names
                   if name.lower() in self.unknown]
        return missing if missing or waiting else None

    def _looked_up(self, name: str) -> bool:
        key = name.lower()
        if key in self.known:
            return True
        asked = self.unknown.get(key)
        if asked is not None and self.wall() - asked[0] < RECHECK_SECONDS:
            return True
        if self.budget <= 0:
            return False
        self.budget -= 1
        try:
            user = self.client.user(name)
        except NotFound:
            self.unknown[key] = (self.wall(), tuple(near_misses(self.client, name)))
            return True
        except ForumError:
            return False  # asked again next cycle
        self.known.add(key)
        self.unknown.pop(key, None)
        if self.on_found is not None and user.get("id"):
            self.on_found(name, int(user["id"]))
        return True


def held_note(setup: GameSetup, unknown) -> Outgoing:
    """The Storytellers' note for a game held by unknown names (one per set of names)."""
    key = "held:" + "+".join(sorted(name.lower() for _, name, _ in unknown))
    reactor = Reactor(GameOptions(setup.topic_id, f"g{setup.topic_id}",
                                  storytellers=setup.storytellers))
    return reactor.note_to_storytellers(setup.storytellers, key, render(
        "deal_held.md.j2", game=setup.name, unknown=unknown))
