"""Load and validate a game file (TOML) into a `GameSetup`.

Errors name the file, the line and the key: `game.toml:12: seat 3 (Cameron): alias "Al" is
already used by seat 1 (Alex)`. tomllib reports no line numbers for values, so `Lines` (lines.py)
finds the line of a table header or key in the text itself.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any

from ..core import GameSetup, PhaseLengths, Profile, Script, Seat
from .grimfile import (
    bluffs_from_file,
    deal_from_file,
    fabled_from_file,
    hours_value,
    revolutionary_from_file,
    script_from_file,
)
from .lines import GameFileError, Lines

MIN_SEATS = 5
MAX_SEATS = 20
GAME_KEYS = {
    "name", "topic_id", "storytellers", "rules", "first_night_starts", "bot",
    "count_spoilers", "end_day_when_all_locked", "whispers_per_day",
    "night", "discussion", "nomination", "voting", "night_action_lock",
    "script", "script_add", "bluffs", "remind_before_lock", "hand_nudge_hours", "fabled", "revolutionary",
    "lil_monsta", "picture", "vote_counts", "vote_forms", "prod_hours", "away_hours_max", "backups", "reveal",
    "signup_topic_id", "players_max", "signups_close", "storyteller_ids", "backup_ids", "bot_id",
    "shortest_window_minutes",
}
SEAT_KEYS = {"player", "user_id", "aliases", "dead", "ghost_vote", "traveller", "character", "thinks",
             "alignment", "evil_team", "bluffs", "reminders"}
LENGTH_KEYS = ("night", "discussion", "nomination", "voting", "night_action_lock")


def load_game(path: str | Path) -> GameSetup:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise GameFileError(f"{path}: cannot read the game file ({exc.strerror})") from exc
    return parse_game(text, str(path), base=path.parent)


def parse_game(text: str, path: str = "<game file>", base: Path | None = None) -> GameSetup:
    lines = Lines(path, text)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise GameFileError(f"{path}: not valid TOML: {exc}") from exc
    unknown_top = set(data) - {"game", "seat", "aliases"}
    if unknown_top:
        raise lines.error(None, f"unknown section(s): {', '.join(sorted(unknown_top))}")
    game = data.get("game")
    if not isinstance(game, dict):
        raise lines.error(None, "missing [game] section")
    _check_keys(lines, game, GAME_KEYS, "game", lines.game_key)
    seats = _seats(lines, data.get("seat"))
    seats = _extra_aliases(lines, data.get("aliases", {}), seats)
    _check_unique_names(lines, seats)
    _check_no_staff_seated(lines, seats, _storytellers(lines, game), str(game.get("bot", "modbot")))
    script = script_from_file(lines, game, base)
    grimoire = deal_from_file(lines, data.get("seat"), seats, script)
    fabled = fabled_from_file(lines, game, script) if script else ()
    return GameSetup(
        name=_string(lines, game, "name", "game"),
        seats=seats,
        first_night_starts=_timestamp(lines, game),
        profile=_profile(lines, game),
        lengths=_lengths(lines, game),
        storytellers=_storytellers(lines, game),
        bot_username=str(game.get("bot", "modbot")),
        topic_id=_optional_int(lines, game, "topic_id"),
        count_spoilers=_bool(lines, game, "count_spoilers", True),
        end_day_when_all_locked=_bool(lines, game, "end_day_when_all_locked", True),
        whispers_per_day=_count(lines, game, "whispers_per_day"),
        pictures=_bool(lines, game, "picture", True),
        vote_counts=_vote_counts(lines, game),
        vote_forms=_vote_forms(lines, game),
        script=script,
        grimoire=grimoire,
        bluffs=bluffs_from_file(lines, game, script),
        remind_before_lock=hours_value(lines, game, "remind_before_lock", 6),
        hand_nudge_hours=hours_value(lines, game, "hand_nudge_hours", 6),
        prod_hours=hours_value(lines, game, "prod_hours", 24),
        away_hours_max=hours_value(lines, game, "away_hours_max", 72),
        backups=_names(lines, game, "backups"),
        reveal=_reveal(lines, game),
        fabled=fabled,
        revolutionary=revolutionary_from_file(lines, game, seats, fabled),
        user_ids=_user_ids(lines, data.get("seat"), game),
        lil_monsta=_lil_monsta(lines, game, script),
        shortest_window=_shortest_window(lines, game),
    )


def _shortest_window(lines: Lines, game: dict[str, Any]) -> timedelta:
    """A rehearsal's least time to act, in minutes (`modbot rehearse` writes it: a window the
    rules make shorter lasts this long at its speed); 0 (a live game): the rules' own."""
    return timedelta(minutes=hours_value(lines, game, "shortest_window_minutes", 0, "minutes"))


def _lil_monsta(lines: Lines, game: dict[str, Any], script: Script | None) -> bool:
    """Lil' Monsta is the Demon, and no player holds it (the Minions babysit it)."""
    value = _bool(lines, game, "lil_monsta", False)
    if value and (script is None or not any(c.spec.unseated for c in script.characters)):
        raise lines.error(lines.game_key("lil_monsta"), "game.lil_monsta: Lil' Monsta is "
                          "not on the game's script")
    return value


def _check_keys(lines: Lines, table: dict[str, Any], allowed: set[str], where: str,
                locate: Callable[[str], int | None]) -> None:
    for key in table:
        if key not in allowed:
            raise lines.error(locate(key), f"{where}.{key}: unknown key "
                              f"(allowed: {', '.join(sorted(allowed))})")


def _string(lines: Lines, game: dict[str, Any], key: str, where: str) -> str:
    value = game.get(key)
    if not isinstance(value, str) or not value.strip():
        raise lines.error(lines.game_key(key), f"{where}.{key}: required, a non-empty string")
    return value


def _optional_int(lines: Lines, game: dict[str, Any], key: str) -> int | None:
    value = game.get(key)
    if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
        leave = " (leave it out until `modbot game new` writes it)" if key == "topic_id" else ""
        raise lines.error(lines.game_key(key), f"game.{key}: must be a positive whole number"
                          f"{leave}")
    return value


def with_topic_id(text: str, topic_id: int) -> str:
    """A game file's text with `topic_id = N` in its [game] table, the rest as written."""
    lines = text.split("\n")
    start = next((i for i, line in enumerate(lines) if line.strip() == "[game]"), None)
    if start is None:
        return f"[game]\ntopic_id = {topic_id}\n{text}"
    return "\n".join([*lines[:start + 1], f"topic_id = {topic_id}", *lines[start + 1:]])


def _count(lines: Lines, game: dict[str, Any], key: str) -> int:
    value = game.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise lines.error(lines.game_key(key), f"game.{key}: a whole number >= 0 (0: no limit)")
    return value


def _bool(lines: Lines, game: dict[str, Any], key: str, default: bool) -> bool:
    value = game.get(key, default)
    if not isinstance(value, bool):
        raise lines.error(lines.game_key(key), f"game.{key}: must be true or false")
    return value


def _timestamp(lines: Lines, game: dict[str, Any]) -> datetime:
    key = "first_night_starts"
    value = game.get(key)
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value)
        except ValueError:
            raise lines.error(lines.game_key(key), f"game.{key}: {value!r} is not a timestamp "
                              "like 2026-12-01T18:00:00Z") from None
    if not isinstance(value, datetime):
        raise lines.error(lines.game_key(key), f"game.{key}: required, a timestamp like "
                          "2026-12-01T18:00:00Z")
    if value.tzinfo is None:
        raise lines.error(lines.game_key(key), f"game.{key}: needs a time zone (end with Z "
                          "or +01:00)")
    return value


def _vote_counts(lines: Lines, game: dict[str, Any]) -> str:
    value = game.get("vote_counts", "post")
    if value not in ("post", "edit"):
        raise lines.error(lines.game_key("vote_counts"), f"game.vote_counts: {value!r} is neither "
                          "\"post\" (a new post for each count) nor \"edit\" (one running count a day)")
    return str(value)


def _vote_forms(lines: Lines, game: dict[str, Any]) -> str:
    value = game.get("vote_forms", "forum")
    if value not in ("forum", "strict"):
        raise lines.error(lines.game_key("vote_forms"), f"game.vote_forms: {value!r} is neither "
                          "\"forum\" (the vote forms of other forum games count too) nor "
                          "\"strict\" (only the forms of the player guide)")
    return str(value)


def _profile(lines: Lines, game: dict[str, Any]) -> Profile:
    value = game.get("rules", "botf")
    try:
        return Profile(value)
    except ValueError:
        raise lines.error(lines.game_key("rules"), f"game.rules: {value!r} is not a rules "
                          "profile (botf or official)") from None


def _lengths(lines: Lines, game: dict[str, Any]) -> PhaseLengths:
    values = {}
    for key in LENGTH_KEYS:
        if key in game:
            value = game[key]
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise lines.error(lines.game_key(key), f"game.{key}: hours, a number >= 0")
            values[key] = float(value)
    lengths = PhaseLengths(**values)
    if lengths.night <= 0 or lengths.voting <= 0 or lengths.nomination <= 0:
        raise lines.error(None, "game: night, nomination and voting must last more than 0 hours")
    return lengths


def _storytellers(lines: Lines, game: dict[str, Any]) -> tuple[str, ...]:
    return _names(lines, game, "storytellers")


def _names(lines: Lines, game: dict[str, Any], key: str) -> tuple[str, ...]:
    value = game.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise lines.error(lines.game_key(key), f"game.{key}: a list of forum usernames")
    return tuple(value)


def _reveal(lines: Lines, game: dict[str, Any]) -> str:
    value = game.get("reveal", "command")
    if value not in ("command", "auto", "off"):
        raise lines.error(lines.game_key("reveal"), f"game.reveal: {value!r} is none of "
                          "\"command\" (the Storytellers post it with !reveal), \"auto\" (at "
                          "the game's end) and \"off\"")
    return str(value)


def _key_after(lines: Lines, key: str, after: int | None) -> int | None:
    return lines.key(key, after)


def _seats(lines: Lines, raw: Any) -> tuple[Seat, ...]:
    if not isinstance(raw, list):
        raise lines.error(None, "no [[seat]] entries: list the players in seat order")
    seats = []
    for index, entry in enumerate(raw):
        line = lines.seat(index)
        _check_keys(lines, entry, SEAT_KEYS, f"seat {index + 1}",
                    partial(_key_after, lines, after=line))
        player = entry.get("player")
        if not isinstance(player, str) or not player.strip():
            raise lines.error(line, f"seat {index + 1}: 'player' is required (a forum username)")
        aliases = entry.get("aliases", [])
        if not isinstance(aliases, list) or not all(isinstance(a, str) and a for a in aliases):
            raise lines.error(lines.key("aliases", line),
                              f"seat {index + 1} ({player}): aliases must be a list of names")
        flags = {}
        for key, default in (("dead", False), ("ghost_vote", True), ("traveller", False)):
            value = entry.get(key, default)
            if not isinstance(value, bool):
                raise lines.error(lines.key(key, line),
                                  f"seat {index + 1} ({player}): {key} must be true or false")
            flags[key] = value
        seats.append(Seat(player.strip(), tuple(aliases), alive=not flags["dead"],
                          ghost_vote=flags["ghost_vote"], traveller=flags["traveller"]))
    residents = sum(1 for s in seats if not s.traveller)
    if residents < MIN_SEATS:
        raise lines.error(None, f"{residents} seats that are not travellers; a game needs at "
                          f"least {MIN_SEATS}")
    if len(seats) > MAX_SEATS:
        raise lines.error(lines.seat(MAX_SEATS), f"{len(seats)} seats; at most {MAX_SEATS}")
    return tuple(seats)


def _user_ids(lines: Lines, raw: Any, game: dict[str, Any]) -> tuple[tuple[str, int], ...]:
    """The forum user id of each seat (`user_id = 123`), of each Storyteller and backup
    (`storyteller_ids`, `backup_ids`: in the order of `storytellers` and `backups`) and of the
    bot (`bot_id`), where the file gives one: it binds that place to that account whatever
    its name becomes (app/games/identities.py). One account holds one place."""
    found: list[tuple[str, int, int | None]] = []
    for index, entry in enumerate(raw or ()):
        value = entry.get("user_id")
        if value is None:
            continue
        line = lines.key("user_id", lines.seat(index))
        found.append((str(entry["player"]).strip(), _id(lines, line, value, f"seat {index + 1}: user_id"),
                      line))
    for names_key, ids_key in (("storytellers", "storyteller_ids"), ("backups", "backup_ids")):
        found.extend(_listed_ids(lines, game, names_key, ids_key))
    if "bot_id" in game:
        line = lines.game_key("bot_id")
        found.append((str(game.get("bot", "modbot")), _id(lines, line, game["bot_id"], "game.bot_id"), line))
    holders: dict[int, str] = {}
    for name, user_id, line in found:
        if user_id in holders and holders[user_id].casefold() != name.casefold():
            raise lines.error(line, f"user id {user_id} is given to both {holders[user_id]} and "
                              f"{name}: one forum account holds one place")
        holders[user_id] = name
    return tuple((name, user_id) for name, user_id, _ in found)


def _listed_ids(lines: Lines, game: dict[str, Any], names_key: str,
                ids_key: str) -> list[tuple[str, int, int | None]]:
    """(name, id, line) of a list of ids given beside a list of names, in the same order."""
    if ids_key not in game:
        return []
    names, ids, line = _names(lines, game, names_key), game[ids_key], lines.game_key(ids_key)
    if not isinstance(ids, list) or len(ids) != len(names):
        raise lines.error(line, f"game.{ids_key}: a list of forum user ids, one for each of "
                          f"game.{names_key} in the same order ({len(names)})")
    return [(name, _id(lines, line, value, f"game.{ids_key}"), line) for name, value in zip(names, ids, strict=True)]


def _id(lines: Lines, line: int | None, value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise lines.error(line, f"{where} must be a forum user id (a whole number above 0)")
    return value


def _extra_aliases(lines: Lines, table: Any, seats: tuple[Seat, ...]) -> tuple[Seat, ...]:
    """Apply a top-level `[aliases]` table: alias = "player"."""
    if not isinstance(table, dict):
        raise lines.error(None, "[aliases] must be a table of alias = \"player\"")
    by_name = {s.name.casefold(): i for i, s in enumerate(seats)}
    changed = list(seats)
    found = lines._headers(r"^\s*\[\s*aliases\s*\]")
    header = found[0] if found else None
    for alias, player in table.items():
        index = by_name.get(str(player).casefold())
        if index is None:
            raise lines.error(lines.key(alias, header),
                              f"aliases.{alias}: unknown player {player!r}")
        seat = changed[index]
        changed[index] = Seat(seat.name, (*seat.aliases, alias), seat.alive, seat.ghost_vote,
                              seat.traveller)
    return tuple(changed)


def _check_no_staff_seated(lines: Lines, seats: tuple[Seat, ...], storytellers: tuple[str, ...],
                           bot: str) -> None:
    """A Storyteller or the bot holds no seat: their thread posts are commands (or the bot's
    own), so such a seat's votes would never count."""
    staff = {name.casefold(): what for what, names in (("a Storyteller", storytellers),
                                                       ("the bot's account", (bot,)))
             for name in names}
    for index, seat in enumerate(seats):
        what = staff.get(seat.name.strip().lstrip("@").casefold())
        if what is not None:
            raise lines.error(lines.seat(index), f"seat {index + 1} ({seat.name}) is {what}: "
                              "a Storyteller or the bot cannot play; seat another account")


def _check_unique_names(lines: Lines, seats: tuple[Seat, ...]) -> None:
    """No name or alias may point at two seats (case-insensitive, `@` ignored)."""
    owner: dict[str, int] = {}
    for index, seat in enumerate(seats):
        for name in (seat.name, *seat.aliases):
            key = name.strip().lstrip("@").casefold()
            first = owner.setdefault(key, index)
            if first != index:
                raise lines.error(lines.seat(index), f"seat {index + 1} ({seat.name}): name "
                                  f"{name!r} is already used by seat {first + 1} "
                                  f"({seats[first].name})")
