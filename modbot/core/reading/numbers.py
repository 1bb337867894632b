"""Theory of operation: a number a post writes, read safely.

`str.isdigit` says yes to superscripts (`²`) that `int` refuses, and `int` refuses a string of
more than a few thousand digits: a player's or a Storyteller's number goes through
`whole_number`, which reads plain decimal digits only, at most `DIGITS` of them, and answers
None for anything else (the grammar then refuses the line in words).
"""

from __future__ import annotations

DIGITS = 9  # more than any count, post number or duration the game needs


def whole_number(text: str) -> int | None:
    """The whole number `text` is (ASCII digits, at most `DIGITS`), or None."""
    if not text or len(text) > DIGITS or not text.isascii() or not text.isdigit():
        return None
    return int(text)
