"""The sandbox's records: users, posts, topics, and the forum's clocks."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from .cook import cook


@dataclass
class User:
    id: int
    username: str
    name: str = ""
    admin: bool = False
    moderator: bool = False
    trust_level: int = 1
    created_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    silenced_till: datetime | None = None  # a moderator silenced the account until then

    @property
    def staff(self) -> bool:
        return self.admin or self.moderator


@dataclass
class Post:
    id: int
    topic_id: int
    post_number: int
    username: str
    raw: str
    created_at: datetime
    post_type: int = 1
    action_code: str | None = None
    version: int = 1
    updated_at: datetime | None = None
    last_version_at: datetime | None = None
    reply_to_post_number: int | None = None
    user_deleted: bool = False
    deleted_at: datetime | None = None
    hidden: bool = False
    action_code_who: str | None = None  # the user a small action names (invited_user)
    versions: list[str] = field(default_factory=list)  # raw of each version, index = version-1

    def __post_init__(self) -> None:
        self.updated_at = self.updated_at or self.created_at
        self.last_version_at = self.last_version_at or self.created_at
        self.versions = self.versions or [self.raw]

    @property
    def cooked(self) -> str:
        return cook(self.raw)


@dataclass
class Topic:
    id: int
    title: str
    user_id: int
    created_at: datetime
    archetype: str = "regular"
    category_id: int | None = None
    allowed: list[str] = field(default_factory=list)  # PM participants (usernames)
    closed: bool = False
    archived: bool = False
    visible: bool = True
    posts: list[Post] = field(default_factory=list)
    bumped_at: datetime | None = None

    @property
    def slug(self) -> str:
        slug = "".join(c if c.isalnum() else "-" for c in self.title.lower()).strip("-")
        return "-".join(part for part in slug.split("-") if part) or "topic"

    @property
    def is_pm(self) -> bool:
        return self.archetype == "private_message"

    def visible_posts(self, staff: bool = False, username_filters: str = "") -> list[Post]:
        """The posts shown (`username_filters`: "NAME,NAME", the opening post and those
        authors' posts only, as lib/topic_view.rb's username filter keeps them); a staff
        whisper only to staff (TopicView: whispers need `can_see_whispers?`)."""
        names = {n.strip().lower() for n in username_filters.split(",") if n.strip()}
        return [p for p in self.posts if (staff or (p.deleted_at is None and p.post_type != 4))
                and (not names or p.post_number == 1 or p.username.lower() in names)]


class Clock:
    """Forum time: real UTC, or a rehearsal clock (a start time and a speed factor)."""

    def __init__(self, start: datetime | None = None, speed: float = 1.0) -> None:
        self.start = start
        self.speed = speed
        self.began = time.monotonic()

    def now(self) -> datetime:
        if self.start is None:
            return datetime.now(UTC)
        return self.start + timedelta(seconds=(time.monotonic() - self.began) * self.speed)

    def advance_to(self, at: datetime) -> None:
        """Jump forward to `at` (never back), keeping the speed: a rehearsal's "next deadline"."""
        if at > self.now():
            self.start, self.began = at, time.monotonic()


class ManualClock(Clock):
    """Forum time set by a script (rehearsals and tests): it moves only when told to."""

    def __init__(self, at: datetime) -> None:
        super().__init__(speed=0.0)  # still between its moves (a client following it waits)
        self.at = at

    def set(self, at: datetime) -> None:
        self.at = max(self.at, at)

    def advance_to(self, at: datetime) -> None:
        self.set(at)

    def now(self) -> datetime:
        return self.at
