"""Theory of operation: a snapshot of a running game, so that a restart does not fold its whole
history again.

A game's state is the fold of its stored inputs; folding 10,000 posts takes a second or two.
So the service stores, now and then (`Settings.snapshot_seconds` after the last one, when the
game has new inputs, and when the bot stops cleanly), the runtime's memory whole: every
attribute of the runtime but its configuration (`CONFIG`: the game file's set-up and options,
its row id, which a restart rebuilds) and every field of its reactor but its wiring, so a new
field is kept without being listed here; the inputs `!undo` refolds go as plain tuples (they
unpickle far faster than dataclasses). Pickled, with the number of inputs it folds. A restart
restores it and folds only the inputs stored after it.

The snapshot is a cache of the fold and is trusted only by the code and game file that wrote
it: its version is a hash of modbot's source and of the game's set-up, and any difference
(an upgrade, a corrected game file) means the full fold, as before (and, when the rules
changed, the upgrade check of `upgrade.py`). A snapshot that cannot be read is ignored the
same way. The store is the bot's own: nothing else writes these bytes.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import pickle
import time
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ...adapters.store_models import SnapshotRow
from ...core import GameSetup, Post

if TYPE_CHECKING:
    from ..posting.reactions import Reactor

log = logging.getLogger("modbot.app.recovery.snapshot")
PACKAGE = Path(__file__).resolve().parents[2]
CONFIG = ("setup", "options", "game_id", "reactor")  # rebuilt from the game file, not memory


class SnapshotGame(Protocol):
    """What a snapshot reads and restores of a game (games/runtime.py's `GameRuntime`,
    which restores through this module: a protocol, not an import back)."""

    setup: GameSetup
    game_id: int
    inputs: list[tuple[Any, ...]]
    reactor: Reactor

    def load(self, inputs: Iterable[Any], collect: bool = False,
             again: set[str] | frozenset[str] = frozenset()) -> dict[int, list[tuple[str, dict[str, Any]]]]: ...
    def follow_renames(self) -> None: ...


class SnapshotStore(Protocol):
    def snapshot(self, game_id: int) -> SnapshotRow | None: ...
    def inputs(self, game_id: int, after: int = 0) -> list[Any]: ...
    def input_count(self, game_id: int) -> int: ...
    def save_snapshot(self, game_id: int, inputs: int, version: str, data: bytes) -> None: ...


def memory_names(game: SnapshotGame) -> list[str]:
    """The runtime's memory: every attribute but its configuration."""
    return [name for name in vars(game) if name not in CONFIG]


WIRING = ("options", "held_posts", "quarantined", "plan", "newest_raw")  # the reactor's configuration and its line to the store


def reactor_names(reactor: Reactor) -> list[str]:
    """The reactor's memory: every field but its wiring."""
    return [f.name for f in dataclasses.fields(reactor) if f.name not in WIRING]


def source_digest(folder: Path) -> str:
    """A SHA-1 of every Python file under `folder` (names and contents)."""
    digest = hashlib.sha1()
    for path in sorted(folder.rglob("*.py")):
        digest.update(path.relative_to(folder).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


@lru_cache(maxsize=1)
def code_version() -> str:
    return source_digest(PACKAGE)


def version(setup: GameSetup) -> str:
    """What a snapshot must have been written by: this code, this game file's set-up."""
    return hashlib.sha1(f"{code_version()}\n{setup!r}".encode()).hexdigest()


def take(game: SnapshotGame) -> bytes:
    memory = {name: getattr(game, name) for name in memory_names(game)}
    memory["inputs"] = [_flat(entry) for entry in game.inputs]
    memory["reactor"] = {name: getattr(game.reactor, name) for name in reactor_names(game.reactor)}
    return pickle.dumps(memory, protocol=pickle.HIGHEST_PROTOCOL)


def restore(game: SnapshotGame, data: bytes) -> bool:
    """Put a snapshot's memory back into a fresh runtime; False if it cannot be read."""
    try:
        memory = pickle.loads(data)
        values = {name: memory[name] for name in memory_names(game)}
        values["inputs"] = [_entry(flat) for flat in memory["inputs"]]
        reactor = {name: memory["reactor"][name] for name in reactor_names(game.reactor)}
    except Exception as exc:
        log.warning("game %s: its snapshot cannot be read (%s): folding its inputs",
                    game.setup.name, exc)
        return False
    for name, value in values.items():
        setattr(game, name, value)
    for name, value in reactor.items():
        setattr(game.reactor, name, value)
    game.follow_renames()
    return True


def _flat(entry: tuple[Any, ...]) -> tuple[Any, ...]:
    """An input as plain tuples: 10,000 posts unpickle six times faster as tuples than as
    frozen dataclasses, and are made posts again as fast."""
    kind, value, post_id = entry
    if kind in ("post", "late", "hidden"):
        return kind, tuple(_fields(value)), post_id
    if kind == "pm":
        return kind, (tuple(_fields(value[0])), value[1]), post_id
    return entry


def _entry(flat: tuple[Any, ...]) -> tuple[Any, ...]:
    kind, value, post_id = flat
    if kind in ("post", "late", "hidden"):
        return kind, Post(*value), post_id
    if kind == "pm":
        return kind, (Post(*value[0]), value[1]), post_id
    return flat


def _fields(post: Post) -> tuple[int, str, Any, str, int | None]:
    return post.post_number, post.author, post.created_at, post.raw, post.post_id


class Snapshots:
    """The games' snapshots in the store, and when each was last taken."""

    def __init__(self, store: SnapshotStore, every: float) -> None:
        self.store = store
        self.every = every
        self.taken: dict[int, tuple[int, float]] = {}  # game id -> (inputs, monotonic time)

    def restore(self, game: SnapshotGame) -> bool:
        """The game from its snapshot and the inputs stored after it; False: fold them all."""
        row = self.store.snapshot(game.game_id)
        if row is None or row.version != version(game.setup) or not restore(game, bytes(row.data)):
            return False
        game.load(self.store.inputs(game.game_id, after=row.inputs))
        self.taken[game.game_id] = (row.inputs, time.monotonic())
        return True

    def save(self, games: Iterable[SnapshotGame], every: float | None = None) -> None:
        """Snapshot each game with new inputs whose last snapshot is `every` seconds old."""
        every = self.every if every is None else every
        for game in games:
            count, taken = self.taken.get(game.game_id, (-1, 0.0))
            if time.monotonic() - taken < every:
                continue
            stored = self.store.input_count(game.game_id)  # every one is folded: each
            if stored == count:  # input is committed as soon as the runtime handled it
                continue
            try:
                data = take(game)
            except (pickle.PicklingError, TypeError, AttributeError) as exc:  # a cache only
                log.error("game %s: no snapshot taken (%s); a restart folds its inputs",
                          game.setup.name, exc)
                data = None
            if data is not None:
                self.store.save_snapshot(game.game_id, stored, version(game.setup), data)
            self.taken[game.game_id] = (stored, time.monotonic())
