"""What handling one input gives the service to commit (a `Step`), and the helpers that build
its parts: the input row of a post, its events as plain data, and a game's changes in words a
Storyteller reads (`state_changes`, for `!undo` and `!accept`)."""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..adapters.store import Outgoing
from ..core import Post, iso, report


def sha1(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


@dataclass
class Step:
    input: dict | None = None
    events: list[tuple[str, dict]] = field(default_factory=list)
    outgoing: list[Outgoing] = field(default_factory=list)
    cursors: dict[str, int] = field(default_factory=dict)  # committed with the input


def state_changes(before, after, limit: int = 30) -> list[str]:
    """What differs between two game states, one line each (for the ST)."""
    old, new = _flatten(report(before)), _flatten(report(after))
    lines = [f"{key}: {old.get(key, '(none)')} -> {new.get(key, '(none)')}"
             for key in sorted(set(old) | set(new)) if old.get(key) != new.get(key)
             and not key.endswith(("locked_at", ".at", "phase_ends_at"))]
    return lines[:limit] + ([f"... and {len(lines) - limit} more"] if len(lines) > limit else [])


def _flatten(value, prefix: str = "") -> dict:
    items: Iterable[tuple[object, object]]
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list):
        items = ((str(i), v) for i, v in enumerate(value))
    else:
        return {prefix: value}
    out = {}
    for key, item in items:
        out.update(_flatten(item, f"{prefix}.{key}" if prefix else str(key)))
    return out


def post_row(post_id: int, post: Post) -> dict:
    """The input row a thread post is stored as."""
    return {"kind": "post", "post_id": post_id, "post_number": post.post_number,
            "author": post.author, "at": iso(post.created_at), "raw": post.raw,
            "raw_sha1": sha1(post.raw)}


def events_of(events) -> list[tuple[str, dict]]:
    return [(type(e).__name__, dataclasses.asdict(e)) for e in events]
