"""Fonts for the town square: the bundled DejaVu Sans Condensed, a system font for other
scripts, else nothing (the caller then shows the seat's number).

Theory of operation: DejaVu (bundled under `data/fonts/`, its licence beside it) draws Latin,
Greek and Cyrillic. For a text with a character it lacks, the system's fonts are tried in a
fixed order (the first that has every character wins), so one installation always draws the
same picture. A font "has" a character when its glyph differs from the font's missing-glyph box.
"""

from __future__ import annotations

import functools
from pathlib import Path

from PIL import ImageFont

from ...bundled import folder

REGULAR = folder("data") / "fonts" / "DejaVuSansCondensed.ttf"
BOLD = folder("data") / "fonts" / "DejaVuSansCondensed-Bold.ttf"
SYSTEM_FOLDERS = (Path("/usr/share/fonts"), Path("/usr/local/share/fonts"))
NOT_A_CHARACTER = "\uffff"


@functools.lru_cache(maxsize=64)
def font(size: int, bold: bool = False, path: str | None = None) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path or str(BOLD if bold else REGULAR), size)


def font_for(text: str, size: int, bold: bool = False) -> ImageFont.FreeTypeFont | None:
    """The bundled font when it draws every character of `text`, else the first system font
    that does, else None."""
    bundled = font(size, bold)
    if _draws(bundled, text):
        return bundled
    for path in _system_fonts():
        candidate = font(size, False, path)
        if _draws(candidate, text):
            return candidate
    return None


def _draws(face: ImageFont.FreeTypeFont, text: str) -> bool:
    return all(ch.isspace() or _has(face, ch) for ch in text)


@functools.lru_cache(maxsize=4096)
def _has(face: ImageFont.FreeTypeFont, character: str) -> bool:
    missing = face.getmask(NOT_A_CHARACTER)
    glyph = face.getmask(character)
    return glyph.size != missing.size or bytes(glyph) != bytes(missing)


@functools.lru_cache(maxsize=1)
def _system_fonts() -> tuple[str, ...]:
    found = []
    for root in SYSTEM_FOLDERS:
        if root.is_dir():
            found += sorted(str(p) for p in root.rglob("*") if p.suffix.lower() in
                            (".ttf", ".otf", ".ttc"))
    return tuple(found)
