"""Theory of operation: a post's words are rendered before the transaction that stores it.

An `Outgoing` carries its words as a function (a template and its view, a picture drawn by
Pillow), run on first read. `rendered` runs them outside the store's transaction, for the
posts the store does not hold yet (a fold whose posts went out long ago renders nothing) and
for those held before. A post whose rendering raises (a template's mistake, a picture that
cannot be drawn) is held: stored with status "held", no words, and the error; every other
post goes on, so one bad template never stalls the game. The caller tells the Storytellers
(app/posting/outbox_hooks.py, `held`); a held post is rendered again when its game is folded at the next start
(a fixed template then sends it).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from .outgoing import Outgoing

log = logging.getLogger("modbot.adapters.store")
Words = tuple[str, tuple[tuple[str, bytes], ...]]  # the raw and its pictures


def rendered(outgoing: Iterable[Outgoing], statuses: dict[str, str]
             ) -> tuple[dict[str, Words], dict[str, str]]:
    """The words of each post to store (by key), and the posts held (key -> the error)."""
    words: dict[str, Words] = {}
    held: dict[str, str] = {}
    for out in outgoing:
        if out.kind == "withdraw" or statuses.get(out.key, "held") != "held" or \
                out.key in words or out.key in held:
            continue
        try:
            words[out.key] = (out.raw, out.pictures)
        except Exception as exc:
            log.exception("post %s: its words could not be rendered; held", out.key)
            held[out.key] = f"{type(exc).__name__}: {exc}"[:500]
    return words, held
