"""Theory of operation: `modbot export` and `modbot verify`, the game's record for everyone.

`export_game` folds a stored game (as the daemon does at start, cli/audit.py's `load_runtime`) and
writes its record (core/record.py) as JSON, schema `SCHEMA` (docs/export.md,
data/export-schema.json): codes stay codes, each with its words beside it (`text`), moments are
ISO 8601 in UTC. A game not yet over is refused unless asked for (`before_the_end`): the record
holds every secret. `export_clocktracker` writes the same record as ClockTracker's importer
reads it (cli/clocktracker.py). `thread_file` writes the game thread's posts (number, author, time, raw) in
the thread-file form `modbot replay` and `modbot verify` read.

`verify_thread` finds, among the bot's own posts (a marker in anyone else's post proves
nothing), the seal posted at the deal and the reveal's canonical JSON and salt, recomputes
`sha256(salt + json)` and says whether the published grimoire is the one sealed at the deal.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from ..adapters.port import ForumPost
from ..adapters.store import Store
from ..app.games.identities import bound_cursor
from ..app.posting.catalogue import words
from ..core import SCHEMA_VERSION, GameSetup, Say, commitment, game_record, iso
from ..files.threadfile import load_thread, raw_posts
from .audit import load_runtime
from .clocktracker import clocktracker_game

SCHEMA = f"https://modbot.invalid/schema/game/{SCHEMA_VERSION}"
SEAL_LINE = re.compile(r"^SHA-256: `([0-9a-f]{64})`", re.MULTILINE)
SEALED_JSON = re.compile(r"^```json\n(\{.*\})\n```$", re.MULTILINE)
SALT_LINE = re.compile(r"^Salt: `([0-9a-f]{64})`", re.MULTILINE)
MARKER = re.compile(r"<!-- modbot:g\d+:(\S+) -->")


class ExportError(ValueError):
    """What stops an export, in one line."""


def export_game(store: Store, setup: GameSetup, *, before_the_end: bool = False) -> dict[str, Any]:
    return {"$schema": SCHEMA, **jsonable(_record(store, setup, before_the_end)[0])}


def export_clocktracker(store: Store, setup: GameSetup, *, before_the_end: bool = False) -> dict[str, Any]:
    """The game as ClockTracker's importer reads it (cli/clocktracker.py)."""
    record, state = _record(store, setup, before_the_end)
    return clocktracker_game(jsonable(record), state.setup.script, fabled=tuple(state.setup.fabled),
                             bluffs=tuple(state.dealt_bluffs))


def _record(store: Store, setup: GameSetup, before_the_end: bool) -> tuple[dict[str, Any], Any]:
    row, runtime = load_runtime(store, setup)
    runtime.setup = dataclasses.replace(runtime.setup, seal_salt=row.seal_salt or "")
    runtime.state = dataclasses.replace(runtime.state, setup=runtime.setup)
    runtime.load(store.inputs(row.id))
    if runtime.state.winner is None and not before_the_end:
        raise ExportError(f"game {setup.name!r} is not over: its record holds every secret "
                          "(give --before-the-end to export it anyway, for the Storytellers)")
    substitutes = {new for _, new, _ in runtime.state.substitutions}
    ids = {name: store.cursor(bound_cursor(setup.topic_id or 0, name)) for name in substitutes}
    record = game_record(runtime.state, {n: i for n, i in ids.items() if i is not None})
    return record, runtime.state


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


def thread_file(posts: Iterable[ForumPost]) -> list[dict[str, Any]]:
    """Forum posts (ForumPost) in the thread-file form (files/threadfile.py), with each post's
    author id, id and version (what `verify` reads)."""
    return [{"post_number": p.post_number, "username": p.username, "user_id": p.user_id,
             "id": p.id, "version": p.version, "created_at": p.created_at, "raw": p.raw,
             "post_type": 1} for p in posts]


def thread_posts_of(path: str) -> list[ThreadPost]:
    """A thread file's posts as `verify` reads them (ids and versions where the file has
    them: `modbot export --thread` writes them)."""
    load_thread(path)  # a file it cannot read: ThreadFileError, in words
    items = raw_posts(json.loads(Path(path).read_text(encoding="utf-8")), path)
    return [ThreadPost(str(i.get("username", "")), str(i.get("raw", "")), i.get("user_id"),
                       i.get("id"), int(i.get("version") or 1))
            for i in items if isinstance(i, dict)]


# -- verify ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Verdict:
    ok: bool
    message: str  # one line


@dataclass(frozen=True)
class ThreadPost:
    """What `verify` reads of a thread post: its author (a user id, where known) and text."""

    username: str
    raw: str
    user_id: int | None = None
    post_id: int | None = None
    version: int = 1  # Discourse's: above 1, the post was edited (outside the grace period)


def verify_thread(posts: list[ThreadPost], bot_id: int | None = None,
                  version_of: Callable[[int, int], str] | None = None) -> Verdict:
    """The seal posted at the deal against the grimoire and salt the reveal published. The
    bot's posts are known by its user id (`bot_id`; without one, the account that posted the
    thread's opening post, or its first marked post: `_bot_of_thread`), never by a name alone
    (a thread without ids certifies nothing): a post by anyone else carrying the bot's marker
    is ignored, and said. The seal is
    read as first posted (`version_of(post id, n)`: the forum's `GET /posts/ID.json?version=N`:
    the first version that carries the seal; a non-staff bot's seal may join its earlier post
    in a later version), so an edit by staff cannot change what was sealed; an edited seal or
    reveal is said."""
    found_by = ""
    if bot_id is None and any(p.user_id is not None for p in posts):
        bot_id, found_by = _bot_of_thread(posts)
    if bot_id is None:
        return Verdict(False, "the bot cannot be known by its name alone (anyone may take a "
                              "name): give --bot-id, or a thread file with user ids "
                              "(`modbot export --thread` writes them)")
    own: dict[str, ThreadPost] = {}
    forged = set()
    for post in posts:
        keys = MARKER.findall(post.raw)
        if not keys:
            continue
        if post.user_id == bot_id:  # never by a name: anyone may take one
            for key in keys:
                own.setdefault(key, post)
        elif "seal" in keys or "reveal:grimoire" in keys:
            forged.add(f"{post.username} (account {post.user_id})" if post.user_id else post.username)
    who = f"account {bot_id}"
    notes = [f"ignored a seal or reveal posted by {', '.join(sorted(forged))}, not the bot"] if forged else []
    if found_by:
        notes.append(f"the bot was taken to be account {bot_id}, which {found_by} (give "
                     "--bot-id to name it)")
    if "seal" not in own:
        return Verdict(False, "; ".join([f"no seal posted by {who} in this thread (the deal's post)", *notes]))
    seal, reveal = own["seal"], own.get("reveal:grimoire")
    sealed_raw, changed = _first_posted(seal, "seal", version_of)
    if changed is None:
        notes.append(f"the seal post was edited ({seal.version} versions) and its first version "
                     "could not be read: check it on the forum")
    elif changed == "proof":
        notes.append(f"the seal post was edited since the deal ({seal.version} versions): its "
                     "first version was checked")
    elif changed == "words":
        notes.append("the seal post's words were edited since the deal (what it proves is "
                     "unchanged)")
    if reveal is not None and _first_posted(reveal, "reveal:grimoire", version_of)[1] != "":
        notes.append(f"the reveal post was edited after it was posted ({reveal.version} versions)")
    return _compare(sealed_raw, reveal.raw if reveal else "", who, notes)


def _bot_of_thread(posts: list[ThreadPost]) -> tuple[int | None, str]:
    """The bot's account, from a thread whose posts carry user ids: the author of the opening
    post if it carries the bot's marker (`modbot game new` posts it), else of the first post
    that carries one (the bot's first post, before anyone could copy one); and how it was
    found."""
    marked = [p for p in posts if MARKER.search(p.raw) and p.user_id is not None]
    if not marked:
        return None, ""
    opening = posts[0] if posts and posts[0] is marked[0] else None
    return marked[0].user_id, "posted the opening post" if opening else \
        "posted the thread's first post of the bot's"


def _first_posted(post: ThreadPost, key: str, version_of: Callable[[int, int], str] | None) -> tuple[str, str | None]:
    """The text of the first version of `post` that carries the bot's `key` marker, and what
    changed since: "" (nothing: at most the bot's own later posts joined to it), "words",
    "proof" (its SHA-256, grimoire or salt), or None (versions that could not be read)."""
    if post.version <= 1:
        return post.raw, ""
    if version_of is None or post.post_id is None:
        return post.raw, None
    first = post.raw
    for number in range(1, post.version + 1):
        text = version_of(post.post_id, number)
        if key in MARKER.findall(text):
            first = text
            break
    if _said(first) != _said(post.raw):
        return first, "proof"
    return first, "" if first.strip() in post.raw else "words"


def _said(raw: str) -> tuple[Any, ...]:
    """What a seal or reveal post proves: its SHA-256, grimoire and salt lines."""
    return tuple(m.group(1) if (m := pattern.search(raw)) else None
                 for pattern in (SEAL_LINE, SEALED_JSON, SALT_LINE))


def _compare(sealed_raw: str, revealed: str, who: str, notes: list[str]) -> Verdict:
    sealed = SEAL_LINE.search(sealed_raw)
    text, salt = SEALED_JSON.search(revealed), SALT_LINE.search(revealed)
    said = "".join(f"; {n}" for n in notes)
    if sealed is None:
        return Verdict(False, f"the seal post shows no SHA-256{said}")
    if text is None or salt is None:
        return Verdict(False, f"no reveal by {who} with the grimoire and its salt in this thread{said}")
    digest = commitment(salt.group(1), text.group(1))
    if digest != sealed.group(1):
        return Verdict(False, f"MISMATCH: the published grimoire gives {digest}, the seal posted "
                              f"at the deal is {sealed.group(1)}: it is not the grimoire dealt{said}")
    seats = len(json.loads(text.group(1)).get("seats", []))
    return Verdict(True, f"OK: the published grimoire ({seats} seats) is the one sealed at the "
                         f"deal (SHA-256 {digest}){said}")
