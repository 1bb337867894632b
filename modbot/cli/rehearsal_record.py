"""Theory of operation: one record per rehearsal, read the same by every command.

A rehearsal plays the game file with what only the rehearsal knows: the game thread it opened
(`topic_id`), the accounts it made (their ids) and the shortest time a person gets to act at
its speed (`shortest_window_minutes`: at 60x a `!confirm` lasts an hour of forum time). Read
without them, the database is another game: `modbot game status` finds no game, and
`modbot audit` refolds the inputs with the rules' own windows, so a confirm sent after ten
forum minutes is refused and the events differ. So the rehearsal writes its game file's copy
beside its database (`data/rehearsal-NAME-game.toml`) with those keys set, plays from that
copy, and names the copy in the commands it prints: `status`, `audit`, `export` and `replay`
all read the game the bot played. A script file the game names by a relative path is named by
its absolute path in the copy, so the copy loads from anywhere. A game still in sign-ups is
rehearsed seated with placeholder players (`seated_copy`).
"""

from __future__ import annotations

import random
import re
import tomllib
from pathlib import Path

from ..core import GameSetup, propose
from ..files.gamefile import MAX_SEATS, MIN_SEATS, parse_game
from ..files.idsfile import with_ids
from ..files.signupfile import in_game_table, in_signups
from .rehearsal_accounts import SIGNUP_PLAYERS
from .setup_check import with_setup


def seated_copy(game: str | Path, folder: Path, players: int | None = None) -> Path:
    """The game file to rehearse: itself, or, for a game still in sign-ups (no `[[seat]]`
    yet), a copy in `folder` seated with placeholder players (Player01, ...: `players`, by
    default the file's `players_max`) and, where it names a script, a legal set-up drawn for
    them (seed 0), so the rehearsal plays the game the sign-ups will fill."""
    source = Path(game)
    signups = in_signups(source)
    if signups is None:
        return source  # seated already (or load_game says what is wrong with it)
    count = max(MIN_SEATS, min(players or signups.players_max, MAX_SEATS))
    text = _absolute_script(source.read_text(encoding="utf-8"), source.resolve().parent)
    text = text.rstrip("\n") + "\n" + "".join(
        f'\n[[seat]]\nplayer = "{SIGNUP_PLAYERS.format(n)}"\n' for n in range(1, count + 1))
    setup = parse_game(text, str(source))
    if setup.script is not None:
        grimoire, bluffs = propose(setup.script, setup.seats, random.Random(0),
                                   lil_monsta=setup.lil_monsta)
        text = with_setup(text, setup.script, grimoire, bluffs)
    folder.mkdir(parents=True, exist_ok=True)
    copy = folder / f"{source.stem}-seated.toml"
    copy.write_text(text, encoding="utf-8")
    return copy


def record_path(database: Path) -> Path:
    """The rehearsal's game file, beside its database."""
    return database.with_name(f"{database.stem}-game.toml")


def write_record(game: str | Path, database: Path, setup: GameSetup, ids: dict[str, int],
                 topic_id: int, window_minutes: float) -> Path:
    """Write the copy of `game` the rehearsal plays (`setup`: as the file gives it; `ids`:
    its places' accounts) and return its path."""
    source = Path(game)
    text = source.read_text(encoding="utf-8")
    text = _absolute_script(text, source.resolve().parent)
    text = _set(text, "topic_id", str(topic_id))
    text = _set(text, "shortest_window_minutes", f"{window_minutes:g}")
    text, _ = with_ids(text, setup, ids)
    path = record_path(database)
    path.write_text(text, encoding="utf-8")
    return path


def commands(record: Path, database: Path, thread: Path) -> list[str]:
    """The commands that read the rehearsal's record, as it prints them."""
    url = f"sqlite:///{database}"
    return [f"modbot game status {record} --database {url}",
            f"modbot audit {record} --database {url}",
            f"modbot export {record} --database {url} --before-the-end",
            f"modbot replay {record} {thread}"]


def _set(text: str, key: str, value: str) -> str:
    """`key = value` in the [game] table, replacing a line that sets it."""
    line = re.compile(rf"^(\s*){re.escape(key)}\s*=.*$", re.MULTILINE)
    if line.search(text):
        return line.sub(lambda m: f"{m.group(1)}{key} = {value}", text, count=1)
    return in_game_table(text, f"{key} = {value}")


def _absolute_script(text: str, base: Path) -> str:
    script = tomllib.loads(text).get("game", {}).get("script")
    if not isinstance(script, str) or not Path(script).suffix or Path(script).is_absolute():
        return text
    return _set(text, "script", '"' + str(base / script).replace("\\", "\\\\") + '"')

