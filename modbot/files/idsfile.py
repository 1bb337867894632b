"""Theory of operation: a game file's places bound to their forum accounts, written in.

`modbot check` finds each place's forum user id (app/starting/preflight.py); `with_ids` writes those
the file does not give yet into its text, as a host would by hand, so the game starts bound
(app/games/identities.py) and a database lost later is rebuilt with the same accounts: `user_id = N`
under a seat's `player` line, and in the `[game]` table `storyteller_ids` and `backup_ids`
(in the order of `storytellers` and `backups`, written only when every one of them has an id)
and `bot_id`. Nothing else in the file changes: comments and layout stay as they were.
"""

from __future__ import annotations

import re

from ..core import GameSetup
from .signupfile import in_game_table


def with_ids(text: str, setup: GameSetup, found: dict[str, int]) -> tuple[str, list[str]]:
    """The file's text with the ids `found` (name -> id) written in where it gives none, and
    what was written (one line each)."""
    given = {name.casefold() for name, _ in setup.user_ids}
    ids = {name.casefold(): user_id for name, user_id in [*setup.user_ids, *found.items()]}
    written: list[str] = []
    for seat in setup.seats:
        key = seat.name.casefold()
        if key not in given and key in ids:
            text, done = _under_player(text, seat.name, ids[key])
            if done:
                written.append(f"seat {seat.name}: user_id = {ids[key]}")
    for names, key in ((setup.storytellers, "storyteller_ids"), (setup.backups, "backup_ids")):
        if names and not _has_key(text, key) and all(n.casefold() in ids for n in names):
            line = f"{key} = [{', '.join(str(ids[n.casefold()]) for n in names)}]"
            text = in_game_table(text, line)
            written.append(line)
    bot = setup.bot_username.casefold()
    if bot in ids and not _has_key(text, "bot_id"):
        text = in_game_table(text, f"bot_id = {ids[bot]}")
        written.append(f"bot_id = {ids[bot]}")
    return text, written


def _has_key(text: str, key: str) -> bool:
    return re.search(rf"^\s*{re.escape(key)}\s*=", text, re.MULTILINE) is not None


def _under_player(text: str, name: str, user_id: int) -> tuple[str, bool]:
    """`user_id = N` on the line after the seat's `player = "NAME"` line."""
    pattern = re.compile(rf"^(\s*)player\s*=\s*([\"']){re.escape(name)}\2[^\n]*$", re.MULTILINE)
    match = pattern.search(text)
    if match is None:
        return text, False
    line = f"\n{match.group(1)}user_id = {user_id}"
    return text[:match.end()] + line + text[match.end():], True
