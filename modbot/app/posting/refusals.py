"""Theory of operation: when a refused input is answered, and in what words.

A post or PM the core refused (its `Rejection`s) is answered to its author privately, but
never so often that chat turns into noise: lines that only looked like commands (soft
rejections: `vtoe Bob`, `vote Zed`) are answered at most once a forum hour for each player,
and a `/vc` asked too soon at most once between two counts. The reactor keeps who was
answered when (`hinted`, `vc_told`: its memory, in its snapshot); this module decides, in forum
time (`created_at`), and writes the answer from the catalogue's words.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from ...core import Post, Rejection
from .catalogue import rejection_words
from .render import render

SOFT_ANSWER_GAP = timedelta(hours=1)  # between two answers to lines that only look like commands


def answers_refusal(post: Post, rejections: Sequence[Rejection], hinted: dict[str, datetime],
                    vc_told: dict[str, datetime], last_count_at: datetime | None) -> bool:
    """Is this refused post answered? (`hinted`: each player's last soft answer; `vc_told`:
    the count each was last told to wait for; both updated when it is.)"""
    if all(r.code == "vc_too_soon" for r in rejections):
        if last_count_at is not None and vc_told.get(post.author) == last_count_at:
            return False
        if last_count_at is not None:
            vc_told[post.author] = last_count_at
        return True
    if not all(r.params.get("soft") for r in rejections):
        return True
    last = hinted.get(post.author)
    if last is not None and post.created_at - last < SOFT_ANSWER_GAP:
        return False
    hinted[post.author] = post.created_at
    return True


def refusal_words(post_number: int, private: bool, rejections: Sequence[Rejection]) -> str:
    """The answer: each rejection's sentence, with the text it refused."""
    return render("rejection.md.j2", post_number=post_number, private=private,
                  rejections=[{"message": rejection_words(r.code, r.params),
                               "text": r.params.get("text")} for r in rejections])
