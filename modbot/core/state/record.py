"""Theory of operation: the grimoire's history, kept as the game goes (the reveal reads it).

From the deal on, every change to a grimoire entry (a character, an alignment, a team, poison,
madness, a reminder, ...) is recorded as a `GrimoireChange`: who, which field, before and after,
the moment and the phase it happened in, the event that caused it, and whether it was a
Storyteller's command. The registry's `apply`, the only way a state changes, records it, so no
rule has to remember to.
"""

from __future__ import annotations

from dataclasses import fields, replace
from datetime import datetime
from typing import Any

from .model import GameState, GrimoireChange


def logged(before: GameState, after: GameState, event: Any, by_storytellers: bool) -> GameState:
    """`after` with the grimoire changes `event` made since `before` added to its log."""
    old = dict(before.grimoire)
    at = getattr(event, "at", None)
    changes = tuple(
        GrimoireChange(player, f.name, getattr(old[player], f.name), getattr(entry, f.name),
                       at if isinstance(at, datetime) else None, after.cycle,
                       after.phase.value == "night", type(event).__name__, by_storytellers,
                       _why(event))
        for player, entry in after.grimoire if player in old and old[player] != entry
        for f in fields(entry) if getattr(old[player], f.name) != getattr(entry, f.name))
    return replace(after, grimoire_log=after.grimoire_log + changes) if changes else after


def _why(event: Any) -> Any:
    """An ability's effect names its cause (`why`); a Storyteller's mark may too (`!drunk X by Y`)."""
    return getattr(getattr(event, "effect", None), "why", None) or getattr(event, "why", None)
