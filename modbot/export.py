"""Theory of operation: `modbot export` and `modbot verify`, the game's record for everyone.

`export_game` folds a stored game (as the daemon does at start, audit.py's `load_runtime`) and
writes its record (core/record.py) as JSON, schema `SCHEMA` (docs/export.md,
data/export-schema.json): codes stay codes, each with its words beside it (`text`), moments are
ISO 8601 in UTC. A game not yet over is refused unless asked for (`before_the_end`): the record
holds every secret. `thread_file` writes the game thread's posts (number, author, time, raw) in
the thread-file form `modbot replay` and `modbot verify` read.

`verify_thread` finds, among the bot's own posts (a marker in anyone else's post proves
nothing), the seal posted at the deal and the reveal's canonical JSON and salt, recomputes
`sha256(salt + json)` and says whether the published grimoire is the one sealed at the deal.
"""

from __future__ import annotations

import dataclasses
import json
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from .adapters.store import Store
from .app.catalogue import words
from .audit import load_runtime
from .core import SCHEMA_VERSION, GameSetup, Say, commitment, game_record, iso

SCHEMA = f"https://modbot.invalid/schema/game/{SCHEMA_VERSION}"
SEAL_LINE = re.compile(r"^SHA-256: `([0-9a-f]{64})`", re.MULTILINE)
SEALED_JSON = re.compile(r"^```json\n(\{.*\})\n```$", re.MULTILINE)
SALT_LINE = re.compile(r"^Salt: `([0-9a-f]{64})`", re.MULTILINE)
MARKER = re.compile(r"<!-- modbot:g\d+:(\S+) -->")


class ExportError(ValueError):
    """What stops an export, in one line."""


def export_game(store: Store, setup: GameSetup, *, before_the_end: bool = False) -> dict:
    row, runtime = load_runtime(store, setup)
    runtime.setup = dataclasses.replace(runtime.setup, seal_salt=row.seal_salt or "")
    runtime.state = dataclasses.replace(runtime.state, setup=runtime.setup)
    runtime.load(store.inputs(row.id))
    if runtime.state.winner is None and not before_the_end:
        raise ExportError(f"game {setup.name!r} is not over: its record holds every secret "
                          "(give --before-the-end to export it anyway, for the Storytellers)")
    return {"$schema": SCHEMA, **jsonable(game_record(runtime.state))}


def jsonable(value: Any) -> Any:
    """The record as JSON values: a moment in ISO 8601, a code with its words."""
    if isinstance(value, datetime):
        return iso(value)
    if isinstance(value, Say):
        return {"code": value.code, "text": words(value)}
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    return value


def thread_file(posts) -> list[dict]:
    """Forum posts (ForumPost) in the thread-file form (files/threadfile.py)."""
    return [{"post_number": p.post_number, "username": p.username,
             "created_at": p.created_at, "raw": p.raw, "post_type": 1} for p in posts]


# -- verify ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Verdict:
    ok: bool
    message: str  # one line


def verify_thread(posts: list[tuple[str, str]], bot: str) -> Verdict:
    """The seal posted at the deal against the grimoire and salt the reveal published
    (`posts`: the thread's (author, raw), in order)."""
    own: dict[str, str] = {}
    for author, raw in posts:
        if author.casefold() == bot.casefold():
            for key in MARKER.findall(raw):
                own.setdefault(key, raw)
    if "seal" not in own:
        return Verdict(False, f"no seal posted by {bot} in this thread (the deal's post)")
    sealed = SEAL_LINE.search(own["seal"])
    revealed = own.get("reveal:grimoire", "")
    text, salt = SEALED_JSON.search(revealed), SALT_LINE.search(revealed)
    if sealed is None:
        return Verdict(False, "the seal post shows no SHA-256")
    if text is None or salt is None:
        return Verdict(False, f"no reveal by {bot} with the grimoire and its salt in this thread")
    digest = commitment(salt.group(1), text.group(1))
    if digest != sealed.group(1):
        return Verdict(False, f"MISMATCH: the published grimoire gives {digest}, the seal posted "
                              f"at the deal is {sealed.group(1)}: it is not the grimoire dealt")
    seats = len(json.loads(text.group(1)).get("seats", []))
    return Verdict(True, f"OK: the published grimoire ({seats} seats) is the one sealed at the "
                         f"deal (SHA-256 {digest})")
