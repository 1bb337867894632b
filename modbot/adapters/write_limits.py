"""Theory of operation: the limits Discourse puts on a non-staff account's writing, as the
outbox (outbox.py) meets them. Staff are exempt from all of them; the limits follow the
account, whatever key it posts with.

- **New conversations a day** (`max_personal_messages_per_day`, 20): once spent (a 429 of
  hours on opening one), only the rows that open conversations wait (`_pm_limit`).
- **The gap between new topics** (`rate_limit_create_topic`, 15 s: `topic_spacing`), the floor
  of a deal's pace: once a gap is over, the first new conversation due goes first (each thread
  keeps its order), and a reply that would push the next one later (the gap ends within the
  gap between posts) waits for it (`conversations_first`, `holds_for`).

- **Three replies in a row** (PostValidator's `max_consecutive_replies`, in a topic the bot did
  not open): the next post joins the bot's last one by an edit that keeps each part's marker;
  one too long to join waits for another author's post, never dropped.
- **Slow mode** (a topic's `slow_mode_seconds`; PostCreator#valid? refuses with "This topic is
  in slow mode.", which names no wait): a refused reply reads the topic once (its view shows
  `slow_mode_seconds` and the bot's own `user_last_posted_at`) and waits until the topic
  allows the next post; its thread waits in order, other threads go on. From then on, when
  that topic's turn comes, the posts of the thread that are due go out joined in one post
  (each part with its marker), so one slow-mode slot carries them all.
- **Edits a day** (lib/edit_rate_limiter.rb: 30 new versions a day below trust level 2, ×1.5,
  ×2, ×3 at 2, 3, 4; the count starts again with the forum's date). One daily plan covers every
  post the bot keeps up to date (running counts, sign-up lists): an edit goes out only while
  the edits made today stay within `planned(now)`, a quarter of the day's allowance at
  midnight growing evenly to all of it (less a margin) at the day's end; an edit past the plan,
  or refused by the forum (a 429: the day's edits spent; the plan then takes the forum's count
  as its own, so a restart does not try again), goes out as a new post, which later edits
  then rewrite; a fourth reply in a row that cannot join the last waits only until another
  author posts in the topic (the bot's read of that post lets it go: the store's
  `another_author_posted`); a revision of the thread index (kind "revise",
  app/posting/thread_index.py) uses at most half the plan (`INDEX_SHARE`) and, past it, waits for room instead. So a 48-hour
  day never meets the limit, and a refusal never holds a post: each queued post keeps its own
  next attempt.

A limit met is reported once to its game's Storytellers through `on_limit(row, kind, seconds)`
("slow_mode", "edit_limit"), with what would lift it. Times: the wall clock; a wait read from
the forum is never longer than the topic's own slow-mode seconds.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from .budget import DAY
from .forum import OverBudget, PermanentError, TransientError
from .forum_port import ForumPort
from .markers import with_marker
from .outgoing import Batch
from .port import ForumPost, forum_time
from .store import OutboxRow
from .store_port import OutboxStore

log = logging.getLogger("modbot.adapters.outbox")
MAX_CONSECUTIVE = 3  # Discourse's max_consecutive_replies (non-staff, in others' topics)
CONSECUTIVE_WAIT = 300.0  # seconds before a reply too long to join looks again
MAX_RAW = 32000  # Discourse's max_post_length
SEPARATOR = "\n\n---\n\n"  # between the parts of a merged post
SLOW_FLOOR = 5.0  # seconds: the least wait after a slow-mode refusal
EDITS_PER_DAY = 30  # Discourse's max_edits_per_day
EDIT_MULTIPLIERS = {2: 1.5, 3: 2.0, 4: 3.0}  # tlN_additional_edits_per_day_multiplier
EDIT_MARGIN = 2  # edits a day left to a Storyteller's or a moderator's hand
INDEX_SHARE = 0.5  # the part of the day's edit plan the thread index may use
MARKER_ROOM = 100  # characters a part's marker and picture address may add to its raw


def edits_per_day(staff: bool, trust_level: int | None) -> int | None:
    """The account's new versions a day (lib/edit_rate_limiter.rb); None: staff, no limit."""
    if staff:
        return None
    return int(EDITS_PER_DAY * EDIT_MULTIPLIERS.get(trust_level or 0, 1.0))


def topic_spacing(staff: bool, trust_level: int | None) -> float:
    """Seconds between the account's new topics and conversations: Discourse's
    `rate_limit_create_topic` (15 s), `rate_limit_new_user_create_topic` at trust level 0
    (120 s); staff are not limited (config/site_settings.yml, lib/rate_limiter.rb). Counted
    from the forum's answer to the last one (after the forum's own mark: no margin needed but
    a tenth of a second for the forum's clock to tick past the limiter's)."""
    if staff:
        return 0.0
    return 120.1 if trust_level == 0 else 15.1


def planned(allowance: int, seconds_into_day: float) -> int:
    """How many edits the plan allows by this moment of the forum's day."""
    usable = max(allowance - EDIT_MARGIN, 1)
    burst = max(usable // 4, 1)
    return burst + int((usable - burst) * min(seconds_into_day / DAY, 1.0))


def _day(wall: float) -> tuple[str, float]:
    """The forum's date (UTC) at wall time `wall`, and the seconds into it."""
    moment = datetime.fromtimestamp(wall, UTC)
    midnight = moment.replace(hour=0, minute=0, second=0, microsecond=0)
    return moment.date().isoformat(), (moment - midnight).total_seconds()


class WriteLimits:
    # what it uses of the outbox (outbox.py sets them)
    client: ForumPort
    store: OutboxStore
    bot_id: int | None
    merge_replies: bool
    wall: Callable[[], float]
    last_sent: float
    spacing: float
    conversation_spacing: float
    new_pms_until: float
    on_limit: Callable[[OutboxRow, str, float], None] | None
    on_pm_limit: Callable[[OutboxRow, float], None] | None
    _with_pictures: Callable[[str], str]
    _deliver: Callable[[OutboxRow], bool]
    replaced_note: Callable[[OutboxRow, OutboxRow, str | None], str] | None
    on_lost_post: Callable[[OutboxRow, str], None] | None

    def _limits_init(self, edits_a_day: int | None) -> None:
        self.edits_a_day = edits_a_day  # None: staff (or unknown): edits are never planned
        self.edits_blocked_until = 0.0  # wall time: the forum refused an edit for the day
        self.slow_until: dict[int, float] = {}  # topic id -> wall time it allows a post

    # -- edits a day ------------------------------------------------------------------------

    def edit_allowed(self, share: float = 1.0) -> bool:
        """The plan (`share` of it: a revision of the thread index takes only what the running
        counts leave) has room for one more edit now, and the forum has not refused one today."""
        now = self.wall()
        if now < self.edits_blocked_until:
            return False
        if self.edits_a_day is None:
            return True
        day, into = _day(now)
        return self._edits_made(day) < planned(self.edits_a_day, into) * share

    def _edits_made(self, day: str) -> int:
        return self.store.cursor(f"edits:{day}") or 0

    def edited(self) -> None:
        """Count one edit made today (the store keeps the day's count across a restart)."""
        day, _ = _day(self.wall())
        self.store.commit(Batch(cursors={f"edits:{day}": self._edits_made(day) + 1}))

    def edits_refused(self, row: OutboxRow, exc: TransientError) -> None:
        """The forum's edit limit is reached: every edit is a new post until its date rolls
        over (or the 429's wait ends, if sooner)."""
        now = self.wall()
        day, into = _day(now)
        self.edits_blocked_until = now + min(exc.retry_after, DAY - into + 1)
        if self.edits_a_day is not None:  # the forum's count is higher than the bot's own (a
            self.store.commit(Batch(cursors={  # restart, another game on the same account):
                f"edits:{day}": max(self._edits_made(day), self.edits_a_day)}))  # learnt
        log.warning("outbox %s: the forum's edits for the day are spent (%s): edits go out as "
                    "new posts for %.0f s", row.key, exc, self.edits_blocked_until - now)
        self._tell(row, "edit_limit", self.edits_blocked_until - now)

    def _anew(self, row: OutboxRow, target: OutboxRow, why: str | None) -> bool:
        """Post the edit as a new post in the thread the bot put the first one in, and make
        that new post the one later edits rewrite; when the post was deleted, moved or hidden
        (`why`), the Storytellers are told (once)."""
        if why is not None:
            log.warning("outbox %s: the post it edits (%s) was %s by someone else: posting "
                        "anew", row.key, target.post_id, why)
        row.kind, row.topic_id = "post", target.topic_id or row.topic_id
        if self.replaced_note is not None and target.post_number:  # readers see two counts:
            note = self.replaced_note(row, target, why)  # the new one says which it replaces
            if note:
                row.raw = f"{row.raw.rstrip()}\n\n{note}"
        sent = self._deliver(row)
        fresh = self.store.row(row.key)
        if fresh is not None and fresh.post_id:
            self.store.mark_sent(target, fresh.post_id, fresh.topic_id, fresh.post_number)
        if self.on_lost_post is not None and why is not None:
            self.on_lost_post(row, why)
        return sent

    # -- new conversations at the forum's pace ---------------------------------------------

    def conversations_first(self, rows: list[OutboxRow]) -> tuple[list[OutboxRow], set[int]]:
        """The rows in the order to try them, and the ids of those that open a conversation.
        A non-staff bot's deal goes at the forum's gap between new topics (`new_pms_until`),
        the floor of its pace: when the gap is over, the first conversation due goes first
        (its thread's first row: each thread keeps its order), and replies fill the gaps."""
        now = self.wall()
        if not rows or not (self.conversation_spacing or self.new_pms_until > now):
            return rows, set()
        unsent = [r for r in rows if r.kind == "post" and not r.topic_id]
        have = self.store.threads_with_topic({r.thread for r in unsent})
        opening = [r for r in unsent if r.thread not in have]
        heads = {r.thread: r for r in reversed(opening)}  # each thread's first
        first = next((r for r in opening if heads[r.thread] is r and r.not_before <= now), None)
        if first is not None and self.new_pms_until <= now:
            rows = [first, *(r for r in rows if r is not first)]
        return rows, {r.id for r in opening}

    def holds_for(self, opening: set[int], row: OutboxRow) -> bool:
        """A reply held back while a conversation waits for the gap between new topics to end
        within the gap between posts (`spacing`): sent now, it would push that one later."""
        return bool(opening) and row.kind == "post" and \
            self.new_pms_until - self.wall() < self.spacing

    def _pm_limit(self, row: OutboxRow, exc: TransientError) -> None:
        """A non-staff account's new conversations a day are spent (Discourse's
        max_personal_messages_per_day): those rows wait until the forum's day allows one
        more; everything else, posts in existing conversations included, goes on."""
        log.warning("outbox %s: the forum's daily limit on new private conversations is spent; "
                    "new conversations wait %.0f s, the rest goes on", row.key, exc.retry_after)
        self.new_pms_until = self.wall() + exc.retry_after
        self.store.defer(row, exc.retry_after, str(exc), self.wall())
        if self.on_pm_limit is not None:
            self.on_pm_limit(row, exc.retry_after)

    # -- three replies in a row -------------------------------------------------------------

    def _third_own_reply(self, topic_id: int, view: dict[str, Any] | None = None) -> ForumPost | None:
        """The bot's last post, when the topic's last MAX_CONSECUTIVE regular posts are all the
        bot's and the topic is not its own: Discourse refuses a non-staff account another reply
        then (PostValidator's max_consecutive_replies), so the next post joins that one. The
        topic is read only when the bot's own last three posts there, as the store knows them,
        came one after another (otherwise someone posted between: no read)."""
        if view is None:
            own = self.store.own_numbers(topic_id, MAX_CONSECUTIVE)
            if len(own) < MAX_CONSECUTIVE or own[0] - own[-1] != MAX_CONSECUTIVE - 1:
                return None
            view = self.client.topic_tail(topic_id)
        if view.get("user_id") == self.bot_id:
            return None  # a topic the bot opened: no limit
        posts = [ForumPost.from_json(p) for p in view["post_stream"]["posts"]]
        regular = [p for p in posts if p.by_someone and not p.deleted_at]
        run = regular[-MAX_CONSECUTIVE:]
        if len(run) < MAX_CONSECUTIVE or any(p.user_id != self.bot_id for p in run):
            return None
        return run[-1]

    def _refused_reply(self, row: OutboxRow, topic_id: int, raw: str,
                       refused: PermanentError) -> bool:
        """A reply the forum refused, read against the topic (one read): the fourth reply in a
        row (joined, or waiting for another author), or slow mode (waiting for the topic's
        time). Any other refusal stands (`PermanentError`, raised again)."""
        view = None if ":pm:" in row.thread else self.client.topic_tail(topic_id)
        if view is None:
            raise refused
        host = self._third_own_reply(topic_id, view)
        if host is not None:
            return self._fourth_reply(row, host, raw)
        wait = _slow_mode_wait(view, self.wall())
        if wait is None:
            raise refused
        self.slow_until[topic_id] = self.wall() + wait
        self._tell(row, "slow_mode", float(view.get("slow_mode_seconds") or wait))
        raise TransientError(f"the topic is in slow mode: the next post in {wait:.0f}s",
                             retry_after=wait)

    def _fourth_reply(self, row: OutboxRow, host: ForumPost, raw: str) -> bool:
        """Discourse's max_consecutive_replies, met by a bot that lost its staff rights since
        it started: from now on it joins its replies as a non-staff bot does, this one first,
        or, too long to join, waits for another author's post."""
        if not self.merge_replies:
            log.warning("outbox %s: the forum refused a fourth reply in a row: the bot is not "
                        "staff any more; its replies join its last post from now on", row.key)
            self.merge_replies = True
        if len(host.raw) + len(SEPARATOR) + len(raw) <= MAX_RAW and self.edit_allowed():
            return self._append(row, host, raw)
        raise TransientError("a fourth reply in a row that cannot join the bot's last post "
                             "(too long, or no edit left today): waiting for another author's "
                             "post", retry_after=CONSECUTIVE_WAIT)

    def _append(self, row: OutboxRow, host: ForumPost, raw: str) -> bool:
        """Add this row to the bot's last post (its marker kept beside the others)."""
        try:
            self.client.update_post(host.id, host.raw.rstrip() + SEPARATOR + raw,
                                    "more from the bot (the forum allows 3 replies in a row)")
        except TransientError as exc:
            if exc.status != 429 or exc.is_shared:
                raise
            self.edits_refused(row, exc)
            raise TransientError("a fourth reply in a row, and the day's edits are spent: "
                                 "waiting for another author's post",
                                 retry_after=CONSECUTIVE_WAIT) from exc
        except PermanentError as exc:  # slow mode refuses edits outside the grace period
            raise TransientError(f"a fourth reply in a row the forum will not let the bot join "
                                 f"({exc}): waiting for another author's post",
                                 retry_after=CONSECUTIVE_WAIT) from exc
        self.edited()
        self.store.mark_sent(row, host.id, host.topic_id, host.post_number)
        self.last_sent = self.wall()
        return True

    # -- slow mode --------------------------------------------------------------------------

    def slow_wait(self, topic_id: int | None) -> float:
        """Seconds until the topic allows the bot's next post (0: now, or no slow mode seen)."""
        if not topic_id or topic_id not in self.slow_until:
            return 0.0
        return max(self.slow_until[topic_id] - self.wall(), 0.0)

    def joined_in_slow_mode(self, row: OutboxRow, topic_id: int) -> list[OutboxRow]:
        """In a topic seen in slow mode, the rows of this thread that go out with `row` in one
        post: the posts queued right after it, due now, while they fit (an edit or a status
        change ends the run: rows of a thread go in order)."""
        if topic_id not in self.slow_until:
            return [row]
        now = self.wall()
        joined, size = [row], len(row.raw)
        for other in self.store.pending():
            if other.thread != row.thread or other.id <= row.id:
                continue
            size += len(SEPARATOR) + len(other.raw) + MARKER_ROOM
            if other.kind != "post" or other.not_before > now or other.attempts or \
                    size > MAX_RAW:
                break
            joined.append(other)
        return joined

    def _post_joined(self, rows: list[OutboxRow], topic_id: int, head: str) -> bool:
        """One post carrying several queued rows of a thread in slow mode, each part with its
        marker: after a crash each row finds its marker in it."""
        for other in rows[1:]:
            self.store.mark_attempt(other)
        raw = SEPARATOR.join([head, *(self._with_pictures(with_marker(r.raw, r.key))
                                      for r in rows[1:])])
        try:
            result = self.create_refusable(rows, raw, topic_id=topic_id) or {}
        except PermanentError as refused:
            return self._refused_reply(rows[0], topic_id, head, refused)
        for row in rows:
            self.store.mark_sent(row, result.get("id"), result.get("topic_id") or topic_id,
                                 result.get("post_number"))
        self.last_sent = self.wall()
        return True

    def create_refusable(self, rows: list[OutboxRow], raw: str, **where: Any) -> Any:
        """Create the post; when the forum refuses it outright (a 4xx: nothing was made), the
        attempts just marked are forgotten, so no marker search follows and the rows may join
        others later."""
        try:
            return self.client.create_post(raw, **where)
        except (TransientError, PermanentError) as exc:  # refused, or never sent (the budget)
            if isinstance(exc, OverBudget) or (exc.status is not None and 400 <= exc.status < 500):
                for row in rows:
                    self.store.unmark_attempt(row)
            raise

    def _tell(self, row: OutboxRow, kind: str, seconds: float) -> None:
        if self.on_limit is not None:
            self.on_limit(row, kind, seconds)


def _slow_mode_wait(view: dict[str, Any], now: float) -> float | None:
    """The wait the topic's view implies for the bot's next post (None: not slow mode's
    refusal: the topic has none, or the bot never posted there, which slow mode requires)."""
    seconds = float(view.get("slow_mode_seconds") or 0)
    last = view.get("user_last_posted_at")
    if seconds <= 0 or not last:
        return None
    try:
        then = forum_time(str(last)).timestamp()
    except ValueError:
        return seconds
    return min(seconds, max(then + seconds - now, SLOW_FLOOR))
