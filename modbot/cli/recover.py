"""Theory of operation: `modbot recover`, a game rebuilt from the forum on purpose (a lost
disk, a move to a new machine).

For the chosen games (all by default), it refuses a game the database still holds unless told
`--replace` (then what the database holds of it is dropped, in the same transaction as the
rebuild), rebuilds each through the service (`app/recovery/recovery.py`, the rules in
docs/operations.md), sends what the games owe, and prints one summary line a game and the
outbox's totals. A thread where the bot never posted has nothing to recover.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime

from ..adapters.forum import ConfigurationError, CredentialsRejected, ForumError
from ..adapters.store import Store
from ..app.posting.reactions import title_forms
from ..app.reading.thread_reads import read_thread
from ..app.recovery.rebuild import ran_before
from ..app.running.compose import compose
from ..app.running.daemon import Config, clock_for
from ..app.running.service import Service
from ..app.starting.startup import topic_of
from ..core import GameSetup
from ..files.gamefile import load_game


def recover(config: Config, names: list[str], *, replace: bool = False,
            out: Callable[[str], object] = print) -> int:
    """`modbot recover`: rebuild the chosen games (all by default) from the forum into the
    configured database and send what they owe. Exit status: 0 done, 1 a game is in the
    database already (without `replace`), 2 no such game, 3 the forum refused or failed."""
    setups = [load_game(g) for g in config.games]
    chosen = [s for s in setups if not names or s.name in names or str(s.topic_id) in names]
    missing = [n for n in names if n not in {s.name for s in setups} | {str(s.topic_id)
                                                                         for s in setups}]
    if missing:
        out(f"modbot: no game {', '.join(map(repr, missing))} in the configuration (its games: "
            f"{', '.join(repr(s.name) for s in setups)})")
        return 2
    store = Store(config.database_url)
    try:
        held = [s for s in chosen if _stored(store, s)]
        if held and not replace:
            out(f"modbot: {', '.join(repr(s.name) for s in held)} already in the database "
                f"({config.database_url}); add --replace to drop what it holds and rebuild "
                "from the forum")
            return 1
        client = config.forum_client()
        service = compose(client, store, setups, config.settings,
                          user_key=config.key_kind == "user", budget_set=config.budget_set)
        service.connect()
        now = clock_for(config, client, store).now()
        for setup in chosen:
            out(_recover_one(service, setup, now))
        _drain(service)
        counts = store.outbox_counts()
        out(f"Outbox: {counts.get('sent', 0)} sent, {counts.get('pending', 0)} pending, "
            f"{counts.get('failed', 0)} failed.")
        return 0
    except (ConfigurationError, CredentialsRejected) as exc:
        out(f"modbot: {exc}")
        return 3
    except ForumError as exc:
        out(f"modbot: the forum failed ({exc}); the database is as it was: run the command "
            "again")
        return 3
    finally:
        store.close()


def _stored(store: Store, setup: GameSetup) -> bool:
    row = store.find_game(str(setup.topic_id))
    return row is not None and store.has_inputs(row.id)


def _recover_one(service: Service, setup: GameSetup, now: datetime) -> str:
    topic_id = topic_of(setup)  # a game without a thread: one line, said by the caller
    key = f"g{topic_id}"
    thread = read_thread(service.client, topic_id)
    if not ran_before(service.client, service.settings.bot_username, key, topic_id,
                      thread, title_forms(setup.name, topic_id)):
        return (f"game {setup.name}: the forum shows no post of the bot in topic "
                f"{setup.topic_id}: nothing to recover (modbot run starts it as a new game)")
    with service.store.db.atomic():  # the old rows go only if the rebuild succeeds
        service.store.forget_game(str(setup.topic_id), f"{key}:")
        while not service.start_game(setup, now):  # a long thread: read on, a few pages at a time
            pass
    done = service.rebuilt[topic_id]
    lost = len(done.left_out) + len(done.unmatched)
    return (f"game {setup.name}: rebuilt from {done.thread_posts} thread posts and {done.pms} "
            f"private messages; {done.recognised} of the bot's posts recognised, {done.owed} "
            f"owed" + (f"; {lost} thing(s) not recovered, listed in the Storytellers' note"
                       if lost else ""))


def _drain(service: Service, rounds: int = 60) -> None:
    """Send what the rebuilt games owe (a few seconds, retried while the forum defers)."""
    for _ in range(rounds):
        service.drain()
        if not service.store.pending():
            return
        time.sleep(1)
