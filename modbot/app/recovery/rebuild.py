"""Theory of operation: a game rebuilt from the forum alone (the database is only a cache).

When the bot starts a game that has no stored inputs, it reads the whole game thread. If the
bot's own account has posted there under this game's outbox markers, or opened a PM
conversation for this game whose posts carry them (`dealt_by_pm`: a game dealt whose thread
post never went out), the game was running before and its database was lost (or moved):
`gather` reads what the forum keeps, and the service replays it through the same code as the
live loop, adopting the bot's earlier posts:

- inputs: every thread post and every PM the bot can see since the game's first post, in
  `created_at` order (ties by post id), thread posts and PMs interleaved; PMs are routed to
  games by the live loop's rules (`pm_routing.py`);
- each post counts in its first version: an edited post (`version` above 1) is read as
  version 1 (`/posts/ID.json?version=1`), and its later text becomes an edit notice at its
  `updated_at`, as the live edit sweep would have raised;
- a post a moderator deleted counts if it was deleted a minute or more after it was made (the
  bot had read it); one deleted sooner is left out and reported. Hidden (flagged) posts count;
- the clock is regenerated, not restored: the runtime ticks at each moment something fell due
  between two inputs (`GameRuntime.ticks_until`), as the live loop does;
- every post the replay derives whose marker the forum shows in the bot's own post is adopted
  (marked sent with that post's ids), never posted again; a marker in anyone else's post proves
  nothing. What the replay owes and the forum lacks is posted. Of the edits of a running vote
  count, only the last is sent again (an edit is idempotent);
- the Storytellers get one PM: how many posts were replayed, how many of the bot's posts were
  recognised, what is still owed, and what could not be recovered (posts deleted too soon; the
  bot's posts that the replay did not derive), in words, never by internal key.

`!log` and `!undo N` number inputs by the forum's post id, so they name the same inputs after
a rebuild. The whole rebuild commits in one transaction: a crash leaves none of it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from ...adapters.forum_port import ForumPort
from ...adapters.outgoing import Outgoing
from ...adapters.port import ForumPost, forum_time
from ..posting.reactions import WELCOME
from ..reading.thread_reads import read_thread

SERVICE_NOTES = ("rebuilt:", "held:", "reading:", "index")  # the service's posts, not the fold's
MARKER = re.compile(r"<!-- modbot:(\S+) -->")
DELETED_TOO_SOON = timedelta(minutes=1)  # deleted before the bot can have read it
PM_PAGES = 400  # 20,000 PMs at most, back to the game's first post
PM_TOPIC_PAGES = 3  # pages of the bot's PM list (30 conversations each) looked through


@dataclass
class ForumHistory:
    """What the forum keeps of one game."""
    thread: list[ForumPost]  # the thread's posts, in post-number order, in their first version
    pms: list[ForumPost] = field(default_factory=list)  # PMs since the game began, oldest first
    own: dict[str, ForumPost] = field(default_factory=dict)  # marker key -> the bot's post
    left_out: list[ForumPost] = field(default_factory=list)  # deleted too soon to be read
    edits: dict[int, ForumPost] = field(default_factory=dict)  # post id -> the post now

    @property
    def inputs(self) -> int:
        return len(self.thread) + len(self.pms)


def shows_own_posts(posts: list[ForumPost], bot: str, game_key: str) -> bool:
    """The bot has posted in this thread under this game's markers: the game ran before. (The
    Storytellers' conversation's first note proves nothing: `modbot game new` posts it.)"""
    prefix, welcome = f"{game_key}:", f"{game_key}:{WELCOME}"
    return any(_is_bot(p, bot) and any(k.startswith(prefix) and k != welcome
                                       for k in MARKER.findall(p.raw)) for p in posts)


def ran_before(client: ForumPort, bot: str, game_key: str, topic_id: int,
               thread: list[ForumPost], titles: list[tuple[str, str]]) -> bool:
    """The game ran before (its database since lost): the bot's marked posts are in its
    `thread` (already read), or in a PM conversation the bot opened for it."""
    return shows_own_posts(thread, bot, game_key) or \
        dealt_by_pm(client, bot, game_key, titles)


def dealt_by_pm(client: ForumPort, bot: str, game_key: str,
                titles: list[tuple[str, str]]) -> bool:
    """The bot opened a PM conversation for this game (a character PM, the Storytellers'
    notes: a title of one of the game's forms, `titles`' (beginning, end) pairs) whose posts
    carry this game's markers in the bot's own posts: the game was dealt, even if no post of
    the bot's reached its thread. Reads the bot's PM list (the most recent `PM_TOPIC_PAGES`
    pages) and each such conversation's first page."""
    for page in range(PM_TOPIC_PAGES):
        listing = client.private_messages(bot, page=page).get("topic_list", {})
        for topic in listing.get("topics", []):
            title = str(topic.get("title") or "")
            if any(title.startswith(a) and title.endswith(b) for a, b in titles) and \
                    shows_own_posts(client.posts_after(int(topic["id"]), 0), bot, game_key):
                return True
        if not listing.get("more_topics_url"):
            return False
    return False


def gather(client: ForumPort, bot: str, topic_id: int,
           thread: list[ForumPost] | None = None) -> ForumHistory:
    """Read what the forum keeps of a game: its thread (deleted posts included, for staff;
    `thread` when it was read already so), the PMs since its first post, each post's first
    version, and the bot's marked posts."""
    if thread is None:
        thread = read_thread(client, topic_id, show_deleted="true")
    since = thread[0].created if thread else None
    history = ForumHistory(thread=[], pms=_pms_since(client, since))
    for post in thread:
        if _deleted_too_soon(post):
            history.left_out.append(post)
        else:
            history.thread.append(post)
    history.thread = [_first_version(client, history, p, bot) for p in history.thread]
    history.pms = [_first_version(client, history, p, bot) for p in history.pms]
    return history


def _first_version(client: ForumPort, history: ForumHistory, post: ForumPost,
                   bot: str) -> ForumPost:
    """The post as first written (its markers noted when it is the bot's); an edited one's
    present text is kept in `history.edits`."""
    if _is_bot(post, bot):
        for key in MARKER.findall(post.raw):
            history.own.setdefault(key, post)
        return post
    if post.version <= 1:
        return post
    history.edits[post.id] = post
    return post.with_raw(client.post_version(post.id, 1).raw)


def _pms_since(client: ForumPort, since: datetime | None) -> list[ForumPost]:
    posts: list[ForumPost] = []
    before = None
    for _ in range(PM_PAGES):
        page = client.private_posts(before)
        posts.extend(p for p in page if since is None or p.created >= since)
        if not page or (since is not None and page[-1].created < since):
            break
        before = page[-1].id
    return sorted(posts, key=lambda p: (p.created, p.id))


def _deleted_too_soon(post: ForumPost) -> bool:
    if not post.deleted_at:
        return False
    return forum_time(post.deleted_at) - post.created < DELETED_TOO_SOON


def _is_bot(post: ForumPost, bot: str) -> bool:
    return post.username.casefold() == bot.casefold()


def unmatched(history: ForumHistory, derived: set[str], game_key: str) -> list[ForumPost]:
    """The bot's posts of this game that the replay did not derive (the forum shows them; the
    rebuilt game would not have made them): reported, never guessed at."""
    prefix = f"{game_key}:"
    seen: set[int] = set()
    out = []
    for key, post in history.own.items():
        if key.startswith(prefix) and key not in derived and post.id not in seen \
                and not key.startswith(tuple(prefix + n for n in SERVICE_NOTES)):
            seen.add(post.id)
            out.append(post)
    return out



class Adoption:
    """The bot's posts the forum shows, by marker key. A row the replay derives under one of
    these keys is adopted (marked sent with that post's ids) instead of posted; an edit of an
    adopted post too, and the last edit of each is sent again at the end (edits are
    idempotent: the post then shows the rebuilt count)."""

    def __init__(self) -> None:
        self.found: dict[str, tuple[int, int, int]] = {}
        self.derived: set[str] = set()
        self.last_edit: dict[str, str] = {}  # edited post's key -> the key of its last edit

    def __bool__(self) -> bool:
        return bool(self.found)

    def add(self, history: ForumHistory) -> None:
        self.found.update({key: (p.id, p.topic_id, p.post_number)
                           for key, p in history.own.items()})

    def adopted(self, outgoing: Iterable[Outgoing], replaying: bool) -> dict[str, tuple[int, int, int]]:
        """The rows the forum already shows. An edit is adopted only while `replaying` a
        rebuild (the forum holds some version of its post); one made afterwards is new."""
        out = {}
        for row in outgoing:
            if replaying:  # what the rebuild derived (kept only while it lasts)
                self.derived.add(row.key)
            if row.kind == "edit":
                if replaying and row.edit_of in self.found:
                    out[row.key] = self.found[row.edit_of]
                    self.last_edit[row.edit_of] = row.key
            elif row.key in self.found:
                out[row.key] = self.found[row.key]
        return out


@dataclass
class Rebuilt:
    """What a rebuild did, for the Storytellers' note and `modbot recover`."""
    thread_posts: int
    pms: int
    recognised: int
    owed: int
    left_out: list[ForumPost]
    unmatched: list[ForumPost]
