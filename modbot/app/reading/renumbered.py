"""Theory of operation: a post is its id; its number can be reused.

A moderator who splits the end of a game thread into a new topic moves those posts out
(PostMover keeps their ids), and Discourse then numbers the thread's next posts from the
highest number left (`Topic.next_post_number`, app/models/topic.rb): the split's small-action
note takes the first moved number, the next vote the one after. A reader that takes only
numbers above its cursor never sees them. So, from each cycle's listing of the game topics
(`highest_post_number`, `last_posted_at`), `changes` tells:

- a thread whose highest number grew: read after the cursor, as ever;
- a thread whose highest number fell below the cursor (posts moved out, or its last posts
  deleted): the cursor comes down to it, so the next posts are read at the numbers they take;
- a thread whose highest number did not move but whose last post is newer than the last
  listing showed (a split and new posts between two listings), or that the bot has just
  started on (a restart: what happened while it was away; `VERIFY_A_CYCLE` such games a
  cycle, so many games' restart costs no burst): its stream of ids is checked,
  one request (`GET /t/{id}/post_ids.json`), against every id the bot has read in it (the
  game's inputs, the posts it read and let pass, its own); the unseen ones are read by id
  (`unseen`: 50 a request) and handled in the forum's order, each at its `created_at` under
  the rules for posts that arrive late (late.py), judged read or not by id (handling.py).
"""

from __future__ import annotations

import logging
from typing import Any

from ...adapters.forum_port import ForumPort
from ...adapters.port import ForumPost
from ...adapters.store_port import ReadingStore
from ..games.runtime import GameRuntime

log = logging.getLogger("modbot.app.running.service")
IDS_A_READ = 50
VERIFY_A_CYCLE = 2  # restarted games whose stream is checked in one cycle (the rest wait)


class Renumbered:
    """Each game topic's last listing, and the stream checks it calls for."""

    def __init__(self, client: ForumPort, store: ReadingStore) -> None:
        self.client = client
        self.store = store
        self.listed: dict[int, tuple[int, str | None]] = {}  # topic -> (highest, last posted)
        self.verify: set[int] = set()  # topics whose stream is checked at the next listing

    def changes(self, listing: dict[int, dict[str, Any]], games: dict[int, GameRuntime]
                ) -> tuple[list[int], set[int]]:
        """The topics to read after their cursor, and those whose stream to check."""
        changed: list[int] = []
        check: set[int] = set()
        for topic_id in sorted(games):
            game = games[topic_id]
            entry = listing.get(topic_id)
            if entry is None:  # the listing leaves it out (unlisted): read it directly
                changed.append(topic_id)
                continue
            highest = int(entry.get("highest_post_number") or 0)
            last = entry.get("last_posted_at")
            before = self.listed.get(topic_id)
            self.listed[topic_id] = (highest, last)
            if highest < game.last_post_number:  # posts moved out: their numbers come again
                log.warning("game %s: the thread's highest post number fell from %d to %d "
                            "(posts moved out?): the next posts are read at the numbers "
                            "they take", game.setup.name, game.last_post_number, highest)
                game.last_post_number = highest
                check.add(topic_id)
            elif highest > game.last_post_number:
                changed.append(topic_id)
            if before is not None and before[0] == highest and before[1] != last \
                    and highest <= game.last_post_number:
                check.add(topic_id)
        check |= set(sorted(self.verify & set(games))[:VERIFY_A_CYCLE])  # after a restart
        self.verify -= check
        return changed, check

    def unseen(self, game: GameRuntime, read: list[ForumPost]) -> list[ForumPost]:
        """The thread's posts the bot has not read (besides `read`, just read by number), by
        the thread's stream of ids, with `read`: in the forum's order."""
        ids = self.client.thread_post_ids(game.topic_id, after=0)
        known = {p.id for p in read} | self.store.sent_post_ids(f"{game.options.key}:topic")
        missing = [i for i in ids if i not in known and not game.has_read(i)]
        found: list[ForumPost] = []
        for start in range(0, len(missing), IDS_A_READ):
            found.extend(self.client.posts_by_ids(game.topic_id, missing[start:start + IDS_A_READ]))
        if found:
            log.warning("game %s: %d post(s) at numbers read before (a split reused them): "
                        "read by id", game.setup.name, len(found))
        return sorted([*read, *found], key=lambda p: (p.created, p.id))
