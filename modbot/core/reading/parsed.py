"""Theory of operation: what reading one post gives (the parser's values, no parsing here).

A `ParseResult` holds the post's actions in document order and the `Rejection`s of the lines
that looked like commands but could not be read (a code; its `text`, the line, and the
`candidates`, the names it could mean; `soft` when the line only looks like a command, which
the shell answers at most once an hour a player). `Collector` gathers both while the lines are read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..state.actions import NO, YES, PlayerAction, Unvote, Vote
from ..state.rejection import Rejection

VALUE_WORDS = {
    "yes": YES, "execute": YES, "aye": YES, "no": NO, "pardon": NO, "nay": NO,
}


@dataclass(frozen=True, slots=True)
class ParseResult:
    actions: tuple[PlayerAction, ...]
    rejections: tuple[Rejection, ...]
    hints: tuple[str, ...] = ()  # forms that counted but are not the usual ones ("!vote")

    def to_json(self) -> dict[str, Any]:
        return {
            "actions": [a.to_json() for a in self.actions],
            "rejections": [{"code": r.code, **r.params} for r in self.rejections],
        }


class Collector:
    def __init__(self) -> None:
        self.actions: list[PlayerAction] = []
        self.rejections: list[Rejection] = []
        self.hints: list[str] = []

    def reject(self, code: str, text: str, candidates: tuple[str, ...] = (), *,
               soft: bool = False) -> None:
        params = {"text": text.strip(), "candidates": list(candidates)}
        self.rejections.append(Rejection(code, {**params, "soft": True} if soft else params))

    def unvote_after_vote(self) -> None:
        """A bare unvote after a vote in the same post withdraws that vote (forum forms)."""
        voted = None
        for index, action in enumerate(self.actions):
            if isinstance(action, Vote):
                voted = action.nominee
            elif isinstance(action, Unvote) and action.nominee is None and voted is not None:
                self.actions[index] = Unvote(voted)
