"""The conversation guard (app/posting/conversation_guard.py) against the sandbox over HTTP: who is in a
conversation is compared by user id; a Storyteller's answer in the conversation they wrote
from is guarded like every private post."""

import pytest

from modbot.adapters.forum import ForumClient
from modbot.adapters.outbox import Outbox
from modbot.adapters.outgoing import Batch, Outgoing
from modbot.adapters.store import Store
from modbot.app.posting.conversation_guard import ConversationGuard

from ..sandbox_fixtures import KEY, Client, populated


@pytest.fixture()
def forum(tmp_path):
    server, client, _ = populated()
    store = Store(f"sqlite:///{tmp_path}/guard.sqlite")
    yield server, client, store
    store.close()
    server.stop()


def _conversation(client: Client, author: str, to: str) -> int:
    return client.post(author, "A private word for the bot, please.", title=f"{author} and co",
                       archetype="private_message", target_recipients=to)["topic_id"]


def _guarded(server, store, expected, intruders: list):
    bot = server.forum.user("modbot")
    guard = ConversationGuard(ForumClient(server.url, "modbot", KEY), "modbot", staff=False,
                              on_intruder=lambda row, topic, names: intruders.append(names),
                              bot_id=bot.id, expected_ids=expected)
    return Outbox(ForumClient(server.url, "modbot", KEY), store, guard=guard.allows,
                  bot_id=bot.id)


def test_an_answer_where_someone_was_invited_goes_to_a_new_conversation(forum):
    server, client, store = forum
    topic = _conversation(client, "Alex", "modbot")  # Alex, a Storyteller here, asks
    client.ok("POST", f"/t/{topic}/invite.json", "Alex", data={"user": "Cameron"})
    alex = server.forum.user("Alex").id
    intruders: list = []
    outbox = _guarded(server, store, lambda row: {alex}, intruders)
    store.commit(Batch(outbox=[Outgoing("g1:st:pm:1", f"g1:pmtopic:{topic}", "The grimoire: all.",
                                        topic_id=topic, recipients=("Alex",),
                                        title="notes for the Storytellers")]))
    assert outbox.drain() == 1
    assert all("The grimoire" not in p.raw for p in server.forum.topics[topic].posts)
    assert intruders == [["Cameron"]]
    (fresh,) = [t for t in server.forum.topics.values()
                if t.is_pm and any("The grimoire" in p.raw for p in t.posts)]
    assert sorted(fresh.allowed) == ["Alex", "modbot"]


def test_a_renamed_member_is_no_intruder_and_a_stranger_with_their_old_name_is_one(forum):
    server, client, store = forum
    topic = _conversation(client, "Brianna", "modbot")
    brianna = server.forum.user("Brianna").id
    client.ok("PUT", "/u/Brianna/preferences/username", "Brianna",
              data={"new_username": "Bri"})
    intruders: list = []
    outbox = _guarded(server, store, lambda row: {brianna}, intruders)
    store.commit(Batch(outbox=[Outgoing("g1:answer:1", "g1:pm:brianna", "Yes, it is.",
                                        topic_id=topic, recipients=("Brianna",))]))
    assert outbox.drain() == 1
    assert intruders == []  # by id: Bri is Brianna, the row's recipient
    assert any("Yes, it is." in p.raw for p in server.forum.topics[topic].posts)
    server.forum.add_user("Brianna")  # a newcomer takes the freed name ...
    client.ok("POST", f"/t/{topic}/invite.json", "Bri", data={"user": "Brianna"})
    store.commit(Batch(outbox=[Outgoing("g1:answer:2", "g1:pm:brianna", "No, it is not.",
                                        topic_id=topic, recipients=("Brianna",),
                                        title="Brianna's grimoire")]))
    outbox.recipients_now = lambda row: "Bri"  # the service asks the name by id (outbox_hooks)
    assert outbox.drain() == 1
    assert intruders == [["Brianna"]]  # ... and is no member, whatever the name
    assert all("No, it is not." not in p.raw for p in server.forum.topics[topic].posts)
    (fresh,) = [t for t in server.forum.topics.values()
                if t.is_pm and any("No, it is not." in p.raw for p in t.posts)]
    assert sorted(fresh.allowed) == ["Bri", "modbot"]
