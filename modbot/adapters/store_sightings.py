"""Theory of operation: what the bot has read of each post, kept as evidence.

The forum decides by its own times, but it does not keep everything: an edit within
Discourse's grace period leaves no revision (the post stays version 1, `updated_at` moves).
So each distinct text the bot reads of a post is kept once (`PostSightingRow`: the text, the
version and the `updated_at` that read showed), in the order read. A rule that asks "what did
this post say before" (a sign-up edited into `/in`: app/starting/signups.py) reads them here, beside
the forum's first version. Mixed into `Store`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

from .port import ForumPost
from .store_models import PostSightingRow


@dataclass(frozen=True)
class Sighting:
    """One text the bot read of a post, with what that read showed of it."""

    raw: str
    version: int
    updated_at: str | None


class SightingQueries:
    """The sightings' queries (a part of `Store`)."""

    def record_sightings(self, posts: Iterable[ForumPost]) -> None:
        """Keep each post's text as read now, unless this text of it was kept already."""
        rows = [{"post_id": p.id, "topic_id": p.topic_id, "raw": p.raw, "version": p.version,
                 "updated_at": p.updated_at,
                 "raw_sha1": hashlib.sha1(p.raw.encode("utf-8")).hexdigest()} for p in posts]
        for start in range(0, len(rows), 100):
            PostSightingRow.insert_many(rows[start:start + 100]).on_conflict_ignore().execute()

    def sightings(self, post_ids: Iterable[int]) -> dict[int, list[Sighting]]:
        """Each post's texts as the bot read them, first read first."""
        ids = sorted(set(post_ids))
        found: dict[int, list[Sighting]] = {}
        for start in range(0, len(ids), 500):
            query = PostSightingRow.select().where(
                PostSightingRow.post_id.in_(ids[start:start + 500])).order_by(PostSightingRow.id)
            for row in query:
                found.setdefault(row.post_id, []).append(
                    Sighting(row.raw, row.version, row.updated_at))
        return found
