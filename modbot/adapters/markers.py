"""Theory of operation: every post the bot makes ends with its outbox row's marker.

`<!-- modbot:KEY -->` is an HTML comment (Discourse keeps it in the raw and leaves it out of
the cooked post): the key is deterministic, so after a send whose fate is unknown the outbox
finds the post by it instead of sending again (outbox.py).
"""

from __future__ import annotations


def marker(key: str) -> str:
    return f"<!-- modbot:{key} -->"


def with_marker(raw: str, key: str) -> str:
    return f"{raw.rstrip()}\n\n{marker(key)}"
