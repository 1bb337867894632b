"""Theory of operation: the day's commands a player may also send by private message.

A player's PM holds night commands and whispers (night/private.py reads those), and may hold
lines about the day that the thread's grammar reads: `/vc` (the vote count, posted in the
thread), `/away …` and `/back` (an absence, deciding/away.py). `day_lines` splits a PM into those
lines and the rest; the engine parses the first with the thread's parser and hands the rest on.
"""

from __future__ import annotations

DAY_VERBS = ("/vc", "/away", "/back")


def day_lines(raw: str) -> tuple[str, str]:
    """(the lines of `raw` that are day commands, the other lines)."""
    day: list[str] = []
    rest: list[str] = []
    for line in raw.split("\n"):
        verb = line.strip().split(" ", 1)[0].casefold()
        (day if verb in DAY_VERBS else rest).append(line)
    return "\n".join(day), "\n".join(rest)
