"""`modbot rehearse GAME.toml`: a whole rehearsal in one command, played in the browser.

Theory of operation: one process holds the sandbox forum (Discourse's default limits, its
clock started `lead` before the game's first night and running `speed` times real time), the
accounts the game file names (the bot and the Storytellers as moderators, the players; each
with a single-user API key for scripts),
the game thread (the opening post `modbot game new` writes, posted by the bot), and the bot
itself: a `Service` on a fresh SQLite file under `data/`, polled on the forum's own clock (the
one clock). The bot runs as on a forum without an admin: on its own User API key (granted by
the sandbox as `modbot login` would get it, within the key's limits on the forum's clock), woken
by the forum's MessageBus (app/reading/bus_watch.py: a post is answered as soon as the bot has read it,
so a rehearsal shows the real latency), with a poll every `poll_seconds` as the sweep. People
play through the sandbox's pages (`sandbox/web.py`); scripts use the master key. Ctrl-C
stops everything it started and saves the thread as a thread file for `modbot replay`. Every
run starts over from scratch: a new forum and a new database.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import secrets
import signal
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path

from ..adapters.forum import ForumClient, ForumError
from ..adapters.store import Store
from ..app.reading.bus_watch import BusWatch
from ..app.reading.intake import Wake
from ..app.running.compose import compose
from ..app.running.service import CycleReport, Service
from ..app.running.settings import Settings
from ..app.starting.opening import opening_post
from ..core import GameSetup
from ..files.gamefile import load_game
from ..sandbox.forum import Forum
from ..sandbox.models import Clock
from ..sandbox.server import SandboxServer
from ..sandbox.web import export_topic
from .rehearsal import watch_bus
from .rehearsal_accounts import bot_key_client, bound, game_accounts
from .rehearsal_record import commands, seated_copy, write_record

log = logging.getLogger("modbot")
LEAD = timedelta(minutes=5)


class RehearsalError(Exception):
    """Why a rehearsal cannot start, in one line."""


@dataclasses.dataclass
class LiveRehearsal:
    server: SandboxServer
    setup: GameSetup
    service: Service
    store: Store
    database: Path
    keys: dict[str, str]  # username -> single-user API key
    topic_id: int  # the game thread, opened by the rehearsal
    bot_client: ForumClient | None = None  # the bot's client, on its User API key
    record: Path | None = None  # the game file the bot plays (cli/rehearsal_record.py)

    @property
    def forum(self) -> Forum:
        return self.server.forum

    @property
    def thread_url(self) -> str:
        topic = self.forum.topics[self.topic_id]
        return f"{self.server.url}/t/{topic.slug}/{topic.id}"

    def cycle(self, wake: Wake | None = None) -> CycleReport:
        """One poll cycle of the bot at the forum's time (`wake`: what the bus named)."""
        return self.service.cycle(self.forum.clock.now(), wake)

    def run(self, stop: threading.Event, poll_seconds: float = 5.0) -> None:
        """Until `stop` is set: a cycle as soon as the forum pushes news and every
        `poll_seconds` besides, and the outbox delivered every second."""
        wake = threading.Event()
        bus = self._bus(wake)
        next_poll = 0.0
        try:
            while not stop.is_set():
                if wake.is_set() and bus is not None and time.monotonic() < next_poll:
                    wake.clear()
                    self._logged_cycle(bus.take_wake())  # what the bus named
                elif time.monotonic() >= next_poll:
                    wake.clear()
                    if bus is not None:
                        bus.take_wake()  # the full cycle reads all of it
                    owed = self._logged_cycle()  # reads put off, or a game still to start:
                    next_poll = time.monotonic() + (1.0 if owed else poll_seconds)  # soon
                else:
                    self.service.drain()
                wake.wait(min(1.0, poll_seconds))
        finally:
            if bus is not None:
                bus.stop()

    def _bus(self, wake: threading.Event) -> BusWatch | None:
        client = self.bot_client
        if client is None:
            return None
        channels = [f"/topic/{self.topic_id}"] + \
            ([f"/notification-alert/{self.service.bot_id}"] if self.service.bot_id else [])
        return watch_bus(client, lambda: channels, wake, lambda: self.service.bot_id)

    def _logged_cycle(self, wake: Wake | None = None) -> bool:
        """One cycle, logged; True when it left work for the next one (reads the request
        budget put off, or a game still to start)."""
        try:
            report = self.cycle(wake)
        except ForumError as exc:  # the sandbox refused a read: said, and tried again
            log.warning("cycle: %s", exc)
            return True
        if report.posts or report.sent:
            log.info("forum time %s: %d posts handled, %d sent",
                     f"{self.forum.clock.now():%a %d %b %H:%M}", report.posts, report.sent)
        return bool(report.deferred)

    def export(self, path: Path) -> Path:
        """The game thread as a thread file (`modbot replay GAME.toml FILE`)."""
        with self.forum.lock:
            data = export_topic(self.forum, self.forum.topics[self.topic_id])
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, indent=1, ensure_ascii=False), encoding="utf-8")
        return path

    def stop(self) -> None:
        self.store.close()
        self.server.stop()


def start_rehearsal(game: str | Path, *, speed: float = 60.0, port: int = 0,
                    data_dir: Path = Path("data"), lead: timedelta = LEAD,
                    api_key: str | None = None, settings: Settings | None = None,
                    players: int | None = None) -> LiveRehearsal:
    """A fresh forum with the game's accounts and thread, and the bot started on it (a game
    still in sign-ups seated with `players` placeholder players: rehearsal_record.py)."""
    game = seated_copy(game, data_dir, players)
    written = load_game(game)
    forum = Forum(Clock(written.first_night_starts - lead, speed))
    try:
        server = SandboxServer(port, api_key=api_key or secrets.token_hex(16), forum=forum)
    except OSError as exc:
        raise RehearsalError(f"cannot serve on port {port} ({exc.strerror}): choose another "
                             "with --port, or 0 for any free one") from exc
    keys = game_accounts(forum, written)
    topic_id = _open_thread(forum, written)
    database = _fresh_database(data_dir, written)
    # the game the bot plays is the record's (cli/rehearsal_record.py): the thread, the accounts,
    # and at least a minute of real time to act (a !confirm, a countdown)
    record = write_record(game, database, written, dict(bound(forum, written).user_ids),
                          topic_id, speed)
    setup = load_game(record)
    server.start()
    client = bot_key_client(server, setup.bot_username, f"rehearsal-{secrets.token_hex(4)}")
    # the bot on its own key, its budget counting the forum's minutes as the sandbox's limiter
    # does (a rehearsal's minute passes faster than a real one)
    service = compose(client, f"sqlite:///{database}", [setup],
                      settings or Settings(bot_username=setup.bot_username), user_key=True,
                      forum_seconds=forum.seconds, forum_gaps=True)
    store = service.store
    service.start()
    return LiveRehearsal(server, setup, service, store, database, keys, topic_id, client, record)


def _open_thread(forum: Forum, setup: GameSetup) -> int:
    bot = forum.account(setup.bot_username)  # game_accounts made it
    post = forum.create(bot, {"title": f"{setup.name}: the game thread", "category": 1,
                              "raw": opening_post(setup)}, api=False)
    return post.topic_id


def _fresh_database(data_dir: Path, setup: GameSetup) -> Path:
    slug = "".join(c if c.isalnum() else "-" for c in setup.name.lower()).strip("-") or "game"
    data_dir.mkdir(parents=True, exist_ok=True)
    database = (data_dir / f"rehearsal-{slug}.sqlite").resolve()
    for suffix in ("", "-wal", "-shm"):
        Path(f"{database}{suffix}").unlink(missing_ok=True)
    return database


def rehearse_command(args: argparse.Namespace) -> int:
    """`modbot rehearse`: start, say where everything is, play until Ctrl-C, save the thread."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    try:
        live = start_rehearsal(args.game, speed=args.speed, port=args.port,
                               data_dir=Path(args.data), players=args.players)
    except RehearsalError as exc:
        print(f"modbot: {exc}", file=sys.stderr)
        return 2
    stem = live.database.with_suffix("")
    keys = Path(f"{stem}-keys.json")
    keys.write_text(json.dumps(live.keys, indent=1), encoding="utf-8")
    for line in _introduction(live, args.speed, keys):
        print(line, flush=True)
    stop = threading.Event()
    for number in (signal.SIGINT, signal.SIGTERM):  # Ctrl-C or a kill: stop, save, say so
        signal.signal(number, lambda *_: stop.set())
    try:
        live.run(stop, args.poll)
    finally:
        saved = live.export(Path(f"{stem}-thread.json"))
        live.stop()
    print(f"stopped; the thread is saved in {saved}. The rehearsal's record (its game file "
          f"{live.record} and its database) reads the same in:")
    for line in commands(live.record or Path(args.game), live.database, saved):
        print(f"  {line}")
    return 0


def _introduction(live: LiveRehearsal, speed: float, keys: Path) -> list[str]:
    setup, now = live.setup, live.forum.clock.now()
    return [
        f"forum: {live.server.url}",
        f"api key: {live.server.api_key}",
        f"game thread: {live.thread_url}",
        f"forum clock: {now:%a %d %b %Y %H:%M} UTC, {speed:g}x real time (night 1 begins "
        f"{setup.first_night_starts:%a %d %b %H:%M} UTC)",
        f"accounts: {setup.bot_username} (the bot), {', '.join(setup.storytellers)} "
        f"(Storyteller{'s' if len(setup.storytellers) != 1 else ''}), "
        f"{', '.join(s.name for s in setup.seats)}; their API keys: {keys}",
        f"database: {live.database} (new for each rehearsal); the game file it plays: "
        f"{live.record} (yours, with the thread's id, the accounts' ids and the least time "
        "to act at this speed)",
        "Open the forum in a browser, choose whom you are viewing as at the top, and play. "
        "Ctrl-C stops the forum and the bot.",
    ]
