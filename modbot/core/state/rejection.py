"""Theory of operation: a refusal, as one value the whole core returns.

A rule that does not apply an action returns a `Rejection`: its code (the catalogue's
`rejection.CODE` words the shell shows), who asked, when and in which post, and the values
the words need (`details`), never words. It lives on the ground floor so that every floor, and
the typed extension points of `feature.py`, can name it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any


@dataclass(frozen=True, slots=True)
class Rejection:
    """An action that was not applied, and why. The player's fault unless said otherwise."""

    code: str
    player: str
    at: datetime
    post_number: int | None = None
    details: dict[str, Any] = field(default_factory=dict)
