"""Theory of operation: two of Discourse's limits on what a non-staff account may write.

Slow mode (a topic's `slow_mode_seconds`, set by staff through `PUT /t/{id}/slow_mode.json`,
TopicsController#set_slow_mode):
- PostCreator#valid? (lib/post_creator.rb) refuses a reply by a user
  `Guardian#affected_by_slow_mode?` (lib/guardian/topic_guardian.rb: the topic has slow mode,
  the user is a human and not staff) whose `TopicUser.last_posted_at` in that topic is less
  than `slow_mode_seconds` ago: 422 "This topic is in slow mode." (config/locales/
  server.en.yml `slow_mode_enabled`), which names no wait;
- PostRevisor#revise! (lib/post_revisor.rb) refuses such a user's edit outside the editing
  grace period while `slow_mode_prevents_editing` is on (its default): 422
  `cannot_edit_on_slow_mode`;
- TopicViewSerializer shows the topic's `slow_mode_seconds` and the viewer's own
  `user_last_posted_at`, from which the wait can be read.

The edit rate limiter (lib/edit_rate_limiter.rb, counted by PostRevisor's `perform_edit` for
an edit that makes a new version): `max_edits_per_day` (30) a day per editor, times
`tlN_additional_edits_per_day_multiplier` at trust level 2, 3, 4 (1.5, 2, 3); staff are never
limited (RateLimiter skips staff, lib/rate_limiter.rb); the limiter's key ends with the date,
so a new day starts a new count. Over it: 429 "You’ve performed this action too many times.
Please wait N hours before trying again." with `wait_seconds`, the sliding window's wait.

Times are the forum's clock (`Forum.seconds`), so a rehearsal's limits keep its pace.
"""

from __future__ import annotations

from datetime import UTC, datetime

from .errors import TOO_MANY, create_error, errors, rate_limited
from .models import Post, Topic, User

SLOW_MODE = "This topic is in slow mode."
CANNOT_EDIT_ON_SLOW_MODE = ("This topic is in slow mode. To encourage thoughtful, considered "
                            "discussion, editing old posts in this topic is currently not "
                            "allowed during slow mode.")
MAX_EDITS_PER_DAY = 30
EDIT_MULTIPLIERS = {2: 1.5, 3: 2.0, 4: 3.0}  # tlN_additional_edits_per_day_multiplier
DAY = 86400


def edits_per_day(user: User, base: int = MAX_EDITS_PER_DAY) -> int | None:
    """How many new versions a day the account may make (None: staff, no limit)."""
    if user.staff:
        return None
    return int(base * EDIT_MULTIPLIERS.get(user.trust_level, 1.0))


class WriteLimits:
    """The sandbox forum's slow-mode topics and its editors' day of edits."""

    def __init__(self) -> None:
        self.slow_mode: dict[int, int] = {}  # topic id -> seconds
        self.last_posted: dict[tuple[int, int], float] = {}  # (user id, topic id) -> forum s
        self.edits: dict[tuple[int, str], list[float]] = {}  # (user id, date) -> forum s
        self.max_edits_per_day = MAX_EDITS_PER_DAY

    def set_slow_mode(self, actor: User, topic: Topic, seconds: int) -> None:
        if not actor.staff:
            raise errors(403, "You are not permitted to view the requested resource.",
                         "invalid_access")
        if seconds > 0:
            self.slow_mode[topic.id] = seconds
        else:
            self.slow_mode.pop(topic.id, None)

    def affected(self, user: User, topic: Topic) -> bool:
        return self.slow_mode.get(topic.id, 0) > 0 and not user.staff

    def check_reply(self, user: User, topic: Topic, now: float) -> None:
        """PostCreator#valid?'s slow-mode check (raises the 422)."""
        last = self.last_posted.get((user.id, topic.id))
        if self.affected(user, topic) and last is not None and \
                now < last + self.slow_mode[topic.id]:
            raise create_error(SLOW_MODE)

    def posted(self, user: User, topic: Topic, now: float) -> None:
        self.last_posted[(user.id, topic.id)] = now

    def check_edit(self, editor: User, topic: Topic, post: Post, in_grace: bool,
                   now: float) -> None:
        """PostRevisor#revise!'s slow-mode refusal, then the edit rate limiter for an edit that
        makes a new version (raises the 422 or the 429)."""
        if self.affected(editor, topic) and not in_grace:
            raise errors(422, CANNOT_EDIT_ON_SLOW_MODE)
        limit = edits_per_day(editor, self.max_edits_per_day)
        if in_grace or limit is None:
            return
        key = (editor.id, datetime.fromtimestamp(now, UTC).date().isoformat())
        made = [t for t in self.edits.get(key, []) if now - t < DAY]
        if len(made) >= limit:
            wait = int(DAY - (now - made[0])) + 1
            hours = max(1, wait // 3600)
            raise rate_limited(TOO_MANY.format(f"{hours} hour{'s' if hours > 1 else ''}"), wait)
        self.edits[key] = [*made, now]

    def topic_fields(self, viewer: User | None, topic: Topic) -> dict:
        """TopicViewSerializer's slow-mode fields for this viewer."""
        last = self.last_posted.get((viewer.id, topic.id)) if viewer else None
        return {"slow_mode_seconds": self.slow_mode.get(topic.id, 0),
                "user_last_posted_at": None if last is None else
                datetime.fromtimestamp(last, UTC).isoformat().replace("+00:00", "Z")}
