"""Theory of operation: the sandbox's MessageBus, as Discourse serves it to its own clients.

Discourse publishes what changes on channels (github:discourse/message_bus, with Discourse's
config/initializers/004-message_bus.rb): `/topic/{id}` for every post created, revised or
deleted in a topic (a PM topic's messages only to its participants), and
`/notification-alert/{user_id}` when a user gets a new PM. Each channel keeps a backlog of its
last `BACKLOG` messages, numbered from 1. A client polls `POST /message-bus/{client_id}/poll`
with `{channel: last_id, ...}`: the messages after each last id come back at once; with none,
the poll is held up to `hold` seconds (`long_polling_interval`, 25 s) and answered as soon as
something is published (or empty when the hold ends); `dlp=t` never holds. The hold is in
the forum's seconds: on a rehearsal clock at 60x, 25 forum seconds pass in under half a real
second, as a poll held by Discourse on that forum's day would (a clock standing still between
a script's moves holds real seconds). A channel asked
from `-1` answers with `/__status`, each channel's current last id; so does a channel asked from
an id ahead of the bus's (`reset`: Redis flushed, or a channel quiet past
`max_backlog_age`, numbers from 1 again: message_bus' lib/message_bus/client.rb `backlog`,
"Client ahead of the bus", subscribes it from -1). The poll authenticates like
any request (the caller checks it, and for a User API key its `message_bus` scope, charged to
the key's limits as every request is: the initializer's `CurrentUser.lookup_from_env`).
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable

BACKLOG = 100  # message_bus's max_backlog_size for a channel, as Discourse runs it
HOLD_SECONDS = 25.0  # long_polling_interval


class Bus:
    def __init__(self, hold: float = HOLD_SECONDS,
                 speed: Callable[[], float] = lambda: 1.0) -> None:
        self.hold = hold  # in the forum's seconds
        self.speed = speed  # the forum clock's: forum seconds a real one
        self.enabled = True  # a forum with the bus off answers 404 (the client falls back)
        self.cond = threading.Condition()
        self.channels: dict[str, deque] = {}
        self.last: dict[str, int] = {}
        self.polls = 0
        self.asked: deque[dict[str, int]] = deque(maxlen=1000)  # the polls' subscriptions: tests

    def publish(self, channel: str, data: dict, user_ids: tuple[int, ...] | None = None) -> int:
        with self.cond:
            number = self.last.get(channel, 0) + 1
            self.last[channel] = number
            self.channels.setdefault(channel, deque(maxlen=BACKLOG)).append(
                (number, data, user_ids))
            self.cond.notify_all()
            return number

    def reset(self) -> None:
        """The bus's store is flushed: every channel's backlog and last id are gone."""
        with self.cond:
            self.channels.clear()
            self.last.clear()

    def poll(self, user_id: int | None, subscriptions: dict[str, int], *,
             wait: bool = True) -> list[dict]:
        self.polls += 1
        self.asked.append(dict(subscriptions))
        speed = self.speed()
        deadline = time.monotonic() + (self.hold / (speed if speed > 0 else 1.0) if wait else 0)
        with self.cond:
            while True:
                found = self._waiting(user_id, subscriptions)
                left = deadline - time.monotonic()
                if found or left <= 0:
                    return found
                self.cond.wait(left)

    def _waiting(self, user_id: int | None, subscriptions: dict[str, int]) -> list[dict]:
        out: list[dict] = []
        status = {c: self.last.get(c, 0) for c, last in subscriptions.items()
                  if last < 0 or last > self.last.get(c, 0)}  # new, or ahead of the bus
        if status:
            out.append({"channel": "/__status", "message_id": 0, "data": status})
        for channel, last in subscriptions.items():
            for number, data, user_ids in self.channels.get(channel, ()):
                if number > last >= 0 and (user_ids is None or user_id in user_ids):
                    out.append({"channel": channel, "message_id": number, "data": data})
        return out


def published(bus: Bus, forum, kind: str, topic, post) -> None:
    """A post created, revised or deleted: on its topic's channel (a PM's to its
    participants), and a new PM on each other participant's notification channel."""
    user_ids = tuple(u.id for n in topic.allowed if (u := forum.user(n)) is not None) \
        if topic.is_pm else None
    author = forum.user(post.username)
    bus.publish(f"/topic/{topic.id}", {"id": post.id, "post_number": post.post_number,
                                       "type": kind, "user_id": author.id if author else None},
                user_ids)
    if topic.is_pm and kind == "created":
        for uid in user_ids or ():
            if author is None or uid != author.id:
                bus.publish(f"/notification-alert/{uid}",
                            {"notification_type": 6, "topic_id": topic.id,
                             "post_number": post.post_number}, (uid,))
