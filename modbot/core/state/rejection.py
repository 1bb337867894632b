"""Theory of operation: a refusal, as one value the whole core returns.

Whatever refuses returns a `Rejection`: its code and the values its words need (`params`,
never words). The words are the catalogue's, in the table of whoever refused: `rejection.CODE`
for a player's action or post (a rule, the thread's grammar, the night grammar), `command.CODE`
for a Storyteller's line the command grammar cannot read. A grammar's rejection is made
before anyone is known; the engine `placed` it, with who asked, when and in which post. A
grammar deep in a parse raises `Refused`, which carries one. It lives on the ground floor so
that every floor, and the typed extension points of `feature.py`, can name it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from ..wording import Say


@dataclass(frozen=True, slots=True)
class Rejection:
    """An action, a line or a post that was not applied, and why. The player's fault unless
    said otherwise."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)
    player: str = ""
    at: datetime | None = None
    post_number: int | None = None

    def placed(self, player: str, at: datetime, post_number: int | None,
               **more: Any) -> Rejection:
        """This rejection, of `player`'s post `post_number` at `at` (`more`: other values its
        words may take)."""
        return replace(self, player=player, at=at, post_number=post_number,
                       params={**more, **self.params})

    def said(self, table: str = "rejection", omit: tuple[str, ...] = ()) -> Say:
        """Its words' code and values, from `table` of the catalogue (`omit`: values shown
        apart, such as a command's `line`)."""
        return Say(f"{table}.{self.code}", tuple((k, v) for k, v in self.params.items()
                                                 if k not in omit))


class Refused(ValueError):
    """Raised by a grammar that finds a line wrong deep inside its parse; caught where the
    line is read, and answered with its `rejection`."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.rejection = Rejection(code, params)


__all__ = ["Refused", "Rejection"]
