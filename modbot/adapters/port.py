"""Theory of operation: what the forum says, as small typed values at the adapter's edge.

Discourse answers in JSON; the bot needs a few fields of it. `ForumPost` is a post or a PM
as the post stream and the PM inbox serialize it (PostSerializer: `id`, `topic_id`,
`post_number`, `user_id`, `username`, `created_at`, `raw` with `include_raw`, `post_type`,
`version`, `updated_at`, `deleted_at`, `hidden`, `action_code`; the inbox adds
`topic_title`; a post hidden by flags comes without `raw` to anyone but staff and its author:
`words_hidden`, never an empty post); `ForumUser` an account (`id`, `username`, the staff flags, `trust_level`).
`ForumClient` (forum.py) builds them from what the forum sent (`from_json`: unknown fields are
dropped, missing ones take Discourse's defaults), so the service reads attributes mypy
checks, never a dict key it could misspell; tests and the in-memory sandbox build them the
same way. Times stay the forum's ISO text (`created_at`); `created` parses it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import datetime
from typing import Any


def forum_time(text: str) -> datetime:
    """A time as the forum writes it (ISO 8601, `Z` for UTC)."""
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


@dataclass(frozen=True, slots=True)
class ForumPost:
    id: int
    topic_id: int
    post_number: int
    username: str
    created_at: str
    raw: str = ""
    user_id: int | None = None
    post_type: int = 1  # 1 regular, 2 moderator action, 3 small action, 4 whisper
    version: int = 1
    updated_at: str | None = None
    deleted_at: str | None = None
    hidden: bool = False
    action_code: str | None = None  # a small action's: "invited_user", "removed_user", …
    topic_title: str | None = None  # in the PM inbox's listing
    words_hidden: bool = False  # hidden by flags, and its words not given to the bot

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ForumPost:
        return cls(
            id=int(data["id"]), topic_id=int(data.get("topic_id") or 0),
            post_number=int(data.get("post_number") or 0),
            username=str(data.get("username") or ""), created_at=str(data["created_at"]),
            raw=str(data.get("raw") or ""),
            user_id=int(data["user_id"]) if data.get("user_id") is not None else None,
            post_type=int(data.get("post_type") or 1), version=int(data.get("version") or 1),
            updated_at=data.get("updated_at"), deleted_at=data.get("deleted_at"),
            hidden=bool(data.get("hidden")), action_code=data.get("action_code"),
            topic_title=data.get("topic_title"),
            words_hidden=bool(data.get("hidden")) and "raw" not in data)

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @property
    def created(self) -> datetime:
        return forum_time(self.created_at)

    @property
    def edited(self) -> datetime:
        """When its text last changed (its creation, if never edited)."""
        return forum_time(self.updated_at or self.created_at)

    @property
    def by_someone(self) -> bool:
        """A post someone wrote (not a small action or a moderator's note)."""
        return self.post_type == 1

    def with_raw(self, raw: str) -> ForumPost:
        return dataclasses.replace(self, raw=raw)


@dataclass(frozen=True, slots=True)
class ForumUser:
    id: int
    username: str
    admin: bool = False
    moderator: bool = False
    trust_level: int = 1

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ForumUser:
        return cls(id=int(data["id"]), username=str(data["username"]),
                   admin=bool(data.get("admin")), moderator=bool(data.get("moderator")),
                   trust_level=int(data.get("trust_level", 1) or 0))

    @property
    def staff(self) -> bool:
        return self.admin or self.moderator
