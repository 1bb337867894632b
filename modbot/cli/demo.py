"""`modbot demo`: two nights and a day of a scripted game, played on the local sandbox.

The public thread and the private side (characters dealt, night choices, whispers, the
Storytellers' night sheets and approvals, results at dawn) are printed separately."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..adapters.outbox import marker
from .rehearsal import Rehearsal, demo_rehearsal, play_demo

MARKER_PREFIX = "<!-- modbot:"


def reset_sqlite(database_url: str) -> None:
    """Start the demo on a fresh SQLite file."""
    if database_url.startswith("sqlite:///") and ":memory:" not in database_url:
        path = Path(database_url[len("sqlite:///"):])
        for suffix in ("", "-wal", "-shm"):
            Path(str(path) + suffix).unlink(missing_ok=True)


def thread_text(thread: list[dict[str, Any]]) -> str:
    lines = []
    for post in thread:
        raw = "\n".join(line for line in post["raw"].splitlines()
                        if not line.startswith(MARKER_PREFIX)).strip()
        lines.append(f"#{post['post_number']} {post['username']} · "
                     f"{post['created_at']:%a %d %b %H:%M} UTC")
        lines.extend("    " + line for line in (raw or "(closed or opened the topic)").splitlines())
        lines.append("")
    return "\n".join(lines).rstrip()


def private_text(rehearsal: Rehearsal) -> str:
    """Every PM conversation on the sandbox, with its participants, oldest first."""
    lines = []
    topics = sorted((t for t in rehearsal.server.forum.topics.values() if t.is_pm),
                    key=lambda t: t.id)
    for topic in topics:
        lines.append(f"== {topic.title} · {', '.join(topic.allowed)}")
        posts = [{"post_number": p.post_number, "username": p.username, "raw": p.raw,
                  "created_at": p.created_at} for p in topic.visible_posts()]
        lines.append(thread_text(posts))
        lines.append("")
    return "\n".join(lines).rstrip()


def run_demo(database_url: str, out: Callable[[str], object] = print, port: int = 0) -> int:
    logging.basicConfig(level=logging.WARNING)
    reset_sqlite(database_url)
    rehearsal, script = demo_rehearsal(database_url, port=port)
    try:
        public = sum(1 for item in script if "to" not in item and not item.get("tick"))
        private = sum(1 for item in script if "to" in item)
        out(f"modbot demo: sandbox forum at {rehearsal.url}, database {database_url}")
        out(f"{public} scripted thread posts and {private} private messages by "
            f"{len(rehearsal.setup.seats)} players and the Storyteller; the bot polls at each "
            "one's time.\n")
        play_demo(rehearsal, script)
        out("=" * 30 + " The public game thread " + "=" * 30 + "\n")
        out(thread_text(rehearsal.thread()))
        out("\n" + "=" * 20 + " The private side (PMs: players, Storytellers, bot) " +
            "=" * 20 + "\n")
        out(private_text(rehearsal))
        assert rehearsal.store is not None  # the rehearsal played: its store is open
        counts = rehearsal.store.outbox_counts()
        out(f"\nOutbox: {counts.get('sent', 0)} sent, {counts.get('pending', 0)} pending, "
            f"{counts.get('failed', 0)} failed.")
        return 0 if not counts.get("pending") and not counts.get("failed") else 1
    finally:
        rehearsal.stop()


__all__ = ["marker", "run_demo", "thread_text"]
