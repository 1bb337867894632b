"""What `modbot signups open|status` and `modbot game new --from-signups` do (cli/arguments.py parses
their arguments; app/starting/signups.py keeps the list). One line on any error, never a traceback."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..shown import shown

if TYPE_CHECKING:
    from ..adapters.forum import ForumClient
    from ..app.running.daemon import Config
    from ..core import Signups
    from ..files.signupfile import SignupSetup


def open_command(args: argparse.Namespace) -> int:
    from ..adapters.forum import ForumError
    from ..adapters.outbox import Outbox
    from ..adapters.store import Store
    from ..app.posting.render import render
    from ..app.posting.views import date_tag
    from ..app.starting.signups import open_thread
    from ..files.signupfile import load_signups, with_signup_topic
    setup = load_signups(args.game)
    connected = _client(args)
    if connected is None:
        return 2
    client, config = connected
    category = args.category or config.category
    if setup.topic_id is None and category is None:
        print("modbot: give the forum category: --category N, or category in [forum]",
              file=sys.stderr)
        return 2
    opening = render("signup_open.md.j2", game=setup,
                     closes=date_tag(setup.closes_at) if setup.closes_at else None)
    store = Store(config.database_url)
    try:
        topic = open_thread(client, store, setup, category, opening)
        Outbox(client, store).drain()
    except ForumError as exc:
        print(f"modbot: the forum refused the sign-up thread: {exc}", file=sys.stderr)
        return 3
    finally:
        store.close()
    if setup.topic_id is None:
        path = Path(args.game)
        path.write_text(with_signup_topic(path.read_text(encoding="utf-8"), topic),
                        encoding="utf-8")
    print(f"Sign-ups are open: topic {topic} ({config.forum_url}/t/{topic}), written into "
          f"{args.game} as signup_topic_id = {topic}. `modbot run` keeps the list up to date; "
          f"`modbot game new {args.game} --from-signups` seats the players.")
    return 0


def status_command(args: argparse.Namespace) -> int:
    signups, setup, _ids = _read(args)
    if signups is None:
        return 2
    print(shown(f"{setup.name}: {len(signups.players)} of {setup.players_max} signed up"
                f"{': ' + ', '.join(signups.players) if signups.players else ''}"))
    print(shown(f"backups: {', '.join(signups.backups) if signups.backups else 'none'}"))
    return 0


def seats_command(args: argparse.Namespace) -> int | None:
    """`game new --from-signups`: write the seats into the game file (None: done, go on to
    open the game thread; a number: the exit status after one line)."""
    from ..adapters.forum import NotFound
    from ..app.starting.signups import seats_from_signups
    from ..files.signupfile import with_seats
    signups, setup, ids = _read(args)
    if signups is None:
        return 2
    if setup.seated:
        print(f"modbot: {args.game} has seats already: --from-signups writes them from the "
              "sign-up thread into a file without any", file=sys.stderr)
        return 2
    if len(signups.players) < 5:
        print(f"modbot: {len(signups.players)} signed up: a game needs 5 players at least",
              file=sys.stderr)
        return 2
    try:
        seats, order = seats_from_signups(signups, ids, args.shuffle)
    except NotFound as exc:
        print(f"modbot: {exc}", file=sys.stderr)
        return 2
    path = Path(args.game)
    backups = [(b, ids[b]) for b in signups.backups]
    path.write_text(with_seats(path.read_text(encoding="utf-8"), seats, backups, order),
                    encoding="utf-8")
    print(f"Seated {len(seats)} players {order} ({', '.join(p for p, _ in seats)}); backups: "
          f"{', '.join(signups.backups) or 'none'}; written into {args.game}.")
    return None


def _read(args: argparse.Namespace) -> tuple[Signups | None, SignupSetup, dict[str, int]]:
    from ..adapters.forum import ForumError
    from ..app.reading.thread_reads import read_thread
    from ..app.starting.signups import folded, signup_ids
    from ..files.signupfile import load_signups
    setup = load_signups(args.game)
    if setup.topic_id is None:
        print(f"modbot: {args.game} has no signup_topic_id: `modbot signups open` first",
              file=sys.stderr)
        return None, setup, {}
    connected = _client(args)
    if connected is None:
        return None, setup, {}
    client, config = connected
    from ..adapters.store import Store
    store = Store(config.database_url)  # what the bot read before: evidence (sightings)
    try:
        posts = read_thread(client, setup.topic_id)
        seen = store.sightings(p.id for p in posts)
        store.record_sightings(posts)
        signups = folded(setup, posts, lambda post_id: client.post_version(post_id, 1).raw,
                         seen)
    except ForumError as exc:
        print(f"modbot: cannot read the sign-up thread {setup.topic_id}: {exc}", file=sys.stderr)
        return None, setup, {}
    finally:
        store.close()
    return signups, setup, signup_ids(posts)


def _client(args: argparse.Namespace) -> tuple[ForumClient, Config] | None:
    from .config import config_or_none
    config = config_or_none(args)
    if config is None:
        return None
    return config.forum_client(), config
