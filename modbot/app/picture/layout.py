"""Where everything goes in the town square picture: seats on an ellipse, names beside them.

Theory of operation: seat 1 sits at the top and the seats follow clockwise in seat order on an
ellipse that fits the 690 x 500 picture. Each name is placed outside its token, pointing away
from the centre; then, while any two names (or a name and a token, or a name and the picture's
edge) overlap, the longer of the two loses a letter and gains an ellipsis ("Alexandra" ->
"Alexan…"); a name that cannot fit, or that no font can draw, becomes the seat's number. All
geometry is in picture pixels (the drawing multiplies it by its supersampling factor).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .fonts import font, font_for

WIDTH, HEIGHT = 690, 500
CENTRE = (345.0, 258.0)
RADII = (205.0, 150.0)
LABEL_SIZE = 14
MARGIN = 6.0
TOP_BAND = 36.0  # the title
BOTTOM_BAND = 466.0  # the legend
GAP = 4.0
ELLIPSIS = "…"


@dataclass(frozen=True)
class Spot:
    x: float
    y: float
    angle: float  # radians, 0 = right, growing clockwise on screen


@dataclass
class Label:
    text: str
    bold: bool
    box: tuple[float, float, float, float]  # left, top, right, bottom
    drawable: bool = True


def spots(count: int) -> list[Spot]:
    cx, cy = CENTRE
    rx, ry = RADII
    out = []
    for index in range(count):
        angle = -math.pi / 2 + 2 * math.pi * index / count
        out.append(Spot(cx + rx * math.cos(angle), cy + ry * math.sin(angle), angle))
    return out


def token_radius(count: int) -> float:
    perimeter = 2 * math.pi * math.sqrt((RADII[0] ** 2 + RADII[1] ** 2) / 2)
    return max(12.0, min(24.0, 0.34 * perimeter / max(count, 1)))


def token_box(spot: Spot, radius: float) -> tuple[float, float, float, float]:
    return (spot.x - radius, spot.y - radius, spot.x + radius, spot.y + radius)


def labels(names: list[str], bold: list[bool], numbers: list[int]) -> list[Label]:
    """A label per seat, shortened until none overlaps another, a token or the edge."""
    places = spots(len(names))
    radius = token_radius(len(names))
    texts = [name if font_for(name, LABEL_SIZE, b) else f"#{n}"
             for name, b, n in zip(names, bold, numbers, strict=False)]
    tokens = [token_box(p, radius + 5) for p in places]
    for _ in range(sum(len(t) for t in texts) + len(texts)):
        placed = [_place(t, b, p, radius) for t, b, p in zip(texts, bold, places, strict=False)]
        culprit = _first_overlap(placed, tokens)
        if culprit is None:
            return placed
        texts[culprit] = _shorter(texts[culprit], numbers[culprit])
    return [_place(f"#{n}", b, p, radius) for n, b, p in zip(numbers, bold, places, strict=False)]


def _place(text: str, bold: bool, spot: Spot, radius: float) -> Label:
    face = font_for(text, LABEL_SIZE, bold) or font(LABEL_SIZE, bold)
    left, top, right, bottom = face.getbbox(text)
    width, height = right - left, bottom - top
    dx, dy = math.cos(spot.angle), math.sin(spot.angle)
    ax, ay = spot.x + (radius + GAP + 4) * dx, spot.y + (radius + GAP + 2) * dy
    x = ax if dx > 0.35 else ax - width if dx < -0.35 else ax - width / 2
    y = ay if dy > 0.35 else ay - height if dy < -0.35 else ay - height / 2
    return Label(text, bold, (x, y, x + width, y + height))


def _first_overlap(placed: list[Label], tokens: list[tuple[Any, ...]]) -> int | None:
    """The index of a label to shorten: one past the edge, on another's token, or the longer
    of two that overlap."""
    for index, label in enumerate(placed):
        left, top, right, bottom = label.box
        if left < MARGIN or right > WIDTH - MARGIN or top < TOP_BAND or bottom > BOTTOM_BAND:
            return index
        if any(overlaps(label.box, token) for other, token in enumerate(tokens) if other != index):
            return index
    for index, label in enumerate(placed):
        for other in range(index + 1, len(placed)):
            if overlaps(label.box, placed[other].box, GAP):
                longer = index if len(label.text) >= len(placed[other].text) else other
                return longer
    return None


def _shorter(text: str, number: int) -> str:
    stem = text[:-1] if text.endswith(ELLIPSIS) else text
    if stem.startswith("#") or len(stem) <= 3:
        return f"#{number}"
    return stem[:-1].rstrip() + ELLIPSIS


def overlaps(a: tuple[float, ...], b: tuple[float, ...], gap: float = 0.0) -> bool:
    return a[0] < b[2] + gap and b[0] < a[2] + gap and a[1] < b[3] + gap and b[1] < a[3] + gap
