"""What `modbot check` does (cli/arguments.py parses its arguments): everything a live game needs,
checked before it starts (app/starting/preflight.py), and each place bound to its forum account: the
user ids the check found by name are written into each game file as soon as that game is
checked (files/idsfile.py), unless `--no-write`, so an interrupted check resumes where it
stopped. The forum's limit is waited out (app/starting/asking.py), with progress on long work; a
daemon running on the same database is said first (its requests share the key's budget),
and a 429 then stops the check with one line. One line for each finding, never a
traceback."""

from __future__ import annotations

import argparse
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from ..core import GameSetup
from ..files.gamefile import load_game
from ..files.signupfile import load_signups
from ..shown import shown_lines
from .config import config_or_none

if TYPE_CHECKING:
    from ..app.running.daemon import Config


def check_command(args: argparse.Namespace) -> int:
    from ..app.starting.asking import Asker, Progress
    from ..app.starting.preflight import preflight
    config = config_or_none(args)
    if config is None:
        return 2
    client = config.forum_client()
    running = _daemon_running(config.database_url)
    if running:
        print("note: `modbot run` is running on this configuration's database: the check's "
              "requests share the key's budget with it")
    per_minute = 20 if config.key_kind == "user" else 60  # Discourse's defaults for the key
    progress = Progress(per_minute)
    writing = None if args.no_write else (lambda path, bound: _write_ids({path: bound}))
    try:
        found = preflight(client, config.username, config.games, config.key_kind,
                          asker=Asker(daemon_running=running, progress=progress),
                          on_bound=writing)
    finally:
        progress.close()
    for note in [*found.notes, *(_plan_notes(config) if found.bot_id is not None else [])]:
        print(f"note: {shown_lines(note)}")
    for problem in found.problems:
        print(f"problem: {shown_lines(problem)}")
    if found.ready:
        print(f"Ready: {len(config.games)} game(s) checked on {config.forum_url}.")
    return 0 if found.ready else 1


def _plan_notes(config: Config) -> list[str]:
    """What the key sustains for the configured games, and a setting it cannot hold
    (app/reading/request_plan.py)."""
    from ..app.reading.request_plan import ACTIONS_A_GAME_DAY, USER_KEY_DAY, USER_KEY_MINUTE, sustains
    user = config.key_kind == "user"
    per_minute = config.settings.requests_per_minute if config.budget_set or not user \
        else USER_KEY_MINUTE
    plan = sustains(per_minute, USER_KEY_DAY if user else 0)
    notes = []
    if user and plan.games_a_day is not None:
        games = len(config.games)
        share = "" if games <= plan.games_a_day else (
            f": the {games} games configured would share it, each answered more slowly; an "
            "admin's key (60 a minute, no day) serves many games")
        notes.append(f"on this User API key a busy game's posts are read within about "
                     f"{plan.busy_gap:.0f} s; without the MessageBus a full read comes every "
                     f"{plan.poll_floor:.0f} s while a game is busy, {plan.quiet_floor:.0f} s "
                     "otherwise; and its "
                     f"{USER_KEY_DAY:,} requests a day serve about {plan.games_a_day} busy "
                     f"game(s) of {ACTIONS_A_GAME_DAY} posts with an action a day{share}")
    if per_minute and config.poll_seconds < plan.poll_floor:
        notes.append(f"poll_seconds = {config.poll_seconds:g}: the key sustains a full read "
                     f"every {plan.poll_floor:.0f} s at most, so the bot polls that often "
                     "(leave it out: the plan chooses)")
    return notes


def _daemon_running(database_url: str) -> bool:
    from ..adapters.run_lock import AlreadyRunning, RunLock
    try:
        RunLock.take(database_url).release()
    except AlreadyRunning:
        return True
    except Exception:  # a database it cannot open: `run` says why; the check goes on
        return False
    return False


def _places_of(path: str) -> GameSetup:
    """The game file's places (a file before its seats: its Storytellers and bot)."""
    signups = load_signups(path)
    if signups.seated:
        return load_game(path)
    return GameSetup(signups.name, (), datetime.now(UTC), storytellers=signups.storytellers,
                     bot_username=signups.bot)


def _write_ids(bound: dict[str, dict[str, int]]) -> None:
    """Each game file's places bound by the check, written in (files/idsfile.py)."""
    from ..files.idsfile import with_ids
    for path, found in bound.items():
        if not found:
            continue
        text = Path(path).read_text(encoding="utf-8")
        new, written = with_ids(text, _places_of(path), found)
        if new == text:
            continue
        try:
            Path(path).write_text(new, encoding="utf-8")
        except OSError as exc:
            print(f"problem: cannot write the forum user ids into {path} ({exc.strerror})")
            continue
        print(f"bound: {path}: {'; '.join(written)} (each place is its forum account now, "
              "whatever names change)")
