"""What each `modbot` command does once its arguments are parsed (cli/arguments.py parses them).

Each function takes the parsed arguments and returns the exit status; imports that only one
command needs stay inside it, so `modbot --help` starts fast.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from ..app.posting.catalogue import worded_report
from ..app.posting.render import render_text_report
from ..core import GameSetup, GameState, Post, Roster, parse_post, replay
from ..files.gamefile import load_game, with_topic_id
from ..files.threadfile import load_thread
from .config import config_or_none, open_store

if TYPE_CHECKING:
    from ..adapters.forum import ForumClient
    from ..adapters.port import ForumPost
    from ..sandbox.forum import Forum


def parse_command(args: argparse.Namespace) -> int:
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
                        count_spoilers=not args.no_spoilers, forms=args.forms, bot=args.bot)
    print(json.dumps(result.to_json(), ensure_ascii=False))
    return 0


def replay_command(args: argparse.Namespace) -> int:
    setup = dataclasses.replace(load_game(args.game), script=None)  # the public side only
    posts = load_thread(args.thread)
    run = replay(GameState.from_setup(setup), posts, args.at, notices=True)
    unseen = _not_derived(setup, posts, run.told, args.at)
    if unseen:
        print(f"modbot replay: the thread shows {len(unseen)} post{'s' if len(unseen) > 1 else ''} "
              f"of the bot's that this replay does not derive ({', '.join(unseen[:5])}"
              f"{', ...' if len(unseen) > 5 else ''}): they follow from private messages (the "
              "Storytellers' commands, night actions), which a thread file does not hold, so "
              "this is the thread's side of the game only", file=sys.stderr)
    report = run.report()
    if args.text:
        print(render_text_report(setup, report))
    else:
        print(json.dumps(worded_report(report), indent=2, ensure_ascii=False))
    return 0


def _not_derived(setup: GameSetup, posts: list[Post], told: set[str], at: datetime | None) -> list[str]:
    """The marker keys of the bot's own thread posts that the replay does not owe (vote
    counts and echoes aside: their keys hold numbers only the running bot knows)."""
    from ..app.recovery.rebuild import MARKER
    prefix = f"g{setup.topic_id}:"
    shown = [key.removeprefix(prefix) for post in posts
             if post.author.casefold() == setup.bot_username.casefold()
             and (at is None or post.created_at <= at)
             for key in MARKER.findall(post.raw) if key.startswith(prefix)]
    return [key for key in dict.fromkeys(shown)
            if key not in told and not key.startswith(("vc:", "voting:", "life:", "status:"))]


def picture_command(args: argparse.Namespace) -> int:
    from ..app.picture import vote_picture
    from ..app.posting.views import vote_count_view
    setup = dataclasses.replace(load_game(args.game), script=None)  # the public side only
    posts = load_thread(args.thread)
    if args.at is not None:
        posts = [p for p in posts if p.created_at <= args.at]
    state = replay(GameState.from_setup(setup), posts, args.at).state
    view = vote_count_view(state, number=0, as_of=posts[-1].post_number if posts else None,
                           topic_id=setup.topic_id)
    picture = vote_picture(state, view)
    try:
        with open(args.output, "wb") as out:
            out.write(picture.png)
    except OSError as exc:
        print(f"modbot: cannot write {args.output} ({exc.strerror})", file=sys.stderr)
        return 2
    print(f"{args.output}: {picture.width}x{picture.height}, {len(picture.png):,} bytes. "
          f"{picture.alt}")
    return 0


def demo_command(args: argparse.Namespace) -> int:
    from .demo import run_demo
    try:
        return run_demo(args.database, port=args.port)
    except OSError as exc:
        print(f"modbot: cannot serve the sandbox on port {args.port} ({exc.strerror}): choose "
              "another with --port, or 0 for any free one", file=sys.stderr)
        return 2


def rehearse_command(args: argparse.Namespace) -> int:
    from .browser_rehearsal import rehearse_command
    return rehearse_command(args)


def _accounts_of(forum: Forum, game: str) -> dict[str, str]:
    """The accounts a game file names (one before its seats: its staff and players to sign
    up with)."""
    from ..files.signupfile import load_signups
    from .rehearsal_accounts import game_accounts, signup_accounts
    signups = load_signups(game)
    return game_accounts(forum, load_game(game)) if signups.seated else \
        signup_accounts(forum, signups)


def sandbox_command(args: argparse.Namespace) -> int:
    from ..sandbox.forum import Forum
    from ..sandbox.models import Clock
    from ..sandbox.server import SandboxServer
    forum = Forum(Clock(args.start, args.speed), limits=not args.no_limits)
    for name in args.moderator:
        forum.add_user(name, moderator=True, trust_level=4)
    named = [name for game in args.game for name in _accounts_of(forum, game)]
    try:
        server = SandboxServer(args.port, api_key=args.api_key, forum=forum,
                               admin_api_limit=args.admin_api_limit)
    except OSError as exc:
        print(f"modbot: cannot serve on port {args.port} ({exc.strerror}): choose another "
              "with --port, or 0 for any free one", file=sys.stderr)
        return 2
    print(f"modbot sandbox on {server.url} (master API key: {server.api_key})", flush=True)
    if named:
        print(f"accounts of the game files: {', '.join(dict.fromkeys(named))} (and each "
              "game's bot)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


def setup_command(args: argparse.Namespace) -> int:
    from .setup_check import run_setup
    return run_setup(args)


def audit_command(args: argparse.Namespace) -> int:
    from .audit import AuditError, audit_game, audit_text
    setup = load_game(args.game)
    store = open_store(args)
    try:
        audit = audit_game(store, setup)
    except AuditError as exc:
        print(f"modbot: {exc}", file=sys.stderr)
        return 2
    finally:
        store.close()
    print(json.dumps(audit, indent=2, ensure_ascii=False) if args.json else audit_text(audit))
    return 0 if audit["replay_matches"] else 1


def status_command(args: argparse.Namespace) -> int:
    from .status import status_command as status
    return status(args)


_config = config_or_none  # the configuration `--config` names (cli/config.py)


def login_command(args: argparse.Namespace) -> int:
    from .login import login_command as login
    return login(args)


def logout_command(args: argparse.Namespace) -> int:
    from .login import logout_command as logout
    return logout(args)


def signups_open_command(args: argparse.Namespace) -> int:
    from .signups import open_command
    return open_command(args)


def signups_status_command(args: argparse.Namespace) -> int:
    from .signups import status_command
    return status_command(args)


def game_new_command(args: argparse.Namespace) -> int:
    from ..adapters.forum import ForumError
    from ..adapters.store import Store
    from ..app.starting.opening import open_storytellers_conversation, opening_post
    from ..app.starting.seal_salt import salted
    if args.from_signups:
        from .signups import seats_command
        failed = seats_command(args)
        if failed is not None:
            return failed
    setup = load_game(args.game)
    if setup.topic_id is not None:
        print(f"modbot: {args.game} already has its thread (topic_id = {setup.topic_id}): "
              "remove topic_id to open a new one", file=sys.stderr)
        return 2
    config = _config(args)
    if config is None:
        return 2
    category = args.category or config.category
    if category is None:
        print("modbot: give the forum category: --category N, or category in [forum]",
              file=sys.stderr)
        return 2
    client = config.forum_client()
    try:
        post = client.create_post(opening_post(setup, config.guide_url), category_id=category,
                                  title=f"{setup.name}: the game thread")
    except ForumError as exc:
        print(f"modbot: the forum refused the game thread: {exc}", file=sys.stderr)
        return 3
    path = Path(args.game)
    path.write_text(with_topic_id(path.read_text(encoding="utf-8"), post["topic_id"]),
                    encoding="utf-8")
    print(f"Opened the game thread: topic {post['topic_id']} "
          f"({config.forum_url}/t/{post['topic_id']}), written into {args.game} as "
          f"topic_id = {post['topic_id']}.")
    store = Store(config.database_url)
    try:
        setup = salted(store, setup, post["topic_id"])  # the seal's salt, in the first note
        conversation = open_storytellers_conversation(client, store, setup, post["topic_id"])
    except (ForumError, RuntimeError) as exc:
        print(f"modbot: the Storytellers' conversation was not opened ({exc}); `modbot run` "
              "opens it when it starts the game", file=sys.stderr)
        return 0
    finally:
        store.close()
    print(f"Opened the Storytellers' conversation with the bot: {config.forum_url}/t/"
          f"{conversation} (send !status there once `modbot run` runs the game).")
    return 0


def run_command(args: argparse.Namespace) -> int:
    import logging

    from ..app.running.daemon import run
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    config = _config(args)
    if config is None:
        return 2
    return run(config, max_cycles=args.max_cycles)


def recover_command(args: argparse.Namespace) -> int:
    import logging

    from .recover import recover
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(message)s")
    config = _config(args)
    if config is None:
        return 2
    return recover(config, args.game or [], replace=args.replace)


def check_command(args: argparse.Namespace) -> int:
    from .check import check_command as check
    return check(args)


def export_command(args: argparse.Namespace) -> int:
    from .clocktracker import IMPORTER, importer_page
    from .export import ExportError, export_clocktracker, export_game, thread_file
    if args.html and args.format != "clocktracker":
        print("modbot: --html writes ClockTracker's import page: add --format clocktracker", file=sys.stderr)
        return 2
    setup = load_game(args.game)
    store = open_store(args)
    exporter = export_clocktracker if args.format == "clocktracker" else export_game
    try:
        record = exporter(store, setup, before_the_end=args.before_the_end)
    except (ExportError, ValueError) as exc:
        print(f"modbot: {exc}", file=sys.stderr)
        return 2
    finally:
        store.close()
    text = json.dumps(record, indent=2, ensure_ascii=False)
    if args.html:
        text = importer_page(record, setup.name, args.importer or IMPORTER)
    if not _write(args.output, text):
        return 2
    if args.output not in (None, "-"):
        print(f"Wrote the {'page' if args.html else 'record'} of {setup.name!r} ({len(text):,} characters) "
              f"to {args.output}.")
    if args.thread:
        from ..app.starting.startup import topic_of
        read = _thread_posts(args, topic_of(setup))
        if read is None or not _write(args.thread, json.dumps(thread_file(read[1]), indent=1,
                                                              ensure_ascii=False)):
            return 2
    return 0


def verify_command(args: argparse.Namespace) -> int:
    from .export import ThreadPost, thread_posts_of, verify_thread
    if args.thread:
        try:
            posts = thread_posts_of(args.thread)
        except (OSError, ValueError) as exc:
            print(f"modbot: cannot read {args.thread}: {exc}", file=sys.stderr)
            return 2
        verdict = verify_thread(posts, args.bot_id)
    else:
        if args.config is None or args.topic is None:
            print("modbot: give --thread FILE, or --config FILE and --topic N", file=sys.stderr)
            return 2
        read = _thread_posts(args, args.topic)
        if read is None:
            return 2
        client, found = read
        bot_id = args.bot_id or _bot_id(client)
        if bot_id is None:
            return 2
        posts = [ThreadPost(p.username, p.raw, p.user_id, p.id, p.version) for p in found]
        verdict = verify_thread(posts, bot_id,
                                lambda post_id, n: client.post_version(post_id, n).raw)
    print(verdict.message)
    return 0 if verdict.ok else 1


def _bot_id(client: ForumClient) -> int | None:
    """The bot's user id: the account the configuration's key acts as (never a name)."""
    from ..adapters.forum import ForumError
    try:
        return int(client.current_user()["id"])
    except ForumError as exc:
        print(f"modbot: cannot ask the forum who the bot is ({exc}): give --bot-id",
              file=sys.stderr)
        return None


def _thread_posts(args: argparse.Namespace, topic_id: int) -> tuple[ForumClient, list[ForumPost]] | None:
    """The configuration's forum client and the game thread's posts, read with it (None:
    said why)."""
    from ..adapters.forum import ForumError
    from ..app.reading.thread_reads import read_thread
    config = _config(args)
    if config is None:
        return None
    client = config.forum_client()
    try:
        return client, read_thread(client, topic_id)
    except ForumError as exc:
        print(f"modbot: cannot read topic {topic_id}: {exc}", file=sys.stderr)
        return None


def _write(path: str | None, text: str) -> bool:
    """To the file, or stdout for none or "-"; False after one line if it cannot."""
    if path in (None, "-"):
        print(text)
        return True
    try:
        Path(path).write_text(text + "\n", encoding="utf-8")
    except OSError as exc:
        print(f"modbot: cannot write {path} ({exc.strerror})", file=sys.stderr)
        return False
    return True
