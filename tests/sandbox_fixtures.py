"""A populated sandbox for the sandbox and contract tests."""

from __future__ import annotations

import requests

from modbot.cli.rehearsal import demo_rehearsal
from modbot.sandbox.forum import Forum
from modbot.sandbox.server import SandboxServer

KEY = "test-master-key"


class Client:
    """Raw HTTP as any user, with the master key (or another key)."""

    def __init__(self, server: SandboxServer) -> None:
        self.server = server
        self.url = server.url

    def call(self, method: str, path: str, user: str | None = "system", key: str | None = KEY,
             **kwargs) -> requests.Response:
        headers = kwargs.pop("headers", {})
        if key is not None:
            headers["Api-Key"] = key
        if user is not None:
            headers["Api-Username"] = user
        return requests.request(method, self.url + path, headers=headers, timeout=10, **kwargs)

    def ok(self, method: str, path: str, user: str = "system", **kwargs):
        response = self.call(method, path, user, **kwargs)
        assert response.status_code == 200, (response.status_code, response.text)
        return response.json() if response.content.strip() else None

    def post(self, user: str, raw: str, **data):
        return self.ok("POST", "/posts.json", user, data={"raw": raw, **data})


def populated(limits: bool = False, admin_api_limit: int = 0):
    """A started server with a bot moderator, three players, a game topic of 25 posts and a PM."""
    server = SandboxServer(0, api_key=KEY, forum=Forum(limits=False),
                           admin_api_limit=admin_api_limit).start()
    client = Client(server)
    for name in ("modbot", "Alex", "Brianna", "Cameron"):
        user = client.ok("POST", "/users.json", data={"username": name, "name": name})
        if name == "modbot":
            client.ok("PUT", f"/admin/users/{user['user_id']}/grant_moderation.json")
    topic = client.post("modbot", "Welcome to the game thread of the test game.",
                        title="Test game: the game thread", category=1)["topic_id"]
    for i in range(24):
        author = ("Alex", "Brianna", "Cameron")[i % 3]
        client.post(author, f"/vote Alex yes, message number {i} of the day",
                    topic_id=topic, reply_to_post_number=1 if i == 0 else None)
    client.post("modbot", "Your character is the Clockmaker, keep it secret.",
                title="Grimoire: Alex", archetype="private_message", target_recipients="Alex")
    server.forum.limits = limits  # the set-up above is not what the tests limit
    return server, client, topic


def game_thread(title: str):
    """A started server (limits on) with the bot as a moderator and a game thread it opened:
    (server, topic id). For the outbox's tests."""
    server = SandboxServer(0, api_key="master", forum=Forum()).start()
    server.forum.add_user("modbot", moderator=True)
    topic = server.forum.create(server.forum.user("modbot"), {
        "title": title, "category": 1, "raw": "The opening post of the game."}, api=False)
    return server, topic.topic_id


def played_demo(folder, items: int, *, private: bool = True, database: str = "bot.sqlite"):
    """The demo game on the sandbox, the bot started as night 1 begins and the script played
    to its item `items` (thread and PMs; `private=False`: the thread only). The script is kept
    as `.script`, to play on."""
    rehearsal, script = demo_rehearsal(f"sqlite:///{folder}/{database}", private=private)
    rehearsal.start_bot()
    rehearsal.clock.set(rehearsal.setup.first_night_starts)
    rehearsal.service.cycle(rehearsal.setup.first_night_starts)
    rehearsal.play(script[:items])
    rehearsal.script = script
    return rehearsal
