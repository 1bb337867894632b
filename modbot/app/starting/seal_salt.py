"""Theory of operation: each game's secret salt for the seal of its grimoire (core/seal.py).

The core has no randomness, so the shell makes the salt: 32 random bytes (`secrets`), written
as 64 hex digits, once per game, when `modbot game new` opens it or `modbot run` first starts
it; it is kept in the game's row of the store and goes into the game's setup. It is also
written in the Storytellers' conversation's first note, so that a game rebuilt from the forum
after its database was lost finds the same salt (`recovered_salt`) before it replays the deal.
Forum admins can read PMs: the salt is secret from the players, not from them.
"""

from __future__ import annotations

import dataclasses
import re
import secrets

from ...adapters.store_port import GameRows
from ...core import GameSetup

SALT_LINE = re.compile(r"seal's salt[^`]*`([0-9a-f]{64})`")


def salt_for(store: GameRows, key: str, name: str) -> str:
    """The game's salt, made now if it has none."""
    row = store.game(key, name)
    if not row.seal_salt:
        row.seal_salt = secrets.token_hex(32)
        row.save()
    return row.seal_salt


def salted(store: GameRows, setup: GameSetup, topic_id: int) -> GameSetup:
    """The setup with its game's salt."""
    return dataclasses.replace(setup, seal_salt=salt_for(store, str(topic_id), setup.name))


def recovered_salt(welcome_raw: str) -> str | None:
    """The salt the Storytellers' conversation's first note shows (None: not there)."""
    match = SALT_LINE.search(welcome_raw)
    return match.group(1) if match else None


def keep_salt(store: GameRows, key: str, salt: str) -> None:
    row = store.find_game(key)
    if row is not None and row.seal_salt != salt:
        row.seal_salt = salt
        row.save()
