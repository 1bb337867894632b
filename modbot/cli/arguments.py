"""The `modbot` command line: its arguments and help texts (cli/commands.py does the work)."""

from __future__ import annotations

import argparse
import os
import sys
from datetime import datetime

from .. import __version__
from .forum_arguments import add_forum_commands, config_option


class _Never(Exception):
    """Stands for the file errors until their modules are imported (see main)."""


def main(argv: list[str] | None = None) -> int:
    """Parse, then do the command. The rest of modbot is imported here, inside the handlers:
    a Ctrl-C that comes while it loads is one line too, never a traceback."""
    parser = _build_parser()
    args = parser.parse_args(argv)
    file_errors: tuple[type[Exception], ...] = (_Never,)
    try:
        from ..adapters.forum import ConfigurationError
        from ..files.lines import GameFileError
        from ..files.threadfile import ThreadFileError
        from . import commands as cli_commands
        file_errors = (GameFileError, ThreadFileError, ConfigurationError)
        status: int = getattr(cli_commands, args.command)(args)
        sys.stdout.flush()  # here, where a reader that left early can be told apart
        return status
    except file_errors as exc:
        from ..shown import shown_lines
        print(f"modbot: {shown_lines(exc)}", file=sys.stderr)  # names in it shown as data
        return 2
    except KeyboardInterrupt:
        print("modbot: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `modbot ... | head`: the reader left; nothing more to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="modbot",
        description="Moderator bot for Blood on the Clocktower games played by post on "
                    "Discourse forums.",
    )
    parser.add_argument("--version", action="version", version=f"modbot {__version__}")
    commands = parser.add_subparsers(title="commands", required=True, metavar="COMMAND")

    p = commands.add_parser(
        "parse", help="parse one post (raw text on stdin) and print its actions as JSON",
        description="Read one raw post on stdin and print the actions it contains, as JSON: "
                    '{"actions": [...], "rejections": [...]}. Names resolve against --players.',
    )
    p.add_argument("--players", required=True, help='seated players in seat order: "A,B,C"')
    p.add_argument("--alias", action="append", default=[], metavar="ALIAS=PLAYER",
                   help="a nickname for a player (repeatable)")
    p.add_argument("--open", action="append", default=[], metavar="PLAYER",
                   help="a player whose nomination is open, for bare yes/no lines (repeatable)")
    p.add_argument("--storyteller", action="append", default=[], metavar="USERNAME",
                   help="a Storyteller's username, so /whisper @USERNAME asks for a consult")
    p.add_argument("--no-spoilers", action="store_true",
                   help="ignore text inside [spoiler] and [details] (counted by default)")
    p.add_argument("--forms", choices=("forum", "strict"), default="forum",
                   help="forum (default): other forum games' vote forms count too (vote X, "
                        "unvote, VOTE: X after a sentence); strict: only the player guide's")
    p.add_argument("--bot", default="", metavar="USERNAME",
                   help="the bot's username, so @USERNAME vote X counts")
    p.set_defaults(command="parse_command")

    p = commands.add_parser(
        "replay", help="replay a thread export against a game file and print the game state",
        description="Replay THREAD.json (a Discourse topic export with raw, a list of pages, "
                    "or a list of posts) against GAME.toml and print the state of the game as "
                    "of --at (default: the last post's time) as JSON, or as text with --text. "
                    "A thread export holds no private messages, so the game is replayed "
                    "without its script: nights end at their deadline, with no night sheet.",
    )
    _game_and_thread(p, "evaluate the game at this time (e.g. 2026-12-03T18:00:00Z)")
    p.add_argument("--text", action="store_true", help="print a readable summary, not JSON")
    p.set_defaults(command="replay_command")

    p = commands.add_parser(
        "picture", help="draw the town square of a replayed thread as a PNG",
        description="Replay a thread export (public side only, as `modbot replay`) and draw "
                    "the town square the bot would put in a vote count at that moment: the "
                    "seats, the dead, vote tokens, the nomination, the clock hand and the "
                    "votes. For looking at a picture offline.",
    )
    _game_and_thread(p, "the moment to draw (default: the last post's time)")
    p.add_argument("-o", "--output", required=True, metavar="FILE.png", help="where to write the PNG")
    p.set_defaults(command="picture_command")

    p = commands.add_parser(
        "demo", help="play a scripted game on the local sandbox and print the thread",
        description="Start the local forum sandbox and the bot on a fresh SQLite file "
                    "(data/demo.sqlite), have scripted players play two nights and a day in "
                    "accelerated time (characters dealt by PM, night choices, whispers, the "
                    "Storytellers' night sheets and approvals, nominations, votes, a ghost "
                    "vote, rejected votes, an execution, a night kill), print the public "
                    "thread and every private conversation as text, and exit.",
    )
    p.add_argument("--database", default="sqlite:///data/demo.sqlite",
                   help="database URL (default: a fresh sqlite:///data/demo.sqlite)")
    p.add_argument("--port", type=int, default=0,
                   help="the sandbox's port on 127.0.0.1 (default 0: any free one)")
    p.set_defaults(command="demo_command")

    p = commands.add_parser(
        "sandbox", help="serve the local Discourse-compatible forum on 127.0.0.1",
        description="Serve a Discourse-compatible forum on 127.0.0.1 for rehearsals and "
                    "tests. The master API key (--api-key, or the one printed at start) acts "
                    "as any user, with Api-Username. Non-Discourse extras live under "
                    "/_sandbox/ (requests.json, faults.json, clock.json).",
    )
    p.add_argument("--port", type=int, default=8080, help="port on 127.0.0.1 (default 8080)")
    p.add_argument("--api-key", default=None, help="master API key (default: printed at start)")
    p.add_argument("--admin-api-limit", type=int, default=60,
                   help="shared requests per minute of all API keys, as Discourse (0: none)")
    p.add_argument("--no-limits", action="store_true",
                   help="turn off the per-user posting limits for non-staff accounts")
    p.add_argument("--start", type=_timestamp, default=None,
                   help="rehearsal clock: the forum time at start (default: real time)")
    p.add_argument("--speed", type=float, default=1.0,
                   help="rehearsal clock speed factor (e.g. 60: an hour a minute)")
    p.add_argument("--moderator", action="append", default=[], metavar="USERNAME",
                   help="create this user as a moderator at start (repeatable)")
    p.add_argument("--game", action="append", default=[], metavar="GAME.toml",
                   help="create every account the game file names: the bot and the "
                        "Storytellers as moderators, the players (a file before its seats, "
                        "for sign-ups: Player01... up to players_max) (repeatable)")
    p.set_defaults(command="sandbox_command")

    p = commands.add_parser(
        "audit", help="every stored input of a game, its events, and a replay check",
        description="List every input the bot stored for a game (posts, PMs, clock ticks, "
                    "edits) with the events each caused, and check that replaying the inputs "
                    "reproduces exactly the stored events (exit status 1 if not).",
    )
    p.add_argument("game", help="the game file (TOML)")
    _database_option(p)
    p.add_argument("--json", action="store_true", help="print the audit as JSON")
    p.set_defaults(command="audit_command")

    p = commands.add_parser(
        "export", help="write a finished game's whole record as JSON (for stats and archives)",
        description="Write a stored game's record as JSON (schema: docs/export.md): the "
                    "seats, the grimoire as dealt and every change since, each night's "
                    "choices and what each player learned, the days with every nomination "
                    "and vote (with post numbers), the deaths, the winner and the seal. "
                    "Refused while the game is not over (the record holds every secret) "
                    "unless --before-the-end.",
    )
    p.add_argument("game", help="the game file (TOML)")
    _database_option(p)
    p.add_argument("--output", default=None, metavar="FILE",
                   help="write the JSON to FILE (default: print it)")
    p.add_argument("--thread", default=None, metavar="FILE",
                   help="also save the game thread (read with --config's forum) as a thread "
                        "file, for `modbot verify --thread` and `modbot replay`")
    p.add_argument("--before-the-end", action="store_true",
                   help="export a game that is not over (for the Storytellers only)")
    p.add_argument("--format", choices=("record", "clocktracker"), default="record",
                   help="record: modbot's whole record (docs/export.md); clocktracker: the game "
                        "as ClockTracker's importer reads it (grimoire, bluffs, Fabled, winner)")
    p.add_argument("--html", action="store_true",
                   help="with --format clocktracker: write a page with one button that sends "
                        "the game to ClockTracker from your browser")
    p.add_argument("--importer", default=None, metavar="URL",
                   help="with --html: the importer the button posts to (default: "
                        "ClockTracker's own, https://clocktracker.app/api/digital_grimoire/import)")
    p.set_defaults(command="export_command")

    p = commands.add_parser(
        "verify", help="check a revealed grimoire against the seal posted at the deal",
        description="Find the seal the bot posted at the deal and the grimoire and salt its "
                    "reveal published, recompute SHA-256(salt + grimoire) and say whether "
                    "the published grimoire is the one sealed at the deal (exit status 0), "
                    "or not (1). Reads a thread file, or the topic on the forum of --config.",
    )
    p.add_argument("--thread", default=None, metavar="FILE",
                   help="a thread file (what `modbot export --thread` saves)")
    p.add_argument("--config", default=None, help="a configuration file: read --topic on its forum")
    p.add_argument("--topic", type=int, default=None, help="the game thread's topic id")
    p.add_argument("--bot-id", type=int, default=None, metavar="N",
                   help="the bot's forum user id (default: the account of the configuration's "
                        "key; for a thread file, the account that posted its opening post, or "
                        "its first post of the bot's); its posts are known by it, whatever "
                        "names anyone takes: a name alone certifies nothing")
    p.set_defaults(command="verify_command")

    signups = commands.add_parser(
        "signups", help="open a sign-up thread, or show who signed up",
        description="Sign-ups: 'signups open' posts the sign-up thread (or uses the game "
                    "file's signup_topic_id) and the bot's list post, which `modbot run` keeps "
                    "up to date; 'signups status' prints the players and backups.",
    )
    signup_commands = signups.add_subparsers(title="sign-up commands", required=True,
                                             metavar="WHAT")
    for name, summary, command in (
            ("open", "post the sign-up thread and the list post", "signups_open_command"),
            ("status", "who signed up, and the backups", "signups_status_command")):
        p = signup_commands.add_parser(name, help=summary, description=summary[0].upper() +
                                       summary[1:] + " (a game file before its seats).")
        p.add_argument("game", help="the game file (TOML), its [game] table filled in")
        config_option(p)
        if name == "open":
            p.add_argument("--category", type=int, default=None,
                           help="the forum category id (default: [forum] category in the config)")
        p.set_defaults(command=command)

    game = commands.add_parser(
        "game", help="open a game thread, or show a stored game's state",
        description="Game set-up and state: 'game new' opens the game thread on the forum; "
                    "'game status' rebuilds a stored game and prints it.",
    )
    game_commands = game.add_subparsers(title="game commands", required=True, metavar="WHAT")
    p = game_commands.add_parser(
        "new", help="open the game thread with its opening post",
        description="Create the game thread on the forum (as the bot's account from the "
                    "configuration), with an opening post rendered from the game file: the "
                    "schedule as [date] tags, the seats, the voting rules of the profile and "
                    "the syntax. Prints the new topic id to put in the game file.",
    )
    p.add_argument("game", help="the game file (TOML)")
    config_option(p)
    p.add_argument("--category", type=int, default=None,
                   help="the forum category id (default: [forum] category in the config)")
    p.add_argument("--from-signups", action="store_true",
                   help="first write the seats (with their user ids) and the backups from the "
                        "game's sign-up thread into the game file")
    p.add_argument("--shuffle", type=int, default=None, metavar="SEED",
                   help="with --from-signups: seat the players in a shuffled order, from this "
                        "seed (the file records it), not in sign-up order")
    p.set_defaults(command="game_new_command")
    p = game_commands.add_parser(
        "status", help="the current state of a stored game (phase, votes, days)",
        description="Rebuild a game from the database, as the daemon does at start, and print "
                    "its state: the phase, the seats and each day's nominations and votes.",
    )
    p.add_argument("game", help="the game file (TOML)")
    _database_option(p)
    p.add_argument("--json", action="store_true", help="print the state as JSON")
    p.set_defaults(command="status_command")

    p = commands.add_parser(
        "rehearse", help="rehearse a game in the browser: the sandbox forum, its accounts and "
                         "thread, and the bot",
        description="Start the sandbox forum (Discourse's default limits) with every account "
                    "the game file names and the game thread, and run the bot on the forum's "
                    "clock, started a few minutes before night 1 and running SPEED times real "
                    "time. Prints the forum's address and master API key first. Play in the "
                    "browser; Ctrl-C stops everything and saves the thread as a thread file. "
                    "Each rehearsal starts from scratch.",
    )
    p.add_argument("game", help="the game file (TOML); its topic_id is not used")
    p.add_argument("--speed", type=float, default=60.0,
                   help="how many times faster than real time the forum's clock runs: 60 "
                        "plays an hour in a minute (default 60)")
    p.add_argument("--port", type=int, default=8080, help="port on 127.0.0.1 (default 8080)")
    p.add_argument("--poll", type=float, default=5.0,
                   help="real seconds between the bot's sweeps (default 5; the forum's "
                        "MessageBus wakes the bot at once between them)")
    p.add_argument("--data", default="data",
                   help="folder for the database, the keys and the saved thread (default data)")
    p.add_argument("--players", type=int, default=None,
                   help="a game still in sign-ups (no [[seat]] yet) is rehearsed with this many "
                        "placeholder players, Player01 and on, and a legal set-up drawn for "
                        "them (default: its players_max)")
    p.set_defaults(command="rehearse_command")

    p = commands.add_parser(
        "setup", help="check a game file's set-up, or propose a random legal one",
        description="Check the characters a game file deals (set-up table, modifiers, the "
                    "Drunk, Lunatic and Marionette, several evil teams, bluffs) and explain "
                    "every problem (exit status 1), or with --propose draw a random legal "
                    "set-up for its seats, print it, and with --write save a game file.",
    )
    p.add_argument("game", help="the game file (TOML), with game.script set")
    p.add_argument("--propose", action="store_true", help="draw a random legal set-up")
    p.add_argument("--seed", type=int, default=None, help="random seed (repeatable draws)")
    p.add_argument("--teams", type=int, default=2,
                   help="evil teams, for scripts with several (default 2)")
    p.add_argument("--write", default=None, metavar="FILE",
                   help="write the game file with the proposed set-up to FILE")
    p.set_defaults(command="setup_command")

    add_forum_commands(commands)
    return parser


def _game_and_thread(parser: argparse.ArgumentParser, at_help: str) -> None:
    """A game file, a thread export and the moment to replay it to."""
    parser.add_argument("game", help="the game file (TOML)")
    parser.add_argument("thread", help="the thread export (JSON)")
    parser.add_argument("--at", type=_timestamp, default=None, help=at_help)


def _database_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--database", default=None, help="database URL (default: "
                        "$DATABASE_URL, else the database_url of --config, else "
                        "sqlite:///data/modbot.sqlite)")
    parser.add_argument("--config", default=None, help="the bot's configuration file, to read "
                        "its database_url (relative paths: beside the file)")


def _timestamp(text: str) -> datetime:
    try:
        value = datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a timestamp: {text!r}") from None
    if value.tzinfo is None:
        raise argparse.ArgumentTypeError("the timestamp needs a time zone (Z or +01:00)")
    return value


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
