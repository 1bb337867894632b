"""The sandbox's forum: users, topics, posts and Discourse's rules for writing them.

Theory of operation: one `Forum` object holds everything in memory behind one lock. Its
methods are Discourse's write rules (post numbers per topic, ids across the site, versions,
self-delete, topic status small actions, the §5 validations and per-user limits for non-staff,
120-second memoization of identical API creates). Errors are raised as `ApiError(status, body)`
with Discourse's exact bodies; `server.py` turns them into HTTP responses. Serialisation of
posts and topics to Discourse's JSON shapes lives in `shapes.py`.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import threading
import time
from datetime import UTC, datetime

from . import silence
from .errors import TOO_MANY, ApiError, create_error, errors, rate_limited
from .limits import WriteLimits
from .models import Clock, Post, Topic, User

SELF_DELETED = "(post deleted by author)"
GRACE_SECONDS = 300
GRACE_DIFF = 100
GRACE_DIFF_HIGH_TRUST = 400
MEMO_SECONDS = 120
UNIQUE_POST_SECONDS = 300
# Discourse's defaults (config/site_settings.yml): rate_limit_create_post, and for trust level 0
# rate_limit_new_user_create_post; max_personal_messages_per_day (Topic#limit_private_
# messages_per_day, app/models/topic.rb: a RateLimiter over a day, skipped for staff)
POST_SECONDS, NEW_USER_POST_SECONDS = 5, 30
PMS_PER_DAY = 20
MSG_GONE = ("Something has gone wrong. Perhaps this topic was closed or deleted while you "
            "were looking at it?")


class Forum:
    def __init__(self, clock: Clock | None = None, *, limits: bool = True) -> None:
        self.lock = threading.RLock()
        self.clock = clock or Clock()
        self.limits = limits
        self.users: dict[str, User] = {}
        self.user_keys: dict[str, str] = {}  # api key -> username (single-user keys)
        self.flags: dict[int, set[int]] = {}  # post id -> the ids of the users who flagged it
        self.key_ids: dict[int, str] = {}  # the admin page's key id -> api key
        self.revoked_keys: set[str] = set()  # answered 403 (moderation.revoke_key)
        self.topics: dict[int, Topic] = {}
        self.posts: dict[int, Post] = {}
        self._next_user = 1
        self._next_topic = 1
        self._next_post = 1
        self._memo: dict[str, tuple[float, int, object]] = {}
        self._last_post_at: dict[str, float] = {}
        self._last_topic_at: dict[str, float] = {}
        self._recent_raw: dict[str, float] = {}
        self._pms_created: dict[str, list[float]] = {}  # username -> forum times (a day)
        self.pms_per_day = PMS_PER_DAY
        self.write_limits = WriteLimits()  # slow mode, edits a day (limits.py)
        self.listeners: list = []  # f(kind, topic, post): created, revised, deleted (the bus)
        self.add_user("system", admin=True, trust_level=4)

    # -- users ------------------------------------------------------------------------------

    def add_user(self, username: str, name: str = "", *, admin=False, moderator=False,
                 trust_level=1) -> User:
        with self.lock:
            if username.lower() in self.users:
                raise ApiError(422, {"success": False, "message": "Username must be unique",
                                     "errors": {"username": ["must be unique"]}})
            user = User(self._next_user, username, name or username, admin, moderator,
                        trust_level)
            self._next_user += 1
            self.users[username.lower()] = user
            return user

    def seconds(self) -> float:
        """The forum's time in seconds, on which its limits are counted: real time, or a
        rehearsal's accelerated (or scripted) time, so a rehearsal's limits keep pace."""
        return self.clock.now().timestamp()

    def user(self, username: str) -> User | None:
        return self.users.get(username.lower())

    def account(self, username: str) -> User:
        """A user the caller knows exists (validated before, or made by the sandbox)."""
        user = self.user(username)
        if user is None:
            raise ValueError(f"the sandbox has no user {username!r}")
        return user

    def new_user_key(self, username: str) -> str:
        with self.lock:
            key = secrets.token_hex(32)
            self.user_keys[key] = self.account(username).username
            self.key_ids[len(self.key_ids) + 1] = key
            return key

    # -- reading ----------------------------------------------------------------------------

    def topic(self, topic_id: int, viewer: User | None) -> Topic:
        topic = self.topics.get(topic_id)
        if topic is None or not self.can_see(topic, viewer):
            raise errors(404, "The requested URL or resource could not be found.", "not_found")
        return topic

    def can_see(self, topic: Topic, viewer: User | None) -> bool:
        if not topic.is_pm:
            return True
        return viewer is not None and (viewer.admin or viewer.username.lower() in
                                       {u.lower() for u in topic.allowed})

    def latest(self, viewer: User | None, private: bool, before: int | None) -> list[Post]:
        with self.lock:
            out = []
            for post in sorted(self.posts.values(), key=lambda p: -p.id):
                if before is not None and post.id >= before:
                    continue
                topic = self.topics[post.topic_id]
                if post.deleted_at is not None or post.post_type != 1 or post.hidden:
                    continue
                if private != topic.is_pm or (not private and not topic.visible):
                    continue
                if private and not self.can_see(topic, viewer):
                    continue
                out.append(post)
                if len(out) == 50:
                    break
            return out

    # -- writing ----------------------------------------------------------------------------

    def create(self, author: User, params: dict, *, api: bool = True) -> Post:
        """POST /posts: a reply, a new topic or a PM. Memoized for identical API calls."""
        key = hashlib.sha1(json.dumps([author.id, sorted(params.items())], default=str)
                           .encode()).hexdigest()
        with self.lock:
            now = time.monotonic()
            memo = self._memo.get(key)
            if api and memo and now - memo[0] < MEMO_SECONDS:
                if isinstance(memo[2], ApiError):
                    raise memo[2]
                return self.posts[memo[1]]
            try:
                post = self._create(author, params)
            except ApiError as exc:
                if exc.status == 422:
                    self._memo[key] = (now, 0, exc)
                raise
            self._memo[key] = (now, post.id, None)
            return post

    def _create(self, author: User, params: dict) -> Post:
        raw = str(params.get("raw") or "")
        created_at = parse_time(params.get("created_at")) or self.clock.now()
        reply_to = params.get("reply_to_post_number")
        if params.get("topic_id"):
            if params.get("archetype") == "private_message":
                raise create_error("Sorry, you can't create a PM on an existing topic.")
            topic = self.topics.get(int(params["topic_id"]))
            if topic is None or not self.can_see(topic, author) or (
                    topic.closed and not author.staff):
                raise create_error(MSG_GONE)
            silence.check_reply(author, topic, self.clock.now())
            self._check_body(author, raw, topic.is_pm)
            self._check_consecutive(author, topic)
            if self.limits:
                self.write_limits.check_reply(author, topic, self.seconds())
            self._limit(author, self._last_post_at,
                        NEW_USER_POST_SECONDS if author.trust_level == 0 else POST_SECONDS,
                        "You’re replying a bit too quickly. Please wait {} seconds before "
                        "trying again.")
        else:
            topic = self._new_topic(author, params, raw, created_at)
        # a staff whisper (lib/post_creator.rb: `post_type` whisper when `whisper` is asked and
        # the author may whisper: staff, Discourse's `whispers_allowed_groups` by default)
        whisper = params.get("topic_id") and str(params.get("whisper", "")).lower() == "true" \
            and author.staff
        post = self.append(topic, author.username, raw, created_at,
                           reply_to_post_number=int(reply_to) if reply_to else None,
                           post_type=4 if whisper else 1)
        self.write_limits.posted(author, topic, self.seconds())
        if not author.staff:
            self._recent_raw[f"{author.id}:{topic.is_pm}:{hashlib.sha1(raw.encode()).hexdigest()}"] = \
                self.seconds()
        return post

    def _new_topic(self, author: User, params: dict, raw: str, created_at: datetime) -> Topic:
        title = str(params.get("title") or "").strip()
        is_pm = params.get("archetype") == "private_message"
        problems = []
        if len(title) < (2 if is_pm else 15):
            problems.append(f"Title is too short (minimum is {2 if is_pm else 15} characters)")
        if not is_pm and any(t.title.lower() == title.lower() and not t.is_pm
                             for t in self.topics.values()):
            problems.append("Title has already been used")
        category = params.get("category")
        if not is_pm and not category:
            problems.append("Category can't be blank")
        recipients = []
        if is_pm:
            names = str(params.get("target_recipients") or params.get("target_usernames") or "")
            recipients = [n.strip() for n in names.split(",") if n.strip()]
            if not recipients or any(self.user(n) is None for n in recipients):
                problems.append("One of the users you are sending this message to could not "
                                "be found.")
        if problems:
            raise create_error(*problems)
        silence.check_new_topic(author, [self.account(n) for n in recipients], is_pm,
                                self.clock.now())
        self._check_body(author, raw, is_pm)
        self._limit(author, self._last_topic_at, 15,
                    "You’re creating topics a bit too quickly. Please wait {} seconds before "
                    "trying again.")
        if is_pm:
            self._limit_pms_per_day(author)
        with self.lock:
            topic = Topic(self._next_topic, title, author.id, created_at,
                          "private_message" if is_pm else "regular",
                          int(category) if category and not is_pm else None)
            if is_pm:
                topic.allowed = [author.username] + [self.account(n).username for n in recipients]
            self._next_topic += 1
            self.topics[topic.id] = topic
            return topic

    def append(self, topic: Topic, username: str, raw: str, created_at: datetime, *,
               post_type: int = 1, action_code: str | None = None,
               reply_to_post_number: int | None = None) -> Post:
        with self.lock:
            number = (topic.posts[-1].post_number + 1) if topic.posts else 1
            post = Post(self._next_post, topic.id, number, username, raw, created_at,
                        post_type=post_type, action_code=action_code,
                        reply_to_post_number=reply_to_post_number)
            self._next_post += 1
            topic.posts.append(post)
            self.posts[post.id] = post
            topic.bumped_at = created_at
            self._tell("created", topic, post)
            return post

    def _tell(self, kind: str, topic: Topic, post: Post) -> None:
        for listener in self.listeners:
            listener(kind, topic, post)

    def _check_body(self, author: User, raw: str, is_pm: bool) -> None:
        minimum = 10 if is_pm else 20
        if len(raw.strip()) < minimum:
            raise create_error(f"Body is too short (minimum is {minimum} characters)")
        if len(raw) > 32000:
            raise create_error("Body is too long (maximum is 32000 characters)")
        if author.staff or not self.limits:
            return
        key = f"{author.id}:{is_pm}:{hashlib.sha1(raw.encode()).hexdigest()}"
        seen = self._recent_raw.get(key)
        if seen is not None and self.seconds() - seen < UNIQUE_POST_SECONDS:
            raise create_error("Body is too similar to what you recently posted")

    def _check_consecutive(self, author: User, topic: Topic) -> None:
        if author.staff or topic.is_pm or topic.user_id == author.id or not self.limits:
            return
        run = 0
        for post in reversed(topic.visible_posts()):
            if post.post_type != 1:
                continue
            if post.username.lower() != author.username.lower():
                break
            run += 1
        if run >= 3:
            raise create_error("No more than 3 consecutive replies are allowed. Please edit your "
                               "previous reply, or wait for someone to reply to you.")

    def _limit_pms_per_day(self, author: User) -> None:
        """At most `pms_per_day` new personal messages in any 24 hours (non-staff)."""
        if author.staff or not self.limits:
            return
        now = self.seconds()
        made = [t for t in self._pms_created.get(author.username.lower(), []) if now - t < 86400]
        if len(made) >= self.pms_per_day:
            wait = int(86400 - (now - made[0])) + 1
            hours = max(1, wait // 3600)
            raise rate_limited(TOO_MANY.format(f"{hours} hour{'s' if hours > 1 else ''}"), wait)
        self._pms_created[author.username.lower()] = [*made, now]

    def _limit(self, author: User, table: dict[str, float], seconds: int, message: str) -> None:
        if author.staff or not self.limits:
            return
        now = self.seconds()
        last = table.get(author.username.lower())
        if last is not None and now - last < seconds:
            wait = max(1, int(seconds - (now - last) + 0.999))
            raise rate_limited(message.format(wait), wait)
        table[author.username.lower()] = now

    def edit(self, post: Post, editor: User, raw: str, reason: str = "",
             original: str | None = None) -> Post:
        with self.lock:
            if original is not None and original != post.raw:
                raise errors(409, "That post was edited by another user and your changes can "
                                  "no longer be saved.")
            now = self.clock.now()
            limit = GRACE_DIFF_HIGH_TRUST if (editor.staff or editor.trust_level >= 2) else GRACE_DIFF
            in_grace = (editor.username.lower() == post.username.lower() and not reason
                        and (now - (post.last_version_at or post.created_at)).total_seconds() < GRACE_SECONDS
                        and _diff_size(post.raw, raw) <= limit)
            if self.limits:
                self.write_limits.check_edit(editor, self.topics[post.topic_id], post, in_grace,
                                             self.seconds())
            post.raw = raw
            post.updated_at = now
            if post.hidden and editor.username.lower() == post.username.lower():
                post.hidden = False  # PostRevisor#remove_flags_and_unhide_post: its author's edit
            if in_grace:
                post.versions[-1] = raw
            else:
                post.version += 1
                post.last_version_at = now
                post.versions.append(raw)
            self._tell("revised", self.topics[post.topic_id], post)
            return post

    def delete(self, post: Post, actor: User) -> None:
        with self.lock:
            if actor.username.lower() == post.username.lower() and post.post_number > 1:
                post.raw = SELF_DELETED
                post.user_deleted = True
                post.version += 1
                post.versions.append(SELF_DELETED)
                post.updated_at = self.clock.now()
            elif actor.staff:
                post.deleted_at = self.clock.now()
            else:
                raise errors(403, "You are not permitted to view the requested resource.",
                             "invalid_access")
            self._tell("deleted", self.topics[post.topic_id], post)

    def set_status(self, topic: Topic, actor: User, status: str, enabled: bool) -> None:
        if not actor.staff:
            raise errors(403, "You are not permitted to view the requested resource.",
                         "invalid_access")
        with self.lock:
            if status not in ("closed", "archived", "visible", "pinned", "pinned_globally"):
                raise errors(400, "You supplied invalid parameters to the request: status",
                             "invalid_parameters")
            if status in ("closed", "archived", "visible"):
                setattr(topic, status, enabled)
            code = f"{status}.{'enabled' if enabled else 'disabled'}"
            self.append(topic, actor.username, "", self.clock.now(), post_type=3,
                        action_code=code)


def _diff_size(old: str, new: str) -> int:
    prefix = 0
    while prefix < min(len(old), len(new)) and old[prefix] == new[prefix]:
        prefix += 1
    return max(len(old), len(new)) - prefix


def parse_time(value) -> datetime | None:
    if not value:
        return None
    try:
        parsed = datetime.fromisoformat(str(value))
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
