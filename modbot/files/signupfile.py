"""The game file while its game is in sign-ups: its [game] table, before any [[seat]].

`load_signups` reads what sign-ups need (the game's name, Storytellers and bot; the sign-up
thread `signup_topic_id`; the cap `players_max`, 5 to 20, default 20; the closing time
`signups_close`); errors name the file and the key, as game files' do. `with_signup_topic`
writes the thread's id in, and `with_seats` the seats the sign-ups made (each with its forum
`user_id`) and the backups, so the same file then loads as a game (`load_game`).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from .gamefile import MAX_SEATS, MIN_SEATS
from .lines import GameFileError

PLAYERS_MAX = MAX_SEATS


@dataclass(frozen=True)
class SignupSetup:
    name: str
    storytellers: tuple[str, ...]
    bot: str
    topic_id: int | None  # the sign-up thread
    players_max: int
    closes_at: datetime | None
    seated: bool  # the file has [[seat]] entries already
    path: str = ""  # the game file (the daemon takes the game up once it is seated)

    @property
    def staff(self) -> tuple[str, ...]:
        return (*self.storytellers, self.bot)


def load_signups(path: str | Path) -> SignupSetup:
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise GameFileError(f"{path}: cannot read the game file ({exc.strerror})") from exc
    except tomllib.TOMLDecodeError as exc:
        raise GameFileError(f"{path}: not valid TOML: {exc}") from exc
    game = data.get("game")
    if not isinstance(game, dict) or not isinstance(game.get("name"), str):
        raise GameFileError(f"{path}: a [game] table with a name is needed")
    return SignupSetup(
        name=game["name"], storytellers=tuple(game.get("storytellers", [])),
        bot=str(game.get("bot", "modbot")), topic_id=_topic(path, game),
        players_max=_players_max(path, game), closes_at=_closes(path, game),
        seated=bool(data.get("seat")), path=str(path))


def _topic(path: Path, game: dict[str, Any]) -> int | None:
    value = game.get("signup_topic_id")
    if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
        raise GameFileError(f"{path}: game.signup_topic_id: a positive whole number (leave it "
                            "out until `modbot signups open` writes it)")
    return value


def _players_max(path: Path, game: dict[str, Any]) -> int:
    value = game.get("players_max", PLAYERS_MAX)
    if isinstance(value, bool) or not isinstance(value, int) or \
            not MIN_SEATS <= value <= MAX_SEATS:
        raise GameFileError(f"{path}: game.players_max: {MIN_SEATS} to {MAX_SEATS} players")
    return value


def _closes(path: Path, game: dict[str, Any]) -> datetime | None:
    value = game.get("signups_close")
    if value is None:
        return None
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value)
        except ValueError:
            value = None
    if not isinstance(value, datetime) or value.tzinfo is None:
        raise GameFileError(f"{path}: game.signups_close: a timestamp with its time zone, like "
                            "2026-11-30T18:00:00Z")
    return value


def with_signup_topic(text: str, topic_id: int) -> str:
    """The file's text with `signup_topic_id = N` in its [game] table."""
    return in_game_table(text, f"signup_topic_id = {topic_id}")


def with_seats(text: str, seats: list[tuple[str, int]], backups: list[tuple[str, int]],
               order: str) -> str:
    """The file's text with the seats and the backups (name, forum user id) written in;
    `order` says how the seats were ordered (a comment, for the players to see)."""
    text = in_game_table(text, "backup_ids = [" + ", ".join(str(i) for _, i in backups) + "]")
    text = in_game_table(text, "backups = [" + ", ".join(_quoted(b) for b, _ in backups) + "]")
    blocks = [f"\n# seats from the sign-ups, {order}"]
    for player, user_id in seats:
        blocks.append(f"[[seat]]\nplayer = {_quoted(player)}\nuser_id = {user_id}\n")
    return text.rstrip("\n") + "\n" + "\n".join(blocks)


def in_game_table(text: str, line: str) -> str:
    lines = text.split("\n")
    start = next((i for i, row in enumerate(lines) if row.strip() == "[game]"), None)
    if start is None:
        return f"[game]\n{line}\n{text}"
    return "\n".join([*lines[:start + 1], line, *lines[start + 1:]])


def _quoted(name: str) -> str:
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def in_signups(path: str | Path) -> SignupSetup | None:
    """The sign-up set-up of a game file still in sign-ups (no [[seat]] yet); None for a
    seated file, or one that does not load (loading it as a game says what is wrong)."""
    try:
        signups = load_signups(path)
    except GameFileError:
        return None
    return None if signups.seated else signups
