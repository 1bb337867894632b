"""Theory of operation: the daemon's settings, one value the service and its parts read
(`[bot]` in the configuration file, daemon.py; a rehearsal or a test builds its own)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Settings:
    bot_username: str = "modbot"
    settle_seconds: float = 10
    vote_count_minutes: float = 60
    sweep_minutes: float = 3
    post_spacing: float | None = None  # None: 0 for staff accounts, 6 s otherwise
    close_topic_at_night: bool = False
    max_backoff: float = 60  # seconds between retries after 5xx, timeouts, dropped connections
    snapshot_seconds: float = 60  # at most one snapshot of a game this often (snapshot.py)
    names_minutes: float = 10  # how often seats' usernames are checked by id (identities.py)
    requests_per_minute: float = 55  # the key's budget (Discourse's admin default is 60; 0: none)
