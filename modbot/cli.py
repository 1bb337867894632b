"""The `modbot` command line: parse, replay, demo."""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime
from pathlib import Path

from . import __version__
from .core.model import GameState
from .core.names import Roster
from .core.parser import parse_post
from .core.report import replay
from .gamefile import GameFileError, load_game
from .render import render_text_report
from .threadfile import ThreadFileError, load_thread

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEMO_GAME = PROJECT_ROOT / "config" / "demo-game.toml"
DEMO_THREAD = PROJECT_ROOT / "data" / "demo-thread.json"


def main(argv: list[str] | None = None) -> int:
    parser = _build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except (GameFileError, ThreadFileError) as exc:
        print(f"modbot: {exc}", file=sys.stderr)
        return 2


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
    p.set_defaults(func=_cmd_parse)

    p = commands.add_parser(
        "replay", help="replay a thread export against a game file and print the game state",
        description="Replay THREAD.json (a Discourse topic export with raw, a list of pages, "
                    "or a list of posts) against GAME.toml and print the state of the game as "
                    "of --at (default: the last post's time) as JSON, or as text with --text.",
    )
    p.add_argument("game", help="the game file (TOML)")
    p.add_argument("thread", help="the thread export (JSON)")
    p.add_argument("--at", type=_timestamp, default=None,
                   help="evaluate the game at this time (e.g. 2026-12-03T18:00:00Z)")
    p.add_argument("--text", action="store_true", help="print a readable summary, not JSON")
    p.set_defaults(func=_cmd_replay)

    p = commands.add_parser(
        "demo", help="replay the bundled example game and print what happened",
        description="Replay the bundled example game (config/demo-game.toml and "
                    "data/demo-thread.json): a night and a day with nominations, votes, a ghost "
                    "vote, rejected votes and an execution. Prints a readable summary.",
    )
    p.add_argument("--json", action="store_true", help="print the JSON report instead")
    p.set_defaults(func=_cmd_demo)
    return parser


def _timestamp(text: str) -> datetime:
    try:
        value = datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a timestamp: {text!r}") from None
    if value.tzinfo is None:
        raise argparse.ArgumentTypeError("the timestamp needs a time zone (Z or +01:00)")
    return value


def _cmd_parse(args) -> int:
    players = tuple(p.strip() for p in args.players.split(",") if p.strip())
    aliases = []
    for item in args.alias:
        alias, sep, player = item.partition("=")
        if not sep or player.strip() not in players:
            print(f"modbot: --alias {item!r}: expected ALIAS=PLAYER with a player from "
                  f"--players", file=sys.stderr)
            return 2
        aliases.append((alias.strip(), player.strip()))
    roster = Roster(players, tuple(aliases))
    open_nominees = []
    for name in args.open:
        resolved = roster.resolve_exact(name)
        if resolved is None:
            print(f"modbot: --open {name!r} is not in --players", file=sys.stderr)
            return 2
        open_nominees.append(resolved)
    result = parse_post(sys.stdin.read(), roster, tuple(open_nominees), tuple(args.storyteller),
                        count_spoilers=not args.no_spoilers)
    print(json.dumps(result.to_json(), ensure_ascii=False))
    return 0


def _cmd_replay(args) -> int:
    setup = load_game(args.game)
    posts = load_thread(args.thread)
    run = replay(GameState.from_setup(setup), posts, args.at)
    report = run.report()
    if args.text:
        print(render_text_report(setup, report))
    else:
        print(json.dumps(report, indent=2, ensure_ascii=False))
    return 0


def _cmd_demo(args) -> int:
    setup = load_game(DEMO_GAME)
    posts = load_thread(DEMO_THREAD)
    run = replay(GameState.from_setup(setup), posts)
    if args.json:
        print(json.dumps(run.report(), indent=2, ensure_ascii=False))
        return 0
    print(f"modbot demo: replaying {len(posts)} posts of {DEMO_THREAD.name} "
          f"against {DEMO_GAME.name}\n")
    for post in posts:
        print(f"#{post.post_number} {post.created_at:%a %H:%M} {post.author}: "
              f"{' / '.join(line for line in post.raw.splitlines() if line.strip())}")
    print()
    print(render_text_report(setup, run.report()))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
