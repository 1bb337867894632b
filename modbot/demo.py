"""`modbot demo`: a night and a day of a scripted game, played on the local sandbox."""

from __future__ import annotations

import logging
from datetime import timedelta
from pathlib import Path

from .outbox import marker
from .rehearsal import day_end, demo_rehearsal

MARKER_PREFIX = "<!-- modbot:"


def reset_sqlite(database_url: str) -> None:
    """Start the demo on a fresh SQLite file."""
    if database_url.startswith("sqlite:///") and ":memory:" not in database_url:
        path = Path(database_url[len("sqlite:///"):])
        for suffix in ("", "-wal", "-shm"):
            Path(str(path) + suffix).unlink(missing_ok=True)


def thread_text(thread: list[dict]) -> str:
    lines = []
    for post in thread:
        raw = "\n".join(line for line in post["raw"].splitlines()
                        if not line.startswith(MARKER_PREFIX)).strip()
        lines.append(f"#{post['post_number']} {post['username']} · "
                     f"{post['created_at']:%a %d %b %H:%M} UTC")
        lines.extend("    " + line for line in (raw or "(closed or opened the topic)").splitlines())
        lines.append("")
    return "\n".join(lines).rstrip()


def run_demo(database_url: str, out=print) -> int:
    logging.basicConfig(level=logging.WARNING)
    reset_sqlite(database_url)
    rehearsal, script = demo_rehearsal(database_url)
    try:
        out(f"modbot demo: sandbox forum at {rehearsal.url}, database {database_url}")
        out(f"{len(script)} scripted posts by {len(rehearsal.setup.seats)} players; "
            "the bot polls at each post's time.\n")
        rehearsal.start_bot()
        rehearsal.clock.set(rehearsal.setup.first_night_starts)
        rehearsal.service.cycle(rehearsal.setup.first_night_starts)
        rehearsal.play(script, finish_at=day_end(rehearsal.setup) + timedelta(hours=1))
        out(thread_text(rehearsal.thread()))
        pms = [t for t in rehearsal.server.forum.topics.values() if t.is_pm]
        out(f"\nPrivate messages sent by the bot: {len(pms)} conversations")
        for topic in pms:
            out(f"  to {', '.join(u for u in topic.allowed if u != rehearsal.setup.bot_username)}: "
                f"{len(topic.posts)} message(s)")
        counts = rehearsal.store.outbox_counts()
        out(f"\nOutbox: {counts.get('sent', 0)} sent, {counts.get('pending', 0)} pending, "
            f"{counts.get('failed', 0)} failed.")
        return 0 if not counts.get("pending") and not counts.get("failed") else 1
    finally:
        rehearsal.stop()


__all__ = ["marker", "run_demo", "thread_text"]
