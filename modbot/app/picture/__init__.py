"""The town square picture of a vote count: `vote_picture(state, vc)` gives the PNG and its
alt text (square.py decides what is shown, layout.py where, drawing.py draws it with Pillow)."""

from __future__ import annotations

from typing import Any

from ...core import GameState
from .drawing import Picture, draw
from .square import TownSquare, town_square

__all__ = ["Picture", "TownSquare", "town_square", "vote_picture"]


def vote_picture(state: GameState, vc: dict[str, Any]) -> Picture:
    return draw(town_square(state, vc))
