"""The `modbot` command line: parse, replay, demo."""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from datetime import datetime

from . import __version__
from .app.catalogue import worded_report
from .app.daemon import ConfigError
from .app.render import render_text_report
from .core import GameState, Roster, parse_post, replay
from .files.gamefile import GameFileError, load_game
from .files.threadfile import ThreadFileError, load_thread


def main(argv: list[str] | None = None) -> int:
    parser = _build_parser()
    args = parser.parse_args(argv)
    try:
        status = args.func(args)
        sys.stdout.flush()  # here, where a reader that left early can be told apart
        return status
    except (GameFileError, ThreadFileError, ConfigError) as exc:
        print(f"modbot: {exc}", file=sys.stderr)
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
    p.set_defaults(func=_cmd_parse)

    p = commands.add_parser(
        "replay", help="replay a thread export against a game file and print the game state",
        description="Replay THREAD.json (a Discourse topic export with raw, a list of pages, "
                    "or a list of posts) against GAME.toml and print the state of the game as "
                    "of --at (default: the last post's time) as JSON, or as text with --text. "
                    "A thread export holds no private messages, so the game is replayed "
                    "without its script: nights end at their deadline, with no night sheet.",
    )
    p.add_argument("game", help="the game file (TOML)")
    p.add_argument("thread", help="the thread export (JSON)")
    p.add_argument("--at", type=_timestamp, default=None,
                   help="evaluate the game at this time (e.g. 2026-12-03T18:00:00Z)")
    p.add_argument("--text", action="store_true", help="print a readable summary, not JSON")
    p.set_defaults(func=_cmd_replay)

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
    p.set_defaults(func=_cmd_demo)

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
    p.set_defaults(func=_cmd_sandbox)

    p = commands.add_parser(
        "audit", help="every stored input of a game, its events, and a replay check",
        description="List every input the bot stored for a game (posts, PMs, clock ticks, "
                    "edits) with the events each caused, and check that replaying the inputs "
                    "reproduces exactly the stored events (exit status 1 if not).",
    )
    p.add_argument("game", help="the game file (TOML)")
    _database_option(p)
    p.add_argument("--json", action="store_true", help="print the audit as JSON")
    p.set_defaults(func=_cmd_audit)

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
    p.add_argument("--config", default="config/modbot.toml",
                   help="configuration file (TOML; default: config/modbot.toml)")
    p.add_argument("--category", type=int, default=None,
                   help="the forum category id (default: [forum] category in the config)")
    p.set_defaults(func=_cmd_game_new)
    p = game_commands.add_parser(
        "status", help="the current state of a stored game (phase, votes, days)",
        description="Rebuild a game from the database, as the daemon does at start, and print "
                    "its state: the phase, the seats and each day's nominations and votes.",
    )
    p.add_argument("game", help="the game file (TOML)")
    _database_option(p)
    p.add_argument("--json", action="store_true", help="print the state as JSON")
    p.set_defaults(func=_cmd_status)

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
                   help="real seconds between the bot's polls (default 5: two reads a poll "
                        "stay well inside Discourse's 60 admin requests a minute)")
    p.add_argument("--data", default="data",
                   help="folder for the database, the keys and the saved thread (default data)")
    p.set_defaults(func=_cmd_rehearse)

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
    p.set_defaults(func=_cmd_setup)

    p = commands.add_parser(
        "run", help="run the bot (the daemon) with a configuration file",
        description="Run the bot: poll the forum, count votes, post vote counts and phase "
                    "posts. Stops cleanly on SIGTERM/SIGINT after the current cycle.",
    )
    p.add_argument("--config", default="config/modbot.toml",
                   help="configuration file (TOML; default: config/modbot.toml)")
    p.add_argument("--max-cycles", type=int, default=None, help=argparse.SUPPRESS)
    p.set_defaults(func=_cmd_run)

    p = commands.add_parser(
        "check", help="check that the forum, the bot account and every game are ready",
        description="Check, without changing anything: the forum answers; the API key works "
                    "and belongs to the bot account; the account is staff (or what not being "
                    "staff costs); every game topic exists, is a public topic, open and not "
                    "archived; every seated player and Storyteller is a forum user who can "
                    "send and receive PMs (with \"did you mean\" for a near miss); the game "
                    "files and scripts load. One line per problem; exit status 1 if any, 0 "
                    "when all is ready.",
    )
    p.add_argument("--config", default="config/modbot.toml",
                   help="configuration file (TOML; default: config/modbot.toml)")
    p.set_defaults(func=_cmd_check)
    return parser


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
    setup = dataclasses.replace(load_game(args.game), script=None)  # the public side only
    posts = load_thread(args.thread)
    run = replay(GameState.from_setup(setup), posts, args.at)
    report = run.report()
    if args.text:
        print(render_text_report(setup, report))
    else:
        print(json.dumps(worded_report(report), indent=2, ensure_ascii=False))
    return 0


def _cmd_demo(args) -> int:
    from .demo import run_demo
    return run_demo(args.database)


def _cmd_rehearse(args) -> int:
    from .rehearse import rehearse_command
    return rehearse_command(args)


def _cmd_sandbox(args) -> int:
    from .sandbox.forum import Clock, Forum
    from .sandbox.server import SandboxServer
    forum = Forum(Clock(args.start, args.speed), limits=not args.no_limits)
    for name in args.moderator:
        forum.add_user(name, moderator=True, trust_level=4)
    try:
        server = SandboxServer(args.port, api_key=args.api_key, forum=forum,
                               admin_api_limit=args.admin_api_limit)
    except OSError as exc:
        print(f"modbot: cannot serve on port {args.port} ({exc.strerror}): choose another "
              "with --port, or 0 for any free one", file=sys.stderr)
        return 2
    print(f"modbot sandbox on {server.url} (master API key: {server.api_key})", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


def _open_store(args):
    from .adapters.store import DEFAULT_URL, Store
    from .app.daemon import configured_database
    url = args.database or os.environ.get("DATABASE_URL") or (
        configured_database(args.config) if args.config else None) or DEFAULT_URL
    return Store(url)


def _cmd_setup(args) -> int:
    from .files.setupfile import run_setup
    return run_setup(args)


def _cmd_audit(args) -> int:
    from .audit import AuditError, audit_game, audit_text
    setup = load_game(args.game)
    store = _open_store(args)
    try:
        audit = audit_game(store, setup)
    except AuditError as exc:
        print(f"modbot: {exc}", file=sys.stderr)
        return 2
    finally:
        store.close()
    print(json.dumps(audit, indent=2, ensure_ascii=False) if args.json else audit_text(audit))
    return 0 if audit["replay_matches"] else 1


def _cmd_status(args) -> int:
    from .audit import AuditError, load_runtime
    from .core import report
    setup = load_game(args.game)
    store = _open_store(args)
    try:
        _row, runtime = load_runtime(store, setup)
        runtime.load(store.inputs(_row.id))
    except AuditError as exc:
        print(f"modbot: {exc}", file=sys.stderr)
        return 2
    finally:
        store.close()
    state = report(runtime.state)
    print(json.dumps(worded_report(state), indent=2, ensure_ascii=False) if args.json
          else render_text_report(setup, state))
    return 0


def _cmd_game_new(args) -> int:
    from .adapters.forum import ForumClient, ForumError
    from .app.daemon import ConfigError, load_config
    from .app.opening import opening_post
    setup = load_game(args.game)
    try:
        config = load_config(args.config)
    except ConfigError as exc:
        print(f"modbot: {exc}", file=sys.stderr)
        return 2
    category = args.category or config.category
    if category is None:
        print("modbot: give the forum category: --category N, or category in [forum]",
              file=sys.stderr)
        return 2
    client = ForumClient(config.forum_url, config.username, config.api_key,
                         timeout=config.timeout)
    try:
        post = client.create_post(opening_post(setup), category_id=category,
                                  title=f"{setup.name}: the game thread")
    except ForumError as exc:
        print(f"modbot: the forum refused the game thread: {exc}", file=sys.stderr)
        return 3
    print(f"Opened the game thread: topic {post['topic_id']} "
          f"({config.forum_url}/t/{post['topic_id']}). Set topic_id = {post['topic_id']} in "
          f"{args.game}.")
    return 0


def _cmd_run(args) -> int:
    import logging

    from .app.daemon import ConfigError, load_config, run
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    try:
        config = load_config(args.config)
    except ConfigError as exc:
        print(f"modbot: {exc}", file=sys.stderr)
        return 2
    return run(config, max_cycles=args.max_cycles)


def _cmd_check(args) -> int:
    from .adapters.forum import ForumClient
    from .app.daemon import ConfigError, load_config
    from .app.preflight import preflight
    try:
        config = load_config(args.config)
    except ConfigError as exc:
        print(f"modbot: {exc}", file=sys.stderr)
        return 2
    client = ForumClient(config.forum_url, config.username, config.api_key,
                         timeout=config.timeout)
    found = preflight(client, config.username, config.games)
    for note in found.notes:
        print(f"note: {note}")
    for problem in found.problems:
        print(f"problem: {problem}")
    if found.ready:
        print(f"Ready: {len(config.games)} game(s) checked on {config.forum_url}.")
    return 0 if found.ready else 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
