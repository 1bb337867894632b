"""Theory of operation: the sealed grimoire, a commitment anyone can check after the game.

At the deal the bot posts, in the game thread, the SHA-256 (hex) of the grimoire as dealt:
`sealed_grimoire` (the game, and each seat's character, alignment, team, what it is shown
instead, its reminders such as a red herring; the Demon's bluffs), written as canonical JSON
(`sealed_text`: sorted keys, UTF-8, no whitespace), with a secret salt of 32 random bytes
(64 hex digits) before it: `sha256(salt + text)`. The salt is made by the shell (the core has
no randomness) and arrives in the game's setup. The commitment says nothing of the grimoire:
without the salt no one can try grimoires against it. The reveal publishes the text and the
salt; `modbot verify` (or any SHA-256 tool) recomputes the commitment and compares it with
the one posted at the deal.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from .state.model import GameState, GrimoireEntry

SALT_HEX_DIGITS = 64  # 32 bytes


def sealed_grimoire(state: GameState) -> dict[str, Any]:
    """The grimoire as dealt, as plain values (character ids; what the Storytellers decide
    later is in the reveal's timeline, not here)."""
    setup, dealt = state.setup, dict(state.dealt_grimoire)
    seats = []
    for number, seat in enumerate(state.seats, start=1):
        entry = dealt.get(seat.name, GrimoireEntry())
        character = setup.script.get(entry.character) if setup.script else None
        seats.append({"seat": number, "player": seat.name, "character": entry.character,
                      "alignment": entry.alignment or (
                          "good" if character and character.is_good else
                          "evil" if character and character.is_evil else None),
                      "team": character.team if character else None,
                      "evil_team": entry.evil_team, "thinks": entry.thinks,
                      "reminders": sorted(entry.reminders), "traveller": seat.traveller})
    return {"game": setup.name, "topic_id": setup.topic_id, "seats": seats,
            "bluffs": list(state.dealt_bluffs)}


def sealed_as_dealt(state: GameState) -> str:
    """The text the seal committed to: frozen at the deal (`state.sealed`, registry.py), so
    the reveal publishes the grimoire exactly as dealt whatever renames and `!sub`s came
    since; a game dealt before the text was frozen computes it from its state as it is."""
    return state.sealed or sealed_text(sealed_grimoire(state))


def parsed(text: str) -> dict[str, Any]:
    """A sealed text (`sealed_as_dealt`) back as plain values."""
    found: dict[str, Any] = json.loads(text)
    return found


def sealed_text(grimoire: dict[str, Any]) -> str:
    """Canonical JSON: sorted keys, no whitespace, UTF-8 characters as they are."""
    return json.dumps(grimoire, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def commitment(salt: str, text: str) -> str:
    """The SHA-256 (hex) of the salt's 64 hex digits followed by the text, in UTF-8."""
    return hashlib.sha256((salt + text).encode("utf-8")).hexdigest()


def is_salt(value: str) -> bool:
    return len(value) == SALT_HEX_DIGITS and all(c in "0123456789abcdef" for c in value)
