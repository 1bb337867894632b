"""`modbot run`: the configuration file, the clock, the start-up; then the loop (run_loop.py).

The daemon polls every `poll_seconds` (with a working MessageBus, the bus wakes it instead),
runs a cycle the second a deadline is due, drains the outbox every second, logs one line per
cycle (requests used, posts handled, posts sent), and stops cleanly on SIGTERM/SIGINT after
the current cycle. A rehearsal clock (`[rehearsal] start`, `speed`) lets a host play a whole
game in minutes against the sandbox.
"""

from __future__ import annotations

import logging
import os
import threading
import time
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from ...adapters.budget import DAY_CURSOR, restore_day
from ...adapters.forum import ConfigurationError, CredentialsRejected, ForumClient, ForumError, TransientError
from ...adapters.outgoing import Batch
from ...adapters.run_lock import AlreadyRunning, RunLock
from ...adapters.store import DEFAULT_URL, Store
from ...adapters.user_key import UserKeyError, load_key
from ...files.gamefile import load_game
from ...files.signupfile import load_signups
from ..starting.signups import SignupWatch
from .compose import compose
from .run_loop import RunLoop, Stop
from .service import Service
from .settings import Settings

log = logging.getLogger("modbot")
FORUM_KEYS = {"url", "username", "api_key_env", "user_api_key_file", "timeout", "category"}
BOT_KEYS = {"poll_seconds", "database_url", "vote_count_minutes", "settle_seconds",
            "sweep_minutes", "post_spacing", "close_topic_at_night", "max_backoff", "guide_url",
            "snapshot_seconds", "names_minutes", "requests_per_minute", "message_bus",
            "bus_sweep_seconds"}


@dataclass
class Config:
    forum_url: str
    username: str
    api_key: str
    games: list[str]
    timeout: float = 10
    poll_seconds: float = 15
    database_url: str = DEFAULT_URL
    settings: Settings = field(default_factory=Settings)
    rehearsal_start: datetime | None = None
    rehearsal_speed: float = 1.0
    category: int | None = None  # where `modbot game new` opens game threads
    notices: list[str] = field(default_factory=list)  # said once at start (a database moved)
    forum_clock: bool = False  # [rehearsal] clock = "forum": the sandbox's clock, the one clock
    guide_url: str | None = None  # where the community publishes the player guide
    user_api_client_id: str | None = None  # a User API key's client id (None: an admin's key)
    key_file: str | None = None  # where that key is kept (`modbot login` wrote it)
    message_bus: bool = True  # woken by the forum's pushes (bus_watch.py), polling the rest
    budget_set: bool = False  # [bot] requests_per_minute given (else a User API key's 18)
    bus_sweep_seconds: float = 300  # while the bus works: a full poll this often anyway

    @property
    def key_kind(self) -> str:
        return "user" if self.user_api_client_id is not None else "admin"

    def forum_client(self) -> ForumClient:
        """A client for the forum, with the configuration's key (an admin's or the bot's own)."""
        return ForumClient(self.forum_url, self.username, self.api_key, timeout=self.timeout,
                           user_api_client_id=self.user_api_client_id)


def load_config(path: str | Path, environ: Mapping[str, str] = os.environ) -> Config:
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigurationError(f"{path}: cannot read ({exc.strerror})") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigurationError(f"{path}: not valid TOML: {exc}") from exc
    forum, bot = data.get("forum", {}), data.get("bot", {})
    _known(path, "forum", forum, FORUM_KEYS)
    _known(path, "bot", bot, BOT_KEYS)
    url = str(forum.get("url", ""))
    if not url.startswith(("http://", "https://")):
        raise ConfigurationError(f"{path}: forum.url must be an http(s) URL, got {url!r}")
    key_env = str(forum.get("api_key_env", "MODBOT_API_KEY"))
    key_file, client_id = forum.get("user_api_key_file"), None
    if key_file is not None:  # the bot's own User API key (`modbot login`)
        if "api_key_env" in forum:
            raise ConfigurationError(f"{path}: give forum.user_api_key_file or forum.api_key_env, "
                              "not both")
        key_file = str(Path(key_file) if Path(key_file).is_absolute()
                       else (path.parent / str(key_file)).resolve())
        try:
            saved = load_key(key_file)
        except UserKeyError as exc:
            raise ConfigurationError(str(exc)) from None
        api_key, client_id = saved.key, saved.client_id
    else:
        api_key = environ.get(key_env, "")
    if not api_key:
        raise ConfigurationError(f"{path}: the API key is read from the environment variable "
                          f"{key_env}, which is not set (or run `modbot login` and name its "
                          "file as forum.user_api_key_file)")
    games = [str(Path(g["file"]) if Path(g["file"]).is_absolute()
                 else (path.parent / g["file"]).resolve()) for g in data.get("game", [])]
    if not games:
        raise ConfigurationError(f"{path}: list at least one [[game]] with file = \"...\"")
    username = str(forum.get("username", "modbot"))
    settings = Settings(bot_username=username, **{k: bot[k] for k in (
        "vote_count_minutes", "settle_seconds", "sweep_minutes", "post_spacing",
        "close_topic_at_night", "max_backoff", "snapshot_seconds", "names_minutes",
        "requests_per_minute") if k in bot})
    rehearsal = data.get("rehearsal", {})
    _known(path, "rehearsal", rehearsal, {"start", "speed", "clock"})
    if rehearsal.get("clock", "forum") != "forum":
        raise ConfigurationError(f"{path}: rehearsal.clock can only be \"forum\" (the sandbox's clock)")
    start = rehearsal.get("start")
    if isinstance(start, str):
        start = datetime.fromisoformat(start)
    notices: list[str] = []
    database = environ.get("DATABASE_URL") or _beside(path, str(bot.get("database_url",
                                                                       DEFAULT_URL)), notices)
    return Config(url, username, api_key, games, float(forum.get("timeout", 10)),
                  float(bot.get("poll_seconds", 15)), database,
                  settings, start, float(rehearsal.get("speed", 1.0)),
                  forum.get("category"), notices, rehearsal.get("clock") == "forum",
                  bot.get("guide_url"), client_id, key_file,
                  message_bus=bool(bot.get("message_bus", True)),
                  bus_sweep_seconds=float(bot.get("bus_sweep_seconds", 300)),
                  budget_set="requests_per_minute" in bot)


def configured_database(path: str | Path) -> str | None:
    """The database_url of a configuration file (as `modbot run` resolves it), without
    needing the API key: for `game status` and `audit`."""
    path = Path(path)
    try:
        bot = tomllib.loads(path.read_text(encoding="utf-8")).get("bot", {})
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigurationError(f"{path}: cannot read the configuration ({exc})") from exc
    url = bot.get("database_url")
    return _beside(path, str(url), []) if url else None


def _beside(config: Path, url: str, notices: list[str]) -> str:
    """A relative SQLite path in the configuration is relative to the configuration's folder
    (as game files are), so the bot finds its database whatever the current directory. A
    database left where the old rule put it (relative to the current directory) is kept, and
    the host is told how to move it. DATABASE_URL stays relative to the current directory."""
    prefix = "sqlite:///"
    relative = url[len(prefix):] if url.startswith(prefix) else ""
    if not relative or relative.startswith("/") or ":memory:" in relative:
        return url
    beside = (config.parent / relative).resolve()
    old = Path(relative).resolve()
    if old != beside and old.exists() and not beside.exists():
        notices.append(f"the database is {old} (relative to the current directory, as before); "
                       f"move it to {beside}, beside the configuration, where it is looked "
                       "for from now on")
        return prefix + str(old)
    return prefix + str(beside)


def _known(path: Path, table: str, values: dict[str, Any], allowed: set[str]) -> None:
    unknown = set(values) - allowed
    if unknown:
        raise ConfigurationError(f"{path}: [{table}] has unknown key(s) {', '.join(sorted(unknown))}")


class RehearsalClock:
    """Game time: real UTC, or `start` advancing `speed` times faster than real time from
    `anchor` (the real time, in epoch seconds, when game time was `start`). The anchor is
    kept in the database, so a restart continues the game's time instead of rewinding it."""

    def __init__(self, start: datetime | None = None, speed: float = 1.0,
                 anchor: float | None = None) -> None:
        self.start, self.speed = start, speed
        self.anchor = time.time() if anchor is None else anchor

    def now(self) -> datetime:
        if self.start is None:
            return datetime.now(UTC)
        return self.start + timedelta(seconds=(time.time() - self.anchor) * self.speed)

    def seconds(self) -> float:
        """Game time in seconds: what the run loop paces itself by."""
        return self.now().timestamp()


class ForumClock:
    """The sandbox's own clock (`GET /_sandbox/clock.json`): one clock for the forum and the
    bot in a rehearsal, whatever restarts. Read every `RESYNC` real seconds and followed at its
    speed in between, so the run loop, the budget and the outbox read it for nothing (a jump
    to the next deadline is seen within `RESYNC`)."""

    RESYNC = 2.0

    def __init__(self, client: ForumClient) -> None:
        self.client = client
        self.read: tuple[datetime, float, float] | None = None  # (forum time, real, speed)
        self.lock = threading.Lock()

    def now(self) -> datetime:
        with self.lock:  # the bus's thread reads it too (the budget counts by it)
            real = time.monotonic()
            if self.read is None or real - self.read[1] >= self.RESYNC:
                text, speed = self.client.forum_clock()
                self.read = (datetime.fromisoformat(text.replace("Z", "+00:00")), real, speed)
            at, then, speed = self.read
        return at + timedelta(seconds=(real - then) * speed)

    def seconds(self) -> float:
        return self.now().timestamp()

    def real_seconds(self, seconds: float) -> float:
        """The real seconds `seconds` of the forum's clock take (a standing clock's: as many)."""
        if self.read is None:
            self.now()
        assert self.read is not None
        return seconds / (self.read[2] or 1.0)


def clock_for(config: Config, client: ForumClient, store: Store,
              forum: ForumClock | None = None) -> ForumClock | RehearsalClock:
    """The bot's clock: the forum's (`forum`, made before the budget that counts by it), a
    rehearsal's (anchored in the store), or real time."""
    if config.forum_clock:
        return forum or ForumClock(client)
    if config.rehearsal_start is None:
        return RehearsalClock()
    anchor = store.cursor("rehearsal_anchor_ms")
    if anchor is None:
        anchor = int(time.time() * 1000)
        store.commit(Batch(cursors={"rehearsal_anchor_ms": anchor}))
    return RehearsalClock(config.rehearsal_start, config.rehearsal_speed, anchor / 1000)


def _warn_if_behind(clock: ForumClock | RehearsalClock, store: Store) -> None:
    """The game's latest input is later than the bot's clock: deadlines will wait for it."""
    latest = store.latest_input_at()
    now = clock.now()
    if latest is not None and latest > now:
        log.warning("the bot's clock (%s) is behind the game's latest post (%s): deadlines "
                    "wait until it catches up", now.isoformat(), latest.isoformat())


START_BACKOFF = 1.0  # seconds before the first retry of a failed start-up; doubles each time
START_BACKOFF_MAX = 60.0
START_UNREACHABLE = 3  # start-ups in a row with no answer at all (a bad URL?) before giving up


def _start(service: Service, config: Config, stop: Stop) -> int | None:
    """Start the service; None when it runs, else the exit code. A 429, a 5xx or a timeout is
    retried with backoff (the forum answered: it will again); no answer at all is retried
    START_UNREACHABLE times; a bad key or a missing topic exits at once."""
    delay, unreachable = START_BACKOFF, 0
    while not stop.flag:
        try:
            service.start()
            return None
        except (ConfigurationError, CredentialsRejected) as exc:
            log.error("cannot start: %s", exc)
            return 3
        except TransientError as exc:
            unreachable = unreachable + 1 if exc.status is None else 0
            if unreachable >= START_UNREACHABLE:
                log.error("cannot reach the forum at %s: %s", config.forum_url, exc)
                return 3
            log.warning("start-up: %s; trying again in %.0fs", exc, delay)
        except ForumError as exc:  # a permanent answer to a read (a 422...): not the config's
            log.warning("start-up: %s; trying again in %.0fs", exc, delay)
        time.sleep(delay)
        delay = min(delay * 2, START_BACKOFF_MAX)
    return 0


def run(config: Config, *, max_cycles: int | None = None) -> int:
    """Run the daemon until a signal (or `max_cycles`); return the exit code. A second
    daemon on the same database is refused (adapters/run_lock.py)."""
    try:
        lock = RunLock.take(config.database_url)
    except AlreadyRunning:
        raise ConfigurationError(f"another modbot is already running on {config.database_url}: stop "
                          "it first, or give this one a database of its own (database_url in "
                          "the configuration)") from None
    try:
        return _run(config, max_cycles)
    finally:
        lock.release()


def _count_the_keys_day(client: ForumClient, store: Store, wall: float) -> None:
    """A User API key's day is the forum's: what an earlier run spent of it still counts."""
    spent = restore_day(client.budget, store.cursors_with(DAY_CURSOR), wall)
    if spent:
        log.info("the key made %d of its %d requests of the day before this start", spent,
                 client.budget.per_day)


def _run(config: Config, max_cycles: int | None) -> int:
    loop = started_loop(config, max_cycles, Stop().catch_signals())
    return loop if isinstance(loop, int) else loop.run()


def started_loop(config: Config, max_cycles: int | None, stop: Stop) -> RunLoop | int:
    """The daemon's loop, its service started (or the exit code when it cannot start); `stop`
    ends the start-up's retries and the loop's last cycle."""
    client = config.forum_client()
    loaded = [(g, load_signups(g)) for g in config.games]  # a file before its seats: sign-ups
    in_signups = [s for _, s in loaded if not s.seated and s.topic_id is not None]
    games = [load_game(g) for g, s in loaded if s.seated or s.topic_id is None]
    # a rehearsal's minutes pass faster than real ones: on the sandbox's clock the budget, the
    # outbox and the loop count the forum's seconds, as its limiter does; on the bot's own
    # rehearsal clock (which the forum does not keep) the forum's limiter answers instead
    forum = ForumClock(client) if config.forum_clock else None
    service = compose(client, config.database_url, games, config.settings,
                      user_key=config.key_kind == "user", budget_set=config.budget_set,
                      forum_seconds=forum.seconds if forum is not None else None,
                      unmetered=config.rehearsal_start is not None, forum_gaps=forum is not None)
    store = service.store
    watch = SignupWatch(client, store, in_signups, config.settings.names_minutes * 60)
    for notice in config.notices:
        log.warning("%s", notice)
    if config.key_kind == "user":
        _count_the_keys_day(client, store, service.wall())
    failed = _start(service, config, stop)
    if failed is not None:
        return failed
    clock = clock_for(config, client, store, forum)
    _warn_if_behind(clock, store)
    return RunLoop(config, client, store, service, watch, clock, max_cycles, stop)
