"""A bot that is not staff meets slow mode and the edit rate limiter (adapters/write_limits.py)
on the sandbox, which applies them as Discourse does (sandbox/limits.py): nothing is lost or
sent twice, no refusal holds another thread, and the limit is reported once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from modbot.adapters.forum import ForumClient
from modbot.adapters.outbox import Outbox, marker
from modbot.adapters.outgoing import Batch, Outgoing
from modbot.adapters.store import OutboxRow, Store
from modbot.adapters.write_limits import edits_per_day, planned
from modbot.sandbox.forum import Forum
from modbot.sandbox.models import ManualClock
from modbot.sandbox.server import SandboxServer


class Sandbox:
    """A sandbox on a forum clock the test moves; the bot a regular account (trust level 1)
    whose outbox reads the same clock."""

    def __init__(self, tmp_path, start: datetime) -> None:
        self.clock = ManualClock(start)
        self.server = SandboxServer(0, api_key="master", forum=Forum(self.clock)).start()
        forum = self.server.forum
        self.host = forum.add_user("host", moderator=True)
        self.bot = forum.add_user("modbot", trust_level=1)
        self.alex = forum.add_user("Alex")
        self.store = Store(f"sqlite:///{tmp_path}/bot.sqlite")
        self.client = ForumClient(self.server.url, "modbot", "master")
        # a day of forum time passes here in a second of real time: the bot's request budget
        # (real minutes; tested in test_budget.py) would only hold the drains back
        self.client.budget.per_minute = 0
        self.told: list[tuple[str, str, float]] = []

    def outbox(self, edits_a_day: int | None = None) -> Outbox:
        staff = self.bot.staff  # the service's spacing and merging for the account's kind
        return Outbox(self.client, self.store, bot_id=self.bot.id, merge_replies=not staff,
                      spacing=0.0 if staff else 6.0,
                      wall=lambda: self.clock.now().timestamp(), edits_a_day=edits_a_day,
                      on_limit=lambda row, kind, s: self.told.append((row.key, kind, s)))

    def topic(self, opener, title: str) -> int:
        return self.server.forum.create(opener, {"title": title, "category": 1,
                                                 "raw": "The opening post of the game."},
                                        api=False).topic_id

    def later(self, seconds: float) -> None:
        self.clock.set(self.clock.now() + timedelta(seconds=seconds))

    def posts(self, topic: int) -> list:
        return self.server.forum.topics[topic].posts

    def stop(self) -> None:
        self.store.close()
        self.server.stop()


@pytest.fixture
def sandbox(tmp_path):
    box = Sandbox(tmp_path, datetime.now(UTC).replace(microsecond=0))
    yield box
    box.stop()


def _owe(store: Store, *rows: Outgoing) -> None:
    store.commit(Batch(outbox=list(rows)))


def _post(key: str, thread: str, topic: int, text: str) -> Outgoing:
    return Outgoing(key, thread, text, topic_id=topic)


def test_posts_refused_for_slow_mode_wait_for_the_topic_and_go_out_joined_in_order(sandbox):
    game = sandbox.topic(sandbox.host, "A game thread in slow mode")
    other = sandbox.topic(sandbox.host, "Another game's thread")
    forum = sandbox.server.forum
    forum.create(sandbox.bot, {"topic_id": game, "raw": "The bot's first post in the thread."})
    forum.write_limits.set_slow_mode(sandbox.host, forum.topics[game], 600)
    sandbox.later(10)
    forum.create(sandbox.alex, {"topic_id": game, "raw": "/vote Derek yes, as I said."})
    _owe(sandbox.store, *(_post(f"g1:n{i}", "g1:topic", game, f"## Notice {i}\n\nA notice.")
                          for i in (1, 2, 3)),
         _post("g2:n1", "g2:topic", other, "## Another game's notice\n\nIt goes on."))
    outbox = sandbox.outbox()
    assert outbox.drain() == 1  # the other game's thread is not held
    assert [k for k, *_ in sandbox.told] == ["g1:n1"] and sandbox.told[0][1:] == ("slow_mode",
                                                                                   600.0)
    assert forum.topics[other].posts[-1].username == "modbot"
    assert sum(p.username == "modbot" for p in sandbox.posts(game)) == 1  # none through yet
    sandbox.later(300)
    assert outbox.drain() == 0  # still its turn to wait: not even tried
    sandbox.later(300)
    assert outbox.drain() == 1  # the three, joined in one post, in order
    joined = sandbox.posts(game)[-1]
    assert joined.username == "modbot"
    places = [joined.raw.index(marker(f"g1:n{i}")) for i in (1, 2, 3)]
    assert places == sorted(places)
    rows = {r.key: r for r in OutboxRow.select()}
    assert {rows[f"g1:n{i}"].post_id for i in (1, 2, 3)} == {joined.id}
    assert sandbox.store.outbox_counts() == {"sent": 4}


def test_a_staff_bot_is_not_slowed(sandbox):
    forum = sandbox.server.forum
    game = sandbox.topic(sandbox.host, "A game thread in slow mode")
    forum.write_limits.set_slow_mode(sandbox.host, forum.topics[game], 600)
    sandbox.bot.moderator = True
    _owe(sandbox.store, *(_post(f"g1:n{i}", "g1:topic", game, f"## Notice {i}\n\nA notice.")
                          for i in (1, 2)))
    assert sandbox.outbox().drain() == 2 and not sandbox.told


def _running_count(store: Store, topic: int, version: int) -> None:
    key = "g1:vc:1.1:open" if version == 1 else f"g1:vc:1.{version}:vc"
    _owe(store, Outgoing(key, "g1:topic", f"## Vote count 1.{version}\n\nDerek **{version}**/4",
                         topic_id=topic, kind="post" if version == 1 else "edit",
                         edit_of=None if version == 1 else "g1:vc:1.1:open"))


def test_an_edit_the_forum_refuses_for_the_day_is_posted_and_later_edits_follow_it(tmp_path):
    """The edit rate limiter (30 a day at trust level 1): the 31st edit is posted anew, the
    next ones go out as new posts without asking until the day rolls over, and another
    thread's post is never held; the Storytellers are told once."""
    box = Sandbox(tmp_path, datetime(2026, 12, 3, 1, 0, tzinfo=UTC))
    try:
        topic = box.topic(box.bot, "The bot's own game thread")
        other = box.topic(box.host, "Another game's thread")
        outbox = box.outbox(edits_a_day=None)  # no plan: the forum's own limit is met
        _running_count(box.store, topic, 1)
        outbox.drain()
        for version in range(2, 32):  # 30 edits: the day's
            box.later(301)  # past the grace period: each edit is a new version
            _running_count(box.store, topic, version)
            outbox.drain()

        def counts():
            return [p.raw.splitlines()[0] for p in box.posts(topic) if p.username == "modbot"][1:]
        assert counts() == ["## Vote count 1.31"]
        box.later(301)
        _running_count(box.store, topic, 32)
        _owe(box.store, _post("g2:n1", "g2:topic", other, "## Another game's notice\n\nOn time."))
        assert outbox.drain() == 1  # the count anew
        box.later(6)
        assert outbox.drain() == 1  # and the other thread's post: not held
        assert counts() == ["## Vote count 1.31", "## Vote count 1.32"]
        assert [kind for _, kind, _ in box.told] == ["edit_limit"]
        box.later(301)
        _running_count(box.store, topic, 33)
        outbox.drain()  # the day's edits are spent: a new post, not another refused edit
        assert counts()[1:] == ["## Vote count 1.32", "## Vote count 1.33"]
        assert len(box.told) == 1
        box.clock.set(datetime(2026, 12, 4, 0, 1, tzinfo=UTC))
        _running_count(box.store, topic, 34)
        outbox.drain()  # a new day: the newest count post is edited again
        assert counts()[1:] == ["## Vote count 1.32", "## Vote count 1.34"]
        newest = [p for p in box.posts(topic) if p.username == "modbot"][-1]
        assert OutboxRow.get(OutboxRow.key == "g1:vc:1.1:open").post_id == newest.id
        assert box.store.outbox_counts() == {"sent": 35}
    finally:
        box.stop()


@pytest.mark.slow  # 48 forum hours of counts over HTTP (up to 288 of them): an end-to-end run
@pytest.mark.parametrize(("minutes", "posts_at_most"), [(60, 0), (10, 240)])
def test_the_days_plan_of_edits_never_meets_the_forums_limit(tmp_path, minutes, posts_at_most):
    """With the plan (30 a day at trust level 1), a running count for 48 hours never meets the
    forum's refusal: counted every hour (`vote_count_minutes`' default) every count is an edit
    of the one post; every 10 minutes, past the plan's pace a count goes out as a new post."""
    box = Sandbox(tmp_path, datetime(2026, 12, 3, 0, 5, tzinfo=UTC))
    try:
        topic = box.topic(box.bot, "The bot's own game thread")
        outbox = box.outbox(edits_a_day=edits_per_day(False, 1))
        _running_count(box.store, topic, 1)
        outbox.drain()
        versions = 48 * 60 // minutes
        for version in range(2, 2 + versions):
            box.later(minutes * 60)
            _running_count(box.store, topic, version)
            outbox.drain()
        assert not box.told  # the forum never refused an edit
        counts = [p for p in box.posts(topic) if p.username == "modbot"][1:]
        assert counts[-1].raw.startswith(f"## Vote count 1.{1 + versions}")
        assert len(counts) - 1 <= posts_at_most
        assert box.store.outbox_counts() == {"sent": 1 + versions}
    finally:
        box.stop()


def test_the_plan_grows_through_the_day_from_a_quarter_to_all_but_a_margin():
    assert edits_per_day(True, 1) is None and edits_per_day(False, 0) == 30
    assert (edits_per_day(False, 2), edits_per_day(False, 3), edits_per_day(False, 4)) == \
        (45, 60, 90)
    assert planned(30, 0) == 7 and planned(30, 43200) == 17 and planned(30, 86400) == 28


def test_new_conversations_wait_the_forums_gap_between_new_topics(sandbox):
    """A regular account opens a new topic or conversation at most every 15 s (Discourse's
    rate_limit_create_topic): the outbox waits 15.1 s between them instead of being refused."""
    from modbot.adapters.write_limits import topic_spacing
    forum = sandbox.server.forum
    _owe(sandbox.store, *(Outgoing(f"g1:role:{name}", f"g1:pm:{name}", f"Your character, {name}.",
                                   recipients=(name,), title=f"Your grimoire, {name}")
                          for name in ("Alex", "host")))
    outbox = Outbox(sandbox.client, sandbox.store, bot_id=sandbox.bot.id, spacing=6.0,
                    wall=lambda: sandbox.clock.now().timestamp(),
                    conversation_spacing=topic_spacing(False, 1))
    assert outbox.drain() == 1
    sandbox.later(10)  # past the gap between posts, not the one between new topics
    assert outbox.drain() == 0
    assert OutboxRow.get(OutboxRow.key == "g1:role:host").attempts == 0  # not even tried
    sandbox.later(7)
    assert outbox.drain() == 1
    assert len([t for t in forum.topics.values() if t.is_pm]) == 2
    assert topic_spacing(True, 1) == 0 and topic_spacing(False, 0) > 120


def test_a_deal_goes_at_the_forums_pace_with_replies_in_its_gaps(sandbox):
    """The gap between new conversations is the floor of a deal's pace: once it is over, the
    first conversation due goes before a reply owed earlier (each thread keeps its order); a
    reply goes in the gap, unless the gap ends within the gap between posts (it would push
    the next conversation later); the outbox says when a held row may go (`ready_at`)."""
    from modbot.adapters.write_limits import topic_spacing
    forum = sandbox.server.forum
    topic = sandbox.topic(sandbox.host, "Deal pace: the game thread")
    _owe(sandbox.store, _post("g1:night", "g1:topic", topic, "Night 1 begins: deal pace."),
         _post("g1:seal", "g1:topic", topic, "The seal of the grimoire: deal pace."),
         *(Outgoing(f"g1:role:{name}", f"g1:pm:{name}", f"Your character, {name}.",
                    recipients=(name,), title=f"Your grimoire, {name}")
           for name in ("Alex", "host")))
    outbox = Outbox(sandbox.client, sandbox.store, bot_id=sandbox.bot.id, spacing=6.0,
                    wall=lambda: sandbox.clock.now().timestamp(),
                    conversation_spacing=topic_spacing(False, 1))
    assert outbox.drain() == 1  # Alex's conversation first, though the thread's was owed
    assert [t.title for t in forum.topics.values() if t.is_pm] == ["Your grimoire, Alex"]
    assert outbox.ready_at == sandbox.clock.now().timestamp() + 6.0  # the gap between posts
    sandbox.later(6)
    assert outbox.drain() == 1 and forum.topics[topic].posts[-1].raw.startswith("Night 1")
    sandbox.later(6)  # the next conversation may go in 3.1 s: the seal would push it to 18 s
    assert outbox.drain() == 0
    assert outbox.ready_at == pytest.approx(sandbox.clock.now().timestamp() + 3.1)
    sandbox.later(3.1)
    assert outbox.drain() == 1
    assert [t.title for t in forum.topics.values() if t.is_pm][-1] == "Your grimoire, host"
    sandbox.later(6)
    assert outbox.drain() == 1 and forum.topics[topic].posts[-1].raw.startswith("The seal")


def test_only_slow_modes_refusal_is_read_as_one():
    """A refusal in a slow-mode topic where the bot never posted is not slow mode's (it needs
    the bot's last post there): it stands; a wait is never longer than the topic's seconds."""
    from modbot.adapters.write_limits import _slow_mode_wait
    now = datetime(2026, 12, 3, 12, tzinfo=UTC).timestamp()
    assert _slow_mode_wait({"slow_mode_seconds": 600, "user_last_posted_at": None}, now) is None
    assert _slow_mode_wait({"slow_mode_seconds": 0,
                            "user_last_posted_at": "2026-12-03T11:58:00Z"}, now) is None
    assert _slow_mode_wait({"slow_mode_seconds": 600,
                            "user_last_posted_at": "2026-12-03T11:58:00Z"}, now) == 480
    assert _slow_mode_wait({"slow_mode_seconds": 600,
                            "user_last_posted_at": "2026-12-04T11:58:00Z"}, now) == 600


def test_a_private_reply_goes_when_the_budget_has_room_for_its_guards_read_too(sandbox):
    """A private post into a conversation that exists costs two requests (the guard's read of
    who is in it, then the post): it waits until the minute has room for both, so it is never
    cut between them; and a post the budget cut before it reached the forum (OverBudget) is
    not counted an attempt: no marker search follows."""
    from modbot.adapters.budget import Budget
    from modbot.adapters.forum import OverBudget

    class Clock:
        t = 0.0

        def __call__(self) -> float:
            return self.t

    clock = Clock()
    _owe(sandbox.store, Outgoing("g1:role:Alex", "g1:pm:Alex", "Your character, Alex.",
                                 recipients=("Alex",), title="Your grimoire, Alex"))
    looked = []
    outbox = Outbox(sandbox.client, sandbox.store, bot_id=sandbox.bot.id,
                    wall=lambda: sandbox.clock.now().timestamp(),
                    guard=lambda row, topic: looked.append(topic) or
                    bool(sandbox.client.topic_by_id(topic)))
    assert outbox.drain() == 1  # a new conversation: no guard, one request
    sandbox.client.budget = Budget(2, clock=clock)
    sandbox.client.budget.charge()  # one of the minute's two spent: room for one more
    _owe(sandbox.store, Outgoing("g1:answer:1", "g1:pm:Alex", "You chose Derek.",
                                 recipients=("Alex",)))
    assert outbox.drain() == 0 and looked == []
    assert OutboxRow.get(OutboxRow.key == "g1:answer:1").attempts == 0
    clock.t = 61  # the minute is empty again: room for both
    real = sandbox.client.create_post

    def cut(*args, **kwargs):
        raise OverBudget("POST /posts.json: over the request budget", 30)

    sandbox.client.create_post = cut  # type: ignore[method-assign]
    assert outbox.drain() == 0 and len(looked) == 1
    assert OutboxRow.get(OutboxRow.key == "g1:answer:1").attempts == 0  # never reached it
    sandbox.client.create_post = real  # type: ignore[method-assign]
    clock.t = 122
    assert outbox.drain() == 1
    answer = OutboxRow.get(OutboxRow.key == "g1:answer:1")
    assert answer.status == "sent" and answer.attempts == 1


def test_the_thread_index_waits_for_room_in_the_plan_and_is_never_posted_anew(sandbox, caplog):
    """A revision of the thread index (kind "revise", app/posting/thread_index.py) uses at most half
    the day's plan: past it, it waits (its own thread: nothing else is held, said once in the
    log, not as a fault) and then edits the index in place; it is never posted as a new post."""
    import logging
    caplog.set_level(logging.DEBUG, logger="modbot")
    box = sandbox
    topic = box.topic(box.host, "The host's game thread")
    outbox = box.outbox(edits_a_day=edits_per_day(False, 1))
    _owe(box.store, _post("g1:index", "g1:index", topic, "## Thread index\n\nNight 1."))
    outbox.drain()
    now = box.clock.now()
    day, into = now.date().isoformat(), (now - now.replace(hour=0, minute=0, second=0)).total_seconds()
    box.store.commit(Batch(cursors={f"edits:{day}": -(-planned(30, into + 400) // 2)}))  # counts'
    box.later(301)
    _owe(box.store, Outgoing("g1:index:2", "g1:index", "## Thread index\n\nDay 1.", topic_id=topic,
                             kind="revise", edit_of="g1:index"),
         _post("g1:discussion:1", "g1:topic", topic, "## Day 1 begins\n\nNobody died."))
    box.later(6)
    assert outbox.drain() == 1  # the phase post; the index waits
    mine = [p for p in box.posts(topic) if p.username == "modbot"]
    assert [p.raw.splitlines()[0] for p in mine] == ["## Thread index", "## Day 1 begins"]
    assert "Night 1." in mine[0].raw and box.store.row("g1:index:2").status == "pending"
    OutboxRow.update(not_before=0).where(OutboxRow.key == "g1:index:2").execute()
    box.later(6)
    outbox.drain()  # still no room: waits again
    said = [r.levelname for r in caplog.records if "g1:index:2" in r.getMessage()]
    assert said == ["INFO", "DEBUG"]  # planned: said once, never a warning
    box.store.commit(Batch(cursors={f"edits:{day}": 0}))
    OutboxRow.update(not_before=0).where(OutboxRow.key == "g1:index:2").execute()  # (its wait)
    box.later(6)
    assert outbox.drain() == 1
    mine = [p for p in box.posts(topic) if p.username == "modbot"]
    assert len(mine) == 2 and "Day 1." in mine[0].raw  # edited in place


def test_the_plan_learns_the_forums_count_from_a_refusal_and_a_fourth_reply_goes_once_another_posts(
        tmp_path):
    """Issue 58: the forum counted more of the bot's edits today than the bot did (27 made
    before a restart, or in another game on the same account): the first refused edit makes
    the plan take the forum's count, so a restarted outbox does not try again; and a reply
    that waits for another author's post (a fourth in a row that cannot join the last) goes
    as soon as the bot has read one, not after a fixed wait."""
    box = Sandbox(tmp_path, datetime(2026, 12, 3, 12, 0, tzinfo=UTC))
    try:
        topic = box.topic(box.bot, "The bot's own game thread")
        outbox = box.outbox(edits_a_day=30)
        outbox.replaced_note = lambda row, target, why: f"*Replaces post #{target.post_number}.*"
        _running_count(box.store, topic, 1)
        outbox.drain()
        first = [p for p in box.posts(topic) if p.username == "modbot"][-1]
        key = (box.bot.id, "2026-12-03")
        box.server.forum.write_limits.edits[key] = [box.server.forum.seconds()] * 30  # spent
        box.later(301)
        _running_count(box.store, topic, 2)
        assert outbox.drain() == 1  # refused, so posted anew, saying what it replaces
        anew = [p for p in box.posts(topic) if p.username == "modbot"][-1]
        assert anew.id != first.id and f"Replaces post #{first.post_number}." in anew.raw
        assert box.store.cursor("edits:2026-12-03") == 30  # the forum's count, learnt
        again = box.outbox(edits_a_day=30)  # a restart
        assert not again.edit_allowed()
        _owe(box.store, _post("g1:n9", "g1:topic", topic, "## A notice\n\nIt waits its turn."))
        row = box.store.row("g1:n9")
        box.store.defer(row, 3600, "a fourth reply in a row, and the day's edits are spent: "
                                   "waiting for another author's post")
        box.store.another_author_posted("g1:other")  # another topic's post: nothing for it
        assert OutboxRow.get(OutboxRow.key == "g1:n9").not_before > 0
        box.store.another_author_posted("g1:topic")
        assert OutboxRow.get(OutboxRow.key == "g1:n9").not_before == 0
    finally:
        box.stop()
