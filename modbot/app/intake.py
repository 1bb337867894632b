"""Theory of operation: which game threads have new posts, found by what Discourse keeps.

A post's id and `created_at` survive a moderator's move, an unlist or a hide; its place in
the site-wide newest-posts window (`/posts.json`) does not: a reply moved into a game thread
keeps its old id, so a reader that pages the window by id never sees it, and an unlisted
topic's posts are left out of that window. So each cycle asks one listing for every game
topic's `highest_post_number` (`GET /latest.json?topic_ids=…`, TopicQuery's `topic_ids`
option, `LISTING` topics a request), and reads a thread by post number (`/t/{id}/posts.json`
after the game's last post number, 20 a request) only where that number grew. A post moved in
takes the thread's next post number (Discourse's PostMover), so it is read like any new post,
and ordered with the others by its `created_at`. A topic the listing leaves out (unlisted,
and the bot is not staff) is read directly every cycle while it is left out.

Idle cost: one listing request per `LISTING` games (with the PM inbox, 2 requests a cycle
for up to 30 games); a thread that changed costs one read more (more when over 20 posts came).
"""

from __future__ import annotations

from ..adapters.forum import ForumClient

LISTING = 30  # topics per listing request (Discourse's default page of a topic list)
CHUNK = 20  # posts per topic read (Discourse's post stream chunk)


def changed_topics(client: ForumClient, last_numbers: dict[int, int]) -> list[int]:
    """The topics (of `last_numbers`: topic id -> the last post number read) whose highest
    post number is past it, or that the listing left out."""
    ids = sorted(last_numbers)
    highest: dict[int, int] = {}
    for start in range(0, len(ids), LISTING):
        for topic in client.topics_listed(ids[start:start + LISTING]):
            highest[int(topic["id"])] = int(topic.get("highest_post_number") or 0)
    return [t for t in ids if t not in highest or highest[t] > last_numbers[t]]


def new_posts(client: ForumClient, topic_id: int, after: int) -> list[dict]:
    """Every post of the topic after post number `after`, oldest first."""
    posts: list[dict] = []
    while True:
        page = client.posts_after(topic_id, after)
        posts.extend(page)
        if len(page) < CHUNK:
            return posts
        after = max(p["post_number"] for p in page)
