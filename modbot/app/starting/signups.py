"""Theory of operation: a sign-up thread on the forum, kept as one list post of the bot's.

`modbot signups open` posts the sign-up thread (or takes the one the host opened:
`signup_topic_id`) and the bot's list post, through the outbox under the key `s{topic}:list`.
While `modbot run` runs, `SignupWatch` reads each sign-up thread's new posts every cycle (one
request a thread), folds them all again (core/signups.py: a sign-up thread is short), and when
the list changed edits the list post in place (an outbox edit whose key is the list's digest,
so the same list is never sent twice). Players are answered in that list: who joined, who
waits as a backup because the game is full, what came after the closing time. `game new
--from-signups` (seats_from_signups) turns the list into the game file's seats and backups,
each with its forum `user_id`, in sign-up order or a seeded shuffle the file records.

A sign-up is its author's user id, never the name on the post (`folded`): a name someone
renamed away from and someone else took signs no one up, and the ids written into the game
file are the posts' own (no look-up by name that another account could win). A post counts as
Discourse keeps it: its first version at its time; an edit that adds a sign-up line counts at
the edit's time (after the close: not at all), so an old chat post edited into `/in` never
jumps the queue. An edit within Discourse's grace period leaves no revision (the post stays
version 1), so what the bot read is evidence too (the store's sightings, kept by every read):
a post first read already carrying `/in` counts from its `created_at`; one the bot read
before without it counts from the `updated_at` of the first read that carries it. The list
shows each signed-up account by its name now, asked by id every `names_seconds`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import random
from collections.abc import Callable
from datetime import datetime

from ...adapters.forum import ForumError, NotFound
from ...adapters.forum_port import ForumPort
from ...adapters.outgoing import Batch, Outgoing
from ...adapters.port import ForumPost, forum_time
from ...adapters.store_port import SignupStore
from ...adapters.store_sightings import Sighting
from ...core import GameSetup, Post, SignupRules, Signups, fold_signups, signup_commands_in
from ...files.gamefile import load_game
from ...files.lines import GameFileError
from ...files.signupfile import SignupSetup, in_signups
from ..posting.render import render
from ..posting.views import date_tag
from ..reading.thread_reads import read_thread

log = logging.getLogger("modbot.app.starting.signups")
NOTED = ("full_backup", "closed", "not_signed")  # changes the list tells the poster about


def _opened_game(path: str) -> GameSetup | None:
    """The game in a sign-up game file once it has its seats and its thread; None before
    (or while the file does not load: `game new` may be writing it, the next look sees)."""
    if not path or in_signups(path) is not None:
        return None
    try:
        game = load_game(path)
    except GameFileError as exc:
        log.debug("sign-ups: %s does not load as a game yet (%s)", path, exc)
        return None
    return game if game.topic_id is not None else None


def rules_of(setup: SignupSetup) -> SignupRules:
    return SignupRules(setup.players_max, setup.closes_at, setup.staff)


def list_key(topic_id: int) -> str:
    return f"s{topic_id}:list"


def author_key(post: ForumPost) -> str:
    """Who signed up: the post's user id (the name only where the forum gives no id)."""
    return f"#{post.user_id}" if post.user_id is not None else post.username


def folded(setup: SignupSetup, posts: list[ForumPost],
           first_version: Callable[[int], str] | None = None,
           seen: dict[int, list[Sighting]] | None = None,
           names: dict[int, str] | None = None) -> Signups:
    """The lists, folded by author id, shown by each author's name now (every post of an
    account shows its current name; `names`: user id -> a name learnt since). `first_version`:
    an edited post's first text (the forum's `GET /posts/ID.json?version=1`); `seen`: the texts
    the bot read of each post before (the store's sightings: evidence where the forum keeps
    none, an edit in its grace period)."""
    staff = {name.casefold() for name in setup.staff}
    shown = {author_key(p): (names or {}).get(p.user_id or 0, p.username) for p in posts}
    staff_keys = tuple(sorted({author_key(p) for p in posts if p.username.casefold() in staff}))
    inputs = [q for p in posts if p.post_type == 1
              for q in _as_kept(p, first_version, (seen or {}).get(p.id, []))]
    signups = fold_signups(dataclasses.replace(rules_of(setup), staff=staff_keys), inputs)
    return _named(signups, shown)


def signup_ids(posts: list[ForumPost]) -> dict[str, int]:
    """Each signed-up name (as the lists show it) -> its forum user id, from the posts."""
    return {p.username: p.user_id for p in posts if p.user_id is not None}


def _as_kept(post: ForumPost, first_version: Callable[[int], str] | None,
             seen: list[Sighting]) -> list[Post]:
    """A post as the forum keeps it and the bot saw it: each sign-up line counts from the
    first text that carries it. The first text counts at the post's time: the forum's first
    version (when the post was edited), else the first the bot read while the post was
    still version 1 (a post first read already carrying `/in` counts from its `created_at`).
    A line the bot did not see before counts from the `updated_at` of the first read that
    carries it: an edit in Discourse's grace period leaves no revision, so what the bot read
    before is the evidence, and after the close it counts not at all."""
    key = author_key(post)
    texts: list[tuple[str, datetime]] = []
    if post.version > 1 and first_version is not None:
        texts.append((first_version(post.id), post.created))
    for sighting in seen:
        at = post.created if not texts and sighting.version <= 1 else \
            forum_time(sighting.updated_at or post.updated_at or post.created_at)
        texts.append((sighting.raw, at))
    texts.append((post.raw, post.created if not texts else post.edited))
    first, at = texts[0]
    kept = [Post(post.post_number, key, at, first)]
    counted = list(signup_commands_in(first))
    for raw, at in texts[1:]:
        added = list(signup_commands_in(raw))
        for command in counted:
            if command in added:
                added.remove(command)
        if added:
            kept.append(Post(post.post_number, key, at, "\n".join(f"/{c}" for c in added)))
            counted.extend(added)
    return kept


def _named(signups: Signups, names: dict[str, str]) -> Signups:
    def name(key: str) -> str:
        return names.get(key, key)
    return Signups(tuple(map(name, signups.players)), tuple(map(name, signups.backups)),
                   tuple(dataclasses.replace(c, player=name(c.player)) for c in signups.changes))


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


def open_thread(client: ForumPort, store: SignupStore, setup: SignupSetup, category: int | None,
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
    """The sign-up threads `modbot run` keeps up to date, one request a thread a cycle (and
    one for each edited post's first version, once), and every `names_seconds` of forum time
    the signed-up accounts' names by id (one request for 50): a list shows each place by its
    account's name now, so a rename (and whoever takes the freed name) is followed."""

    def __init__(self, client: ForumPort, store: SignupStore, setups: list[SignupSetup],
                 names_seconds: float = 600) -> None:
        self.client, self.store = client, store
        self.setups = [s for s in setups if s.topic_id is not None]
        self.posts: dict[int, list[ForumPost]] = {}
        self.first: dict[int, str] = {}  # post id -> its first version's text
        self.names: dict[int, str] = {}  # user id -> its name now, where it was renamed
        self.names_seconds = names_seconds
        self.names_at: datetime | None = None  # forum time of the last names check

    def first_version(self, post_id: int) -> str:
        if post_id not in self.first:
            self.first[post_id] = self.client.post_version(post_id, 1).raw
        return self.first[post_id]

    def seated_games(self) -> list[GameSetup]:
        """The games `modbot game new --from-signups` seated and opened since the last look
        (their files read again, no request): the daemon takes each up as it is, with no
        restart, and its sign-up list stays as it was at the seating."""
        taken = []
        for setup in list(self.setups):
            game = _opened_game(setup.path)
            if game is not None:
                log.info("sign-ups of %s: seated and opened (topic %s): the game starts",
                         setup.name, game.topic_id)
                self.setups.remove(setup)
                taken.append(game)
        return taken

    def cycle(self, now: datetime) -> int:
        """Read what is new; commit the list edits owed. How many lists changed."""
        renamed = self._names_changed(now)
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
            if not new and known and not renamed:
                continue
            seen = self.store.sightings(p.id for p in new)  # read before a restart
            self.store.record_sightings(new)
            seen = {**self.store.sightings(p.id for p in known), **seen}
            known.extend(new)
            closed = setup.closes_at is not None and now >= setup.closes_at
            edit = list_edit(setup, topic, folded(setup, known, self.first_version, seen,
                                                  self.names), known[-1].post_number, closed)
            self.store.commit(Batch(outbox=[edit]))
            changed += 1
        return changed

    def _names_changed(self, now: datetime) -> bool:
        """Every `names_seconds`: the signed-up accounts' names now, by id; True if one of
        them is not what the list shows."""
        if self.names_at is not None and (now - self.names_at).total_seconds() < self.names_seconds:
            return False
        self.names_at = now
        shown = {p.user_id: self.names.get(p.user_id, p.username)
                 for posts in self.posts.values() for p in posts if p.user_id is not None}
        if not shown:
            return False
        try:
            current = {u.id: u.username for start in range(0, len(shown), 50)
                       for u in self.client.users_by_ids(sorted(shown)[start:start + 50])}
        except ForumError as exc:
            log.warning("sign-ups: the signed-up accounts' names could not be read (%s)", exc)
            return False
        changed = {i: name for i, name in current.items() if shown.get(i) != name}
        self.names.update(changed)
        return bool(changed)


def seats_from_signups(signups: Signups, ids: dict[str, int], shuffle: int | None
                       ) -> tuple[list[tuple[str, int]], str]:
    """The seats (player, forum user id: the sign-up posts' own) and how they were ordered."""
    players = list(signups.players)
    order = "in sign-up order"
    if shuffle is not None:
        random.Random(shuffle).shuffle(players)
        order = f"shuffled with seed {shuffle} (Python's random.Random({shuffle}).shuffle)"
    missing = [p for p in [*players, *signups.backups] if p not in ids]
    if missing:
        raise NotFound(f"{', '.join(missing)} signed up in posts that carry no user id: write "
                       "the seats by hand")
    return [(player, ids[player]) for player in players], order
