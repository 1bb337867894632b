"""Theory of operation: reading a whole thread, short or 3,000 posts long.

`read_thread` reads the posts after a post number 20 at a time (`/t/{id}/posts.json?
post_number=N&asc=true`, the post stream's chunk), oldest first: what the live loop needs
for the few posts of a cycle.

A game the bot starts without a stored history reads its whole thread, and a BotF thread
often passes 3,000 posts: `PagedReads` reads it by id instead. One request lists every post's
id after the first chunk (`/t/{id}/post_ids.json`, TopicsController#post_ids in Discourse's
app/controllers/topics_controller.rb, which skips the chunk limit), then `IDS_A_READ` posts a
request by id (`/t/{id}/posts.json?post_ids[]=…`; lib/topic_view.rb `filter_posts_by_ids`
sets no chunk limit, and 50 ids keep the address near a kilobyte, far under a proxy's limit):
2 + 60 requests for 3,000 posts rather than 150, one for a thread of under 20. At most
`pages` of them an attempt (and what the background share of the budget allows: budget.py),
so the other games are served between; a read not done yet answers None (a game waiting for
its thread is not an error). Its place (the posts read, the ids still to read) is kept in the
store after every attempt, so an error, a 429 or a restart mid-way loses nothing read, and
each post is read once. Posts made after the id list was taken are read by the live loop,
after the thread's last post number, once the game runs.
"""

from __future__ import annotations

from typing import Any

from ...adapters.forum import ForumError
from ...adapters.forum_port import ForumPort
from ...adapters.port import ForumPost
from ...adapters.store_port import ReadingStore

CHUNK = 20  # posts a read by post number (Discourse's posts_chunksize)
IDS_A_READ = 50


class PagedReads:
    """Whole-thread reads that keep their place (in memory and in `store`)."""

    def __init__(self, pages: int = 12, store: ReadingStore | None = None) -> None:
        self.pages = pages
        self.store = store
        self.partial: dict[str, dict[str, Any]] = {}  # read key -> {"posts": [...], "ids": [...]}

    def read(self, client: ForumPort, topic_id: int, **extra: Any) -> list[ForumPost] | None:
        """The whole thread, oldest first; None while it is not all read (a few pages an
        attempt: the next attempt goes on from where this one stopped)."""
        key = read_key(topic_id, extra)
        state = self._resume(key)
        if state is None:  # kept only if it cannot finish now (a short thread never is)
            state = self._begin(client, topic_id, extra)
        for _ in range(self.pages):
            if not state["ids"]:
                break
            chunk = state["ids"][:IDS_A_READ]
            try:
                batch = client.posts_by_ids(topic_id, chunk, **extra)
            except ForumError:
                self._keep(key, state)
                raise
            state["posts"].extend(batch)
            state["ids"] = state["ids"][len(chunk):]
        if state["ids"]:
            self._keep(key, state)
            return None
        self._keep(key, None)
        return sorted(state["posts"], key=lambda p: p.post_number)

    @staticmethod
    def _begin(client: ForumPort, topic_id: int, extra: dict[str, Any]) -> dict[str, Any]:
        """The first chunk by post number (a short thread is read in one request); a longer
        one lists the ids of the rest."""
        posts = client.posts_after(topic_id, 0, **extra)
        ids = [] if len(posts) < CHUNK else \
            client.thread_post_ids(topic_id, posts[-1].post_number, **extra)
        return {"posts": posts, "ids": ids}

    def _resume(self, key: str) -> dict[str, Any] | None:
        if key in self.partial:
            return self.partial[key]
        kept = self.store.thread_read(key) if self.store is not None else None
        if kept is None:
            return None
        state = {"posts": [ForumPost(**p) for p in kept["posts"]], "ids": kept["ids"]}
        self.partial[key] = state  # a read kept before a restart goes on
        return state

    def _keep(self, key: str, state: dict[str, Any] | None) -> None:
        """Keep a read's place (None: it is done; forgotten if it was ever kept)."""
        if state is None:
            if self.partial.pop(key, None) is None:
                return  # read in one attempt: never kept, nothing to forget
        else:
            self.partial[key] = state
        if self.store is not None:
            self.store.save_thread_read(key, None if state is None else {
                "posts": [p.to_json() for p in state["posts"]], "ids": state["ids"]})

    def progress(self, topic_id: int) -> tuple[int, int]:
        """(posts read, posts still to read) of the topic's read under way."""
        for key, state in self.partial.items():
            if key.split(":")[0] == str(topic_id):
                return len(state["posts"]), len(state["ids"])
        return 0, 0


def read_key(topic_id: int, extra: dict[str, Any]) -> str:
    return f"{topic_id}:" + "&".join(f"{k}={v}" for k, v in sorted(extra.items()))


def read_thread(client: ForumPort, topic_id: int, *, after: int = 0,
                **extra: Any) -> list[ForumPost]:
    """The topic's posts after post number `after` (by default all), 20 posts a request,
    oldest first."""
    posts: list[ForumPost] = []
    while True:
        batch = client.posts_after(topic_id, after, **extra)
        posts.extend(batch)
        if len(batch) < CHUNK:
            return posts
        after = batch[-1].post_number
