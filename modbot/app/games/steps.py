"""What handling one input gives the service to commit (a `Step`), and the helpers that build
its parts: the input row of a post and its events as plain data. (What `!undo` and `!accept`
would change is told in game terms by `upgrade.game_differences`.)"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from ...adapters.outgoing import Outgoing
from ...adapters.port import ForumPost
from ...core import Event, Post, iso


def sha1(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


@dataclass
class Step:
    input: dict[str, Any] | None = None
    events: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    outgoing: list[Outgoing] = field(default_factory=list)
    cursors: dict[str, int] = field(default_factory=dict)  # committed with the input


def game_input(post: ForumPost) -> Post:
    """The forum's post as a game's input: the one shape the runtime, the core and the
    store's input rows share (core `Post`, with the forum's id)."""
    return Post(post.post_number, post.username, post.created, post.raw, post.id)


def post_row(post: Post) -> dict[str, Any]:
    """The input row a thread post is stored as."""
    return {"kind": "post", "post_id": post.post_id, "post_number": post.post_number,
            "author": post.author, "at": iso(post.created_at), "raw": post.raw,
            "raw_sha1": sha1(post.raw)}


def pm_row(post: Post, topic_id: int, shared: bool, participants: tuple[str, ...]) -> dict[str, Any]:
    """The input row a PM is stored as: its conversation's topic and participants too."""
    return {**post_row(post), "kind": "pm", "topic_id": topic_id, "shared": shared,
            "participants": ",".join(participants) or None}


INPUT_FIELDS = ("kind", "post_id", "topic_id", "shared", "participants", "post_number",
                "author", "at", "raw", "raw_sha1")  # the store's InputRow columns


def input_row(fields: dict[str, Any]) -> SimpleNamespace:
    """An input row as the store gives it back (`GameRuntime.apply_input` reads it), from the
    dict that is stored, quarantined or parked (quarantine.py)."""
    return SimpleNamespace(**{name: fields.get(name) for name in INPUT_FIELDS})


def events_of(events: Iterable[Event]) -> list[tuple[str, dict[str, Any]]]:
    return [(type(e).__name__, dataclasses.asdict(e)) for e in events]
