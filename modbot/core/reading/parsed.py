"""Theory of operation: what reading one post gives (the parser's values, no parsing here).

A `ParseResult` holds the post's actions in document order and the `ParseRejection`s of the
lines that looked like commands but could not be read (a code, the line, the names it could
mean; `soft` when the line only looks like a command, which the shell answers at most once an
hour a player). `Collector` gathers both while the lines are read.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..state.actions import NO, YES, PlayerAction, Unvote, Vote

VALUE_WORDS = {
    "yes": YES, "execute": YES, "aye": YES, "no": NO, "pardon": NO, "nay": NO,
}


@dataclass(frozen=True, slots=True)
class ParseRejection:
    code: str  # unknown_player | ambiguous | missing_target | no_single_open_nomination | ...
    text: str
    candidates: tuple[str, ...] = ()
    soft: bool = False  # a line that only looks like a command: answered at most hourly

    def to_json(self) -> dict:
        out = {"code": self.code, "text": self.text, "candidates": list(self.candidates)}
        return {**out, "soft": True} if self.soft else out


@dataclass(frozen=True, slots=True)
class ParseResult:
    actions: tuple[PlayerAction, ...]
    rejections: tuple[ParseRejection, ...]
    hints: tuple[str, ...] = ()  # forms that counted but are not the usual ones ("!vote")

    def to_json(self) -> dict:
        return {
            "actions": [a.to_json() for a in self.actions],
            "rejections": [r.to_json() for r in self.rejections],
        }


class Collector:
    def __init__(self) -> None:
        self.actions: list[PlayerAction] = []
        self.rejections: list[ParseRejection] = []
        self.hints: list[str] = []

    def reject(self, code: str, text: str, candidates: tuple[str, ...] = (), *,
               soft: bool = False) -> None:
        self.rejections.append(ParseRejection(code, text.strip(), candidates, soft))

    def unvote_after_vote(self) -> None:
        """A bare unvote after a vote in the same post withdraws that vote (forum forms)."""
        voted = None
        for index, action in enumerate(self.actions):
            if isinstance(action, Vote):
                voted = action.nominee
            elif isinstance(action, Unvote) and action.nominee is None and voted is not None:
                self.actions[index] = Unvote(voted)
