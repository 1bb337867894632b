"""What handling one input gives the service to commit (a `Step`), and the helpers that build
its parts: the input row of a post and its events as plain data. (What `!undo` and `!accept`
would change is told in game terms by `upgrade.game_differences`.)"""

from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass, field

from ..adapters.outgoing import Outgoing
from ..core import Post, iso


def sha1(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


@dataclass
class Step:
    input: dict | None = None
    events: list[tuple[str, dict]] = field(default_factory=list)
    outgoing: list[Outgoing] = field(default_factory=list)
    cursors: dict[str, int] = field(default_factory=dict)  # committed with the input


def post_row(post: Post) -> dict:
    """The input row a thread post is stored as."""
    return {"kind": "post", "post_id": post.post_id, "post_number": post.post_number,
            "author": post.author, "at": iso(post.created_at), "raw": post.raw,
            "raw_sha1": sha1(post.raw)}


def events_of(events) -> list[tuple[str, dict]]:
    return [(type(e).__name__, dataclasses.asdict(e)) for e in events]
