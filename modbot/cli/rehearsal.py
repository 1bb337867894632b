"""A scripted game on the local sandbox: forum, players and bot on one machine.

`Rehearsal` starts a sandbox server on 127.0.0.1 under Discourse's default limits (counted on
the scripted clock), creates the accounts (the bot as a moderator, the Storytellers, the
players, each of them but the bot with a single-user key of their own, so the shared admin
budget is the bot's alone), opens the game topic and posts each scripted post as its author
with the script's `created_at` (API callers may set it, as on Discourse). The
bot's clock is the game's clock: between posts it runs one poll cycle at the post's time, so
a whole day is played in seconds. `modbot demo` and the end-to-end tests use it. With
`local=True` the sandbox runs in memory (sandbox/local.py: the same code answers, no HTTP and
no socket), so the service's logic is tested in the fast loop; `local_and_http` runs a test
on both back-ends. With `pushed=True` the bot runs as on a forum without an admin: on its own
User API key (within the key's limits, on the forum's clock) and woken by the forum's MessageBus
(app/reading/bus_watch.py): each scripted post is read by the cycle its bus message wakes, which reads
only what the message named (a post the bus does not announce fails the play), and a moment
with no post (a deadline) by a full cycle, the daemon's sweep.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import threading
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import requests

from ..adapters.budget import Priority
from ..adapters.forum import ForumClient
from ..adapters.store import Store
from ..app.reading.bus_watch import BusWatch
from ..app.running.compose import compose
from ..app.running.service import Service
from ..app.running.settings import Settings
from ..bundled import folder
from ..core import GameSetup
from ..files.gamefile import load_game
from ..sandbox.forum import Forum
from ..sandbox.local import LocalSandbox
from ..sandbox.models import ManualClock
from ..sandbox.server import SandboxServer
from .rehearsal_accounts import bot_key_client, bound, game_accounts

DEMO_GAME = folder("config") / "demo-game.toml"
DEMO_THREAD = folder("data") / "demo-thread.json"
DEMO_PRIVATE = folder("data") / "demo-private.json"
MASTER_KEY = "sandbox-master-key"
BUS_SECONDS = 10.0  # how long a pushed play waits for the bus to announce a post


def load_script(path: Path = DEMO_THREAD) -> list[dict[str, Any]]:
    """The scripted posts: username, created_at, raw (post 1 is the game's opening post)."""
    posts = json.loads(path.read_text(encoding="utf-8"))["post_stream"]["posts"]
    return [{"username": p["username"], "created_at": p["created_at"], "raw": p["raw"]}
            for p in posts]


def load_private_script(path: Path = DEMO_PRIVATE) -> list[dict[str, Any]]:
    """Scripted private messages: username, created_at, raw and `to`: "grimoire" (the
    player's conversation with the bot and the Storytellers), "storytellers" (theirs with
    the bot) or a list of usernames (a new conversation with them, reused afterwards).
    An item with `"tick": true` only runs a poll cycle at its time."""
    messages: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["messages"]
    return messages


def fixed_salt(store: Store, setup: GameSetup) -> None:
    """A rehearsal's seal salt is fixed (the game's name, hashed): the same scripted game
    leaves the same posts, in memory or over HTTP, on every run. A real game's is random
    (app/starting/seal_salt.py); a rehearsal keeps no secret."""
    if setup.topic_id is None:
        return
    row = store.game(str(setup.topic_id), setup.name)
    if not row.seal_salt:
        row.seal_salt = hashlib.sha256(f"rehearsal:{setup.name}".encode()).hexdigest()
        row.save()

class Rehearsal:
    def __init__(self, setup: GameSetup, database_url: str, *, port: int = 0,
                 server: SandboxServer | LocalSandbox | None = None,
                 settings: Settings | None = None,
                 timeout: float = 5, local: bool = False, pushed: bool = False) -> None:
        """`local`: the sandbox in memory (local.py: the same behaviours, no HTTP);
        `pushed`: the bot on its own User API key, woken by the MessageBus (over HTTP only)."""
        if pushed and local:
            raise ValueError("the MessageBus is long-polled over HTTP: pushed needs local=False")
        self.timeout = timeout
        self.pushed = pushed
        self.bus: BusWatch | None = None
        self.woken = threading.Event()
        self.clock = ManualClock(setup.first_night_starts - timedelta(hours=1))
        # Discourse's default limits, counted on the forum's (scripted) clock
        if server is None and local:
            server = LocalSandbox(api_key=MASTER_KEY, forum=Forum(self.clock))
        self.server = server or SandboxServer(port, api_key=MASTER_KEY,
                                              forum=Forum(self.clock)).start()
        self.http = self.server.session() if isinstance(self.server, LocalSandbox) \
            else requests.Session()
        self.keys: dict[str, str] = {}  # each account's own key: the admin budget is the bot's
        self.url = self.server.url
        self.setup = setup
        self.database_url = database_url
        self.settings = settings or Settings(bot_username=setup.bot_username,
                                             vote_count_minutes=240, settle_seconds=0)
        self.service: Service | None = None
        self.store: Store | None = None

    # -- the forum side ---------------------------------------------------------------------

    def request(self, method: str, path: str, as_user: str = "system", **data: Any) -> dict[str, Any]:
        """As `as_user`, with that account's own single-user key when it has one (players and
        Storytellers, as on a real forum), else the master key (the set-up, as an admin)."""
        key = self.keys.get(as_user.lower(), self.server.api_key)
        response = self.http.request(method, self.url + path, data=data, timeout=10,
                                     headers={"Api-Key": key, "Api-Username": as_user})
        if response.status_code >= 400:
            raise requests.HTTPError(f"{response.status_code} {method} {path}: "
                                     f"{response.text[:300]}", response=response)
        answer: dict[str, Any] = response.json() if response.content.strip() else {}
        return answer

    def create_accounts(self) -> None:
        keys = game_accounts(self.server.forum, self.setup)
        self.keys.update({name.lower(): key for name, key in keys.items()})
        self.setup = bound(self.server.forum, self.setup)

    def open_topic(self, first_post: dict[str, Any]) -> int:
        host = self.setup.storytellers[0] if self.setup.storytellers else "system"
        post = self.request("POST", "/posts.json", as_user=host, category=1,
                            title=f"{self.setup.name}: the game thread",
                            raw=first_post["raw"], created_at=first_post["created_at"])
        self.setup = dataclasses.replace(self.setup, topic_id=post["topic_id"])
        return int(post["topic_id"])

    def post(self, username: str, raw: str, created_at: str) -> dict[str, Any]:
        return self.request("POST", "/posts.json", as_user=username, raw=raw,
                            topic_id=self.setup.topic_id, created_at=created_at)

    def post_pm(self, username: str, to: str | list[str], raw: str, created_at: str) -> dict[str, Any]:
        """Write in the PM conversation `to` names (see load_private_script)."""
        people = self._conversation(username, to)
        topic_id = self.pm_topic(people)
        if topic_id is not None:
            return self.request("POST", "/posts.json", as_user=username, raw=raw,
                                topic_id=topic_id, created_at=created_at)
        named = [self.setup.bot_username, *self.setup.storytellers] \
            if to in ("grimoire", "storytellers") else list(to)  # a word, or names
        others = [n for n in dict.fromkeys(named) if n.lower() != username.lower()]
        return self.request("POST", "/posts.json", as_user=username, raw=raw,
                            archetype="private_message", target_recipients=",".join(others),
                            title=f"{username} to {', '.join(others)}", created_at=created_at)

    def _conversation(self, username: str, to: str | list[str]) -> set[str]:
        staff = {self.setup.bot_username, *self.setup.storytellers}
        if to in ("grimoire", "storytellers"):
            people = staff | ({username} if to == "grimoire" else set())
        else:
            people = {username, *to}
        return {p.lower() for p in people | {username}}

    def pm_topic(self, people: set[str]) -> int | None:
        """The PM topic whose participants are exactly `people` (lower-case usernames)."""
        for topic in self.server.forum.topics.values():
            if topic.is_pm and {u.lower() for u in topic.allowed} == people:
                return topic.id
        return None

    # -- the bot side -----------------------------------------------------------------------

    def start_bot(self) -> Service:
        if isinstance(self.server, LocalSandbox):
            client = self.server.client(self.setup.bot_username, timeout=self.timeout)
        elif self.pushed:
            assert isinstance(self.server, SandboxServer)
            client = bot_key_client(self.server, self.setup.bot_username,
                                    f"rehearsal-{self.setup.topic_id}", timeout=self.timeout)
        else:
            client = ForumClient(self.url, self.setup.bot_username, self.server.api_key,
                                 timeout=self.timeout)
        # the request budget counts the forum's minutes, as the sandbox's limiter does: a
        # scripted game's forum minute passes in no time; pushed, the bot is on its own key
        self.store = Store(self.database_url)
        fixed_salt(self.store, self.setup)
        self.service = compose(client, self.store, [self.setup], self.settings,
                               user_key=self.pushed,
                               forum_seconds=lambda: self.clock.now().timestamp())
        self.service.start()
        if self.pushed:
            self.bus = self._watch_bus(client)
        return self.service

    def _watch_bus(self, client: ForumClient) -> BusWatch:
        """The bus watched for the game thread and the bot's new PMs, once it has told where
        each channel stands (a post made before that would be announced to nobody)."""
        service = self.bot
        channels = [f"/topic/{self.setup.topic_id}", f"/notification-alert/{service.bot_id}"]
        bus = watch_bus(client, lambda: channels, self.woken, lambda: service.bot_id)
        for _ in range(int(BUS_SECONDS * 20)):
            if all(bus.last.get(c, -1) >= 0 for c in channels):
                return bus
            threading.Event().wait(0.05)
        raise RuntimeError(f"the MessageBus did not answer in {BUS_SECONDS:g} s")

    def _pushed_cycle(self, at: datetime, what: str) -> None:
        """The cycle the bus's message about the post just made wakes: it reads only what
        the message named."""
        assert self.bus is not None
        if not self.woken.wait(BUS_SECONDS):
            raise RuntimeError(f"the MessageBus announced nothing after {what}")
        self.woken.clear()
        wake = self.bus.take_wake()
        if wake is None:
            raise RuntimeError(f"the MessageBus named nothing a cycle can read after {what}")
        if self.bot.cycle(at, wake).deferred:  # the key's minute is spent: reads put off
            self._full_cycle(self._budget_room())  # are read once it has room, as the daemon

    def _budget_room(self) -> datetime:
        """Forum time when the bot's budget has room again (the scripted clock is moved on
        to it: the bot waits for its minute, as on a real forum)."""
        wait = self.bot.client.budget.wait_for(Priority.BACKGROUND)
        self.clock.set(self.clock.now() + timedelta(seconds=wait))
        return self.clock.now()

    def posted_unread(self, script: list[dict[str, Any]], first: Any) -> datetime:
        """From the first night: the script played up to the first item `first` accepts,
        that item posted and not read yet; its time (the next cycle reads it alone)."""
        self.start_bot()
        self.clock.set(self.setup.first_night_starts)
        self.bot.cycle(self.setup.first_night_starts)
        cut = next(i for i, item in enumerate(script) if first(item))
        self.play(script[:cut])
        return self._post_item(script[cut])

    def _post_item(self, item: dict[str, Any]) -> datetime:
        at = datetime.fromisoformat(item["created_at"])
        self.clock.set(at)
        if "to" in item:
            self.post_pm(item["username"], item["to"], item["raw"], item["created_at"])
        else:
            self.post(item["username"], item["raw"], item["created_at"])
        return at

    def play(self, script: list[dict[str, Any]], *, finish_at: datetime | None = None) -> None:
        """Post each scripted post, running one bot cycle at each post's time."""
        for item in script:
            if item.get("tick"):
                at = datetime.fromisoformat(item["created_at"])
                self.clock.set(at)
                self._full_cycle(at)  # only a poll cycle at that moment
                continue
            at = self._post_item(item)
            if self.pushed:
                self._pushed_cycle(at, f"{item['username']}'s post at {item['created_at']}")
            else:
                self.bot.cycle(at)
        if finish_at is not None:
            self.clock.set(finish_at)
            self._full_cycle(finish_at)
        for _ in range(50):  # deliver everything still owed
            if not self.bot.store.pending():
                break
            if self.pushed:  # on the key's 20 a minute a deal takes minutes of forum time
                self._budget_room()
            self.bot.drain()

    def _full_cycle(self, at: datetime) -> None:
        if self.bus is not None:
            self.woken.clear()
            self.bus.take_wake()  # a full cycle reads all of it
        self.bot.cycle(at)

    @property
    def bot(self) -> Service:
        """The bot, once `start_bot` started it."""
        if self.service is None:
            raise RuntimeError("the bot is not started: call start_bot() first")
        return self.service

    def thread(self) -> list[dict[str, Any]]:
        topic = self.server.forum.topics[self.setup.topic_id or 0]  # a rehearsal's game has one
        forum = self.server.forum
        return [{"post_number": p.post_number, "username": p.username, "raw": p.raw,
                 "created_at": p.created_at, "id": p.id, "version": p.version,
                 "user_id": user.id if (user := forum.user(p.username)) else None}
                for p in topic.visible_posts()]

    def stop(self) -> None:
        if self.bus is not None:
            self.bus.stop()
        if self.store is not None:
            self.store.close()
        self.http.close()
        self.server.stop()


def watch_bus(client: ForumClient, channels: Callable[[], list[str]], wake: threading.Event,
              own: Callable[[], int | None]) -> BusWatch:
    """The MessageBus watched on the bot's key (its own session: one is not shared between
    threads), its polls charged to the bot's budget, the bot's own posts waking nobody."""
    return BusWatch(lambda: ForumClient(client.host, client.api_username, client.api_key,
                                        user_api_client_id=client.user_api_client_id),
                    channels, wake, budget=client.budget, own=own).start()


def demo_rehearsal(database_url: str, *, private: bool = True,
                   **kwargs: Any) -> tuple[Rehearsal, list[dict[str, Any]]]:
    """The demo game and its script: thread posts and private messages in time order
    (`private=False`: the thread only, and a game without its script, so nights end at
    their deadline as on a forum where the bot reads only the thread)."""
    setup = load_game(DEMO_GAME)
    script = load_script()
    items = script[1:]
    if private:
        items = sorted(items + load_private_script(), key=lambda i: i["created_at"])
    else:
        setup = dataclasses.replace(setup, script=None)
    rehearsal = Rehearsal(setup, database_url, **kwargs)
    rehearsal.create_accounts()
    rehearsal.open_topic(script[0])
    return rehearsal, items


def play_demo(rehearsal: Rehearsal, script: list[dict[str, Any]]) -> None:
    """Start the bot as night 1 begins and play the demo's script, an hour past its last
    item or the end of day 1, whichever is later."""
    rehearsal.start_bot()
    rehearsal.clock.set(rehearsal.setup.first_night_starts)
    rehearsal.bot.cycle(rehearsal.setup.first_night_starts)
    last = datetime.fromisoformat(script[-1]["created_at"])
    rehearsal.play(script, finish_at=max(last, day_end(rehearsal.setup)) + timedelta(hours=1))


def day_end(setup: GameSetup, day: int = 1) -> datetime:
    lengths = setup.lengths
    cycle = timedelta(hours=lengths.night + lengths.discussion + lengths.nomination
                      + lengths.voting)
    return setup.first_night_starts + cycle * day
