"""Theory of operation: what one transaction writes, and the posts the bot owes in it.

An `Outgoing` is a post owed, under a deterministic key; its words are rendered late (on first
read, when the store commits it), so a fold whose posts went out long ago renders nothing. A
`Batch` gathers one transaction's inputs, events, owed posts and cursors (store.py commits it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any


@dataclass(frozen=True)
class Rendered:
    """A post's words, and the pictures (sha1, png) its Markdown embeds (see outbox)."""

    raw: str
    pictures: tuple[tuple[str, bytes], ...] = ()


Body = str | Rendered | Callable[[], str | Rendered]  # an Outgoing's words, now or later


@dataclass(eq=False)
class Outgoing:
    """A post the bot owes: to a public topic, or a PM thread (created on first use).

    Its `body` is rendered late: the words, or a function that renders them (and its
    pictures) when first read, so a fold whose posts went out long ago (start-up, the
    upgrade check) never renders a word or draws a picture."""

    key: str
    thread: str
    body: Body
    topic_id: int | None = None
    recipients: tuple[str, ...] = ()
    title: str | None = None
    kind: str = "post"  # "edit"; "withdraw": the post `edit_of` names, unsent, is not sent
    edit_of: str | None = None  # kind "edit": the key of the post this one rewrites

    @cached_property
    def rendered(self) -> Rendered:
        body = self.body() if callable(self.body) else self.body
        return body if isinstance(body, Rendered) else Rendered(body)

    @property
    def raw(self) -> str:
        return self.rendered.raw

    @property
    def pictures(self) -> tuple[tuple[str, bytes], ...]:
        return self.rendered.pictures


@dataclass
class Batch:
    """One transaction's worth of writes."""

    inputs: list[tuple[int, dict[str, Any]]] = field(default_factory=list)  # (game id, fields)
    events: list[tuple[int, int | None, str, dict[str, Any]]] = field(default_factory=list)
    outbox: list[Outgoing] = field(default_factory=list)
    cursors: dict[str, int] = field(default_factory=dict)
    last_post_numbers: dict[int, int] = field(default_factory=dict)
    # outbox keys the forum already shows in the bot's own posts: (post id, topic, number)
    adopted: dict[str, tuple[int, int, int]] = field(default_factory=dict)
    # the quarantine (app/games/quarantine.py): inputs that could not be handled, their games'
    # inputs waiting behind them, those released, and what became of a quarantined input
    quarantined: list[dict[str, Any]] = field(default_factory=list)  # QuarantineRow fields
    parked: list[dict[str, Any]] = field(default_factory=list)  # ParkedRow fields
    unparked: list[int] = field(default_factory=list)  # ParkedRow ids handled now
    settled: dict[int, dict[str, Any]] = field(default_factory=dict)  # QuarantineRow id -> fields


__all__ = ["Batch", "Body", "Outgoing", "Rendered"]
