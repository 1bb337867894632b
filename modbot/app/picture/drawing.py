"""Draw a `TownSquare` as a PNG with Pillow: the circle of seats, the clock hand, the hands.

Theory of operation: everything is drawn at twice the size and scaled down (smooth edges
without Pillow's per-shape antialiasing), on an opaque card so it reads on light and dark forum
themes alike. Colours are the Okabe-Ito palette (distinct under the common colour-blindnesses)
and every colour has a shape too: a raised (execute) or lowered (pardon) triangle, filled when
locked and hollow when only cast; a dark shroud for the dead, a white dot for an unspent vote
token, a rounded square for a traveller; a ring for the nominee and an arrow from the
nominator; the clock hand points from the centre at the seat it waits on. The same square
gives the same bytes (PNG without timestamps, fonts bundled).
"""

from __future__ import annotations

import hashlib
import io
import math
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from . import layout
from .fonts import font, font_for
from .square import CAST_NO, CAST_YES, LOCKED_NO, LOCKED_YES, SeatMark, TownSquare

Point = tuple[float, float]
Colour = tuple[int, int, int]

S = 2  # supersampling
COLOURS = 128  # a palette PNG: a fraction of the bytes, no visible loss on flat shapes
CARD, BORDER, INK, MUTED = (250, 247, 240), (214, 207, 192), (34, 34, 34), (105, 105, 105)
ALIVE, DEAD, SHROUD = (236, 228, 209), (78, 78, 84), (22, 22, 26)
YES, NO, NOMINEE, NOMINATOR = (0, 158, 115), (213, 94, 0), (230, 159, 0), (0, 114, 178)
TOKEN_AT = 0.62  # the vote token's dot, up and right of a dead seat's centre (x radius)


@dataclass(frozen=True)
class Picture:
    png: bytes
    width: int
    height: int
    alt: str

    @property
    def sha1(self) -> str:
        return hashlib.sha1(self.png).hexdigest()


def draw(square: TownSquare) -> Picture:
    image = Image.new("RGB", (layout.WIDTH * S, layout.HEIGHT * S), CARD)
    pen = ImageDraw.Draw(image)
    pen.rounded_rectangle((1, 1, layout.WIDTH * S - 2, layout.HEIGHT * S - 2), 14 * S,
                          outline=BORDER, width=2 * S)
    places = layout.spots(len(square.seats))
    radius = layout.token_radius(len(square.seats))
    _title(pen, square.title)
    _nominator_arrow(pen, square, places, radius)
    centre = _centre(pen, square.centre)
    _hand(pen, square, places, radius, centre)
    for seat, spot in zip(square.seats, places, strict=False):
        _token(pen, seat, spot, radius)
    names = layout.labels([s.name for s in square.seats], [s.nominee for s in square.seats],
                          [s.number for s in square.seats])
    for seat, label in zip(square.seats, names, strict=False):
        _label(pen, label, seat)
    _legend(pen, square.legend)
    small = image.reduce(S).quantize(colors=COLOURS, method=Image.Quantize.FASTOCTREE,
                                     dither=Image.Dither.NONE)
    out = io.BytesIO()
    small.save(out, "PNG", compress_level=6)
    return Picture(out.getvalue(), layout.WIDTH, layout.HEIGHT, square.alt)


def _s(*values: float) -> Any:
    """Coordinates scaled to the drawing's resolution (Pillow takes them as a sequence)."""
    return tuple(v * S for v in values)


def _title(pen: ImageDraw.ImageDraw, title: str) -> None:
    face = font(15 * S, bold=True)
    pen.text(_s(16, 12), _fit(title, face, (layout.WIDTH - 32) * S), font=face, fill=INK)


def _token(pen: ImageDraw.ImageDraw, seat: SeatMark, spot: layout.Spot, radius: float) -> None:
    box = _s(*layout.token_box(spot, radius))
    fill, outline = (ALIVE, INK) if seat.alive else (DEAD, SHROUD)
    if seat.nominee:
        pen.ellipse(_s(*layout.token_box(spot, radius + 5)), outline=NOMINEE, width=4 * S)
    elif seat.nominator:
        pen.ellipse(_s(*layout.token_box(spot, radius + 4)), outline=NOMINATOR, width=3 * S)
    if seat.traveller:
        pen.rounded_rectangle(box, radius * 0.35 * S, fill=fill, outline=outline, width=2 * S)
    else:
        pen.ellipse(box, fill=fill, outline=outline, width=2 * S)
    if not seat.alive:  # the shroud: a dark pennant over the token
        pen.polygon(_s(spot.x - radius * 0.6, spot.y - radius * 0.78, spot.x + radius * 0.6,
                       spot.y - radius * 0.78, spot.x, spot.y + radius * 0.05), fill=SHROUD)
    if seat.vote_token:
        r, x, y = radius * 0.3, spot.x + radius * TOKEN_AT, spot.y - radius * TOKEN_AT
        pen.ellipse(_s(x - r, y - r, x + r, y + r), fill=(255, 255, 255), outline=INK, width=S)
    if seat.vote:
        _vote_mark(pen, seat.vote, spot, radius)
    else:
        face = font(int(max(9, radius * 0.6)) * S)
        shade = MUTED if seat.alive else (190, 190, 190)
        pen.text(_s(spot.x, spot.y + (radius * 0.25 if not seat.alive else 0)), str(seat.number),
                 font=face, fill=shade, anchor="mm")


def _vote_mark(pen: ImageDraw.ImageDraw, vote: str, spot: layout.Spot, radius: float) -> None:
    up = vote in (LOCKED_YES, CAST_YES)
    colour = YES if up else NO
    size = radius * 0.62
    tip = -size if up else size
    points = _s(spot.x, spot.y + tip, spot.x - size * 0.95, spot.y - tip * 0.7,
                spot.x + size * 0.95, spot.y - tip * 0.7)
    if vote in (LOCKED_YES, LOCKED_NO):
        pen.polygon(points, fill=colour, outline=CARD, width=S)
    else:
        assert vote in (CAST_YES, CAST_NO)
        pen.polygon(points, fill=CARD, outline=colour, width=3 * S)


def _hand(pen: ImageDraw.ImageDraw, square: TownSquare, places: list[layout.Spot], radius: float,
          centre: tuple[float, float]) -> None:
    """From just outside the centre's words to just before the seat the hand waits on."""
    index = next((i for i, s in enumerate(square.seats) if s.hand), None)
    if index is None:
        return
    cx, cy = layout.CENTRE
    spot = places[index]
    dx, dy = spot.x - cx, spot.y - cy
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    half_width, half_height = centre
    exit_at = min(half_width / abs(ux) if ux else math.inf, half_height / abs(uy) if uy else math.inf)
    start, end = min(exit_at + 6, length * 0.6), length - radius - 10
    _arrow(pen, (cx + ux * start, cy + uy * start), (cx + ux * end, cy + uy * end), INK, 5, 13)


def _nominator_arrow(pen: ImageDraw.ImageDraw, square: TownSquare, places: list[layout.Spot],
                     radius: float) -> None:
    nominator = next((i for i, s in enumerate(square.seats) if s.nominator and not s.nominee), None)
    nominee = next((i for i, s in enumerate(square.seats) if s.nominee), None)
    if nominator is None or nominee is None:
        return
    a, b = places[nominator], places[nominee]
    dx, dy = b.x - a.x, b.y - a.y
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    gap = radius + 9
    _arrow(pen, (a.x + ux * gap, a.y + uy * gap), (b.x - ux * gap, b.y - uy * gap), NOMINATOR, 3, 11)


def _arrow(pen: ImageDraw.ImageDraw, start: Point, end: Point, colour: Colour, width: float,
           head: float) -> None:
    (x0, y0), (x1, y1) = start, end
    angle = math.atan2(y1 - y0, x1 - x0)
    base = (x1 - head * math.cos(angle), y1 - head * math.sin(angle))
    pen.line(_s(x0, y0, *base), fill=colour, width=int(width * S))
    left = (base[0] + head * 0.55 * math.sin(angle), base[1] - head * 0.55 * math.cos(angle))
    right = (base[0] - head * 0.55 * math.sin(angle), base[1] + head * 0.55 * math.cos(angle))
    pen.polygon(_s(x1, y1, *left, *right), fill=colour)


def _label(pen: ImageDraw.ImageDraw, label: layout.Label, seat: SeatMark) -> None:
    face = font_for(label.text, layout.LABEL_SIZE * S, label.bold) or \
        font(layout.LABEL_SIZE * S, label.bold)
    left, top = label.box[0], label.box[1]
    offset = face.getbbox(label.text)
    pen.text((left * S - offset[0], top * S - offset[1]), label.text, font=face,
             fill=INK if seat.alive else MUTED)


def _centre(pen: ImageDraw.ImageDraw, lines: tuple[str, str, str]) -> tuple[float, float]:
    """The nominee, the count and who dies, on a card of their own (over the nominator's
    arrow); returns the card's half width and half height."""
    cx, cy = layout.CENTRE
    nominee, count, fate = lines
    rows = [(nominee, font(24 * S, bold=True), INK), (count, font(19 * S, bold=True), INK),
            (fate, font(14 * S), MUTED)]
    rows = [(_fit(text, face, 250 * S), face, colour) for text, face, colour in rows if text]
    half_width = max(face.getlength(text) for text, face, _ in rows) / S / 2 + 10
    half_height = 15 * len(rows) + 4
    pen.rounded_rectangle(_s(cx - half_width, cy - half_height, cx + half_width, cy + half_height),
                          8 * S, fill=CARD)
    y = cy - 15 * len(rows) + 15
    for text, face, colour in rows:
        pen.text(_s(cx, y), text, font=face, fill=colour, anchor="mm")
        y += 30
    return half_width, half_height


def _legend(pen: ImageDraw.ImageDraw, legend: tuple[tuple[str, str], ...]) -> None:
    face = font(12 * S)
    items = [(mark, text, face.getlength(text) / S) for mark, text in legend]
    total = sum(20 + width + 16 for _, _, width in items) - 16
    x, y = (layout.WIDTH - total) / 2, layout.HEIGHT - 22
    for mark, text, width in items:
        _legend_mark(pen, mark, x + 7, y)
        pen.text(_s(x + 18, y), text, font=face, fill=MUTED, anchor="lm")
        x += 20 + width + 16


def _legend_mark(pen: ImageDraw.ImageDraw, mark: str, x: float, y: float) -> None:
    spot = layout.Spot(x, y, 0)
    if mark in (LOCKED_YES, LOCKED_NO, CAST_YES):
        _vote_mark(pen, mark, spot, 10)
    elif mark == "hand":
        _arrow(pen, (x - 7, y), (x + 8, y), INK, 3, 7)
    elif mark == "vote_token":
        pen.ellipse(_s(x - 5, y - 5, x + 5, y + 5), fill=(255, 255, 255), outline=INK, width=S)
    else:  # traveller
        pen.rounded_rectangle(_s(x - 6, y - 6, x + 6, y + 6), 3 * S, fill=ALIVE, outline=INK,
                              width=S)


def _fit(text: str, face: ImageFont.FreeTypeFont, width: float) -> str:
    if face.getlength(text) <= width:
        return text
    while len(text) > 1 and face.getlength(text + layout.ELLIPSIS) > width:
        text = text[:-1]
    return text.rstrip() + layout.ELLIPSIS
