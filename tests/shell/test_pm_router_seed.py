"""A conversation the bot opened needs no read to be routed (app/posting/outbox_hooks.py `opened`):
the PM router knows who is in it, the bot and the recipients by the ids they are bound to;
a recipient not bound to an id leaves it to the router's read."""

from __future__ import annotations

from types import SimpleNamespace

from modbot.app.posting.outbox_hooks import OutboxHooks
from modbot.app.reading.pm_routing import PmRouter


class NoReads:
    def topic_by_id(self, topic_id: int):
        raise AssertionError(f"conversation {topic_id} was read")


def _hooks(bound: dict[str, int]) -> tuple[OutboxHooks, PmRouter]:
    game = SimpleNamespace(options=SimpleNamespace(key="g1"), topic_id=7)
    identities = SimpleNamespace(holder=lambda g, name: bound.get(name.lower()))
    router = PmRouter(NoReads(), "modbot")  # type: ignore[arg-type]
    router.bot_id = 1
    hooks = OutboxHooks({7: game}, identities, None, "modbot")  # type: ignore[dict-item,arg-type]
    hooks.attach(lambda outgoing: None, router)
    hooks.connected(None, 1)  # type: ignore[arg-type]
    return hooks, router


def test_the_router_knows_who_is_in_a_conversation_the_bot_opened():
    hooks, router = _hooks({"alex": 5, "host": 2})
    hooks.opened(SimpleNamespace(key="g1:role:Alex", recipients="Alex,host"), 42)
    assert router.people(42) == {1: "modbot", 5: "alex", 2: "host"}
    assert router.bot_is_in(42)


def test_a_recipient_not_bound_to_an_id_leaves_the_conversation_to_be_read():
    hooks, router = _hooks({"host": 2})
    hooks.opened(SimpleNamespace(key="g1:role:Alex", recipients="Alex,host"), 42)
    assert 42 not in router.topics
