"""Theory of operation: a sign-up thread on the forum, kept as one list post of the bot's.

`modbot signups open` posts the sign-up thread (or takes the one the host opened:
`signup_topic_id`) and the bot's list post, through the outbox under the key `s{topic}:list`.
While `modbot run` runs, `SignupWatch` reads each sign-up thread's new posts every cycle (one
request a thread), folds them all again (core/signups.py: a sign-up thread is short), and when
the list changed edits the list post in place (an outbox edit whose key is the list's digest,
so the same list is never sent twice). Players are answered in that list: who joined, who
waits as a backup because the game is full, what came after the closing time. `game new
--from-signups` (seats_from_signups) turns the list into the game file's seats, each with its
forum `user_id`, in sign-up order or a seeded shuffle the file records.
"""

from __future__ import annotations

import hashlib
import logging
import random

from ..adapters.forum import ForumClient, ForumError, NotFound
from ..adapters.outgoing import Batch, Outgoing
from ..adapters.port import ForumPost, forum_time
from ..adapters.store import Store
from ..core import Post, SignupRules, Signups, fold_signups
from ..files.signupfile import SignupSetup
from .render import render
from .thread_reads import read_thread
from .views import date_tag

log = logging.getLogger("modbot.app.signups")
NOTED = ("full_backup", "closed", "not_signed")  # changes the list tells the poster about


def rules_of(setup: SignupSetup) -> SignupRules:
    return SignupRules(setup.players_max, setup.closes_at, setup.staff)


def list_key(topic_id: int) -> str:
    return f"s{topic_id}:list"


def folded(setup: SignupSetup, posts: list[ForumPost]) -> Signups:
    return fold_signups(rules_of(setup), [
        Post(p.post_number, p.username, forum_time(p.created_at), p.raw)
        for p in posts if p.post_type == 1])


def list_text(setup: SignupSetup, signups: Signups, last: int, now_closed: bool) -> str:
    notes = [{"code": c.code, "player": c.player, "post": c.post_number}
             for c in signups.changes if c.code in NOTED][-8:]
    return render("signup_list.md.j2", players=signups.players, backups=signups.backups,
                  players_max=setup.players_max, notes=notes, closed=now_closed,
                  closes=date_tag(setup.closes_at) if setup.closes_at else None, last=last)


def first_list(setup: SignupSetup, topic_id: int) -> Outgoing:
    """The list post as sign-ups open (edited in place from then on)."""
    return Outgoing(list_key(topic_id), f"s{topic_id}:topic",
                    list_text(setup, Signups(), 1, False), topic_id=topic_id)


def list_edit(setup: SignupSetup, topic_id: int, signups: Signups, last: int,
              now_closed: bool) -> Outgoing:
    text = list_text(setup, signups, last, now_closed)
    digest = hashlib.sha1(text.encode("utf-8")).hexdigest()[:12]
    return Outgoing(f"{list_key(topic_id)}:{digest}", f"s{topic_id}:topic", text,
                    topic_id=topic_id, kind="edit", edit_of=list_key(topic_id))


def open_thread(client: ForumClient, store: Store, setup: SignupSetup, category: int | None,
                opening: str) -> int:
    """Post the sign-up thread (unless the host opened one) and the list post; the topic id."""
    topic_id = setup.topic_id
    if topic_id is None:
        post = client.create_post(opening, category_id=category,
                                  title=f"{setup.name}: sign-ups")
        topic_id = int(post["topic_id"])
    store.commit(Batch(outbox=[first_list(setup, topic_id)]))
    return topic_id


class SignupWatch:
    """The sign-up threads `modbot run` keeps up to date, one request a thread a cycle."""

    def __init__(self, client: ForumClient, store: Store, setups: list[SignupSetup]) -> None:
        self.client, self.store = client, store
        self.setups = [s for s in setups if s.topic_id is not None]
        self.posts: dict[int, list[ForumPost]] = {}

    def cycle(self, now) -> int:
        """Read what is new; commit the list edits owed. How many lists changed."""
        changed = 0
        for setup in self.setups:
            topic = setup.topic_id
            assert topic is not None
            try:
                known = self.posts.setdefault(topic, [])
                new = read_thread(self.client, topic, after=known[-1].post_number if known else 0)
            except ForumError as exc:
                log.warning("sign-ups of %s: cannot read topic %s (%s)", setup.name, topic, exc)
                continue
            if not new and known:
                continue
            known.extend(new)
            closed = setup.closes_at is not None and now >= setup.closes_at
            edit = list_edit(setup, topic, folded(setup, known), known[-1].post_number, closed)
            self.store.commit(Batch(outbox=[edit]))
            changed += 1
        return changed


def seats_from_signups(client: ForumClient, signups: Signups, shuffle: int | None
                       ) -> tuple[list[tuple[str, int]], str]:
    """The seats (player, forum user id) and how they were ordered; NotFound names a player
    who is no forum user (any more)."""
    players = list(signups.players)
    order = "in sign-up order"
    if shuffle is not None:
        random.Random(shuffle).shuffle(players)
        order = f"shuffled with seed {shuffle} (Python's random.Random({shuffle}).shuffle)"
    seats = []
    for player in players:
        try:
            account = client.account(player)
        except NotFound:
            raise NotFound(f"{player} signed up but is not a forum user (renamed or deleted?): "
                           "fix the sign-up thread, or write the seats by hand") from None
        seats.append((account.username, account.id))
    return seats, order
