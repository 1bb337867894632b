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
on both back-ends.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from datetime import datetime, timedelta
from pathlib import Path

import requests

from .adapters.forum import ForumClient
from .adapters.store import Store
from .app.service import Service, Settings
from .bundled import folder
from .core import GameSetup
from .files.gamefile import load_game
from .sandbox.forum import Forum
from .sandbox.local import LocalSandbox
from .sandbox.models import ManualClock
from .sandbox.server import SandboxServer

DEMO_GAME = folder("config") / "demo-game.toml"
DEMO_THREAD = folder("data") / "demo-thread.json"
DEMO_PRIVATE = folder("data") / "demo-private.json"
MASTER_KEY = "sandbox-master-key"


def load_script(path: Path = DEMO_THREAD) -> list[dict]:
    """The scripted posts: username, created_at, raw (post 1 is the game's opening post)."""
    posts = json.loads(path.read_text(encoding="utf-8"))["post_stream"]["posts"]
    return [{"username": p["username"], "created_at": p["created_at"], "raw": p["raw"]}
            for p in posts]


def load_private_script(path: Path = DEMO_PRIVATE) -> list[dict]:
    """Scripted private messages: username, created_at, raw and `to`: "grimoire" (the
    player's conversation with the bot and the Storytellers), "storytellers" (theirs with
    the bot) or a list of usernames (a new conversation with them, reused afterwards).
    An item with `"tick": true` only runs a poll cycle at its time."""
    return json.loads(path.read_text(encoding="utf-8"))["messages"]


def game_accounts(forum: Forum, setup: GameSetup) -> dict[str, str]:
    """Every account the game names: the bot and the Storytellers as moderators, the players;
    each but the bot with a single-user API key of its own (returned by name), as on a real
    forum, so the shared admin budget is the bot's alone."""
    staff = [setup.bot_username, *setup.storytellers]
    for name in staff:
        forum.add_user(name, moderator=True, trust_level=4)
    for seat in setup.seats:
        if forum.user(seat.name) is None:
            forum.add_user(seat.name)
    return {name: forum.new_user_key(name) for name in [*staff, *(s.name for s in setup.seats)]
            if name != setup.bot_username}



def fixed_salt(store: Store, setup: GameSetup) -> None:
    """A rehearsal's seal salt is fixed (the game's name, hashed): the same scripted game
    leaves the same posts, in memory or over HTTP, on every run. A real game's is random
    (app/seal_salt.py); a rehearsal keeps no secret."""
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
                 timeout: float = 5, local: bool = False) -> None:
        """`local`: the sandbox in memory (local.py: the same behaviours, no HTTP)."""
        self.timeout = timeout
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

    def request(self, method: str, path: str, as_user: str = "system", **data) -> dict:
        """As `as_user`, with that account's own single-user key when it has one (players and
        Storytellers, as on a real forum), else the master key (the set-up, as an admin)."""
        key = self.keys.get(as_user.lower(), self.server.api_key)
        response = self.http.request(method, self.url + path, data=data, timeout=10,
                                     headers={"Api-Key": key, "Api-Username": as_user})
        if response.status_code >= 400:
            raise requests.HTTPError(f"{response.status_code} {method} {path}: "
                                     f"{response.text[:300]}", response=response)
        return response.json() if response.content.strip() else {}

    def create_accounts(self) -> None:
        keys = game_accounts(self.server.forum, self.setup)
        self.keys.update({name.lower(): key for name, key in keys.items()})

    def open_topic(self, first_post: dict) -> int:
        host = self.setup.storytellers[0] if self.setup.storytellers else "system"
        post = self.request("POST", "/posts.json", as_user=host, category=1,
                            title=f"{self.setup.name}: the game thread",
                            raw=first_post["raw"], created_at=first_post["created_at"])
        self.setup = dataclasses.replace(self.setup, topic_id=post["topic_id"])
        return post["topic_id"]

    def post(self, username: str, raw: str, created_at: str) -> dict:
        return self.request("POST", "/posts.json", as_user=username, raw=raw,
                            topic_id=self.setup.topic_id, created_at=created_at)

    def post_pm(self, username: str, to, raw: str, created_at: str) -> dict:
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

    def _conversation(self, username: str, to) -> set[str]:
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
        else:
            client = ForumClient(self.url, self.setup.bot_username, self.server.api_key,
                                 timeout=self.timeout)
        # the request budget counts the forum's minutes, as the sandbox's limiter does: a
        # scripted game's forum minute passes in no time
        client.budget.clock = lambda: self.clock.now().timestamp()
        self.store = Store(self.database_url)
        fixed_salt(self.store, self.setup)
        self.service = Service(client, self.store, [self.setup], self.settings)
        self.service.start()
        return self.service

    def play(self, script: list[dict], *, finish_at: datetime | None = None) -> None:
        """Post each scripted post, running one bot cycle at each post's time."""
        for item in script:
            at = datetime.fromisoformat(item["created_at"])
            self.clock.set(at)
            if item.get("tick"):
                pass  # only a poll cycle at that moment
            elif "to" in item:
                self.post_pm(item["username"], item["to"], item["raw"], item["created_at"])
            else:
                self.post(item["username"], item["raw"], item["created_at"])
            self.bot.cycle(at)
        if finish_at is not None:
            self.clock.set(finish_at)
            self.bot.cycle(finish_at)
        for _ in range(50):  # deliver everything still owed
            if not self.bot.store.pending():
                break
            self.bot.drain()

    @property
    def bot(self) -> Service:
        """The bot, once `start_bot` started it."""
        if self.service is None:
            raise RuntimeError("the bot is not started: call start_bot() first")
        return self.service

    def thread(self) -> list[dict]:
        topic = self.server.forum.topics[self.setup.topic_id or 0]  # a rehearsal's game has one
        return [{"post_number": p.post_number, "username": p.username, "raw": p.raw,
                 "created_at": p.created_at} for p in topic.visible_posts()]

    def stop(self) -> None:
        if self.store is not None:
            self.store.close()
        self.http.close()
        self.server.stop()


def demo_rehearsal(database_url: str, *, private: bool = True,
                   **kwargs) -> tuple[Rehearsal, list[dict]]:
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


def play_demo(rehearsal: Rehearsal, script: list[dict]) -> None:
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
