"""Theory of operation: deliver what the bot owes the forum, each post exactly once.

Every outbox row carries a deterministic key, and the raw sent ends with the marker
`<!-- modbot:KEY -->`. Before a send, the attempt is recorded (committed). A row that was
attempted before (the process may have died after the forum accepted it, or the answer timed
out) is first looked for on the forum by its marker, in the bot's own posts only (a player may
copy a marker; in PMs, as far back as the row's first attempt); if found it is marked sent, not
resent (own_posts.py).
Discourse also memoizes identical API creates for 120 s, a second guard.

A row of kind "edit" rewrites an earlier post (a running vote count): it is idempotent, so it
is simply sent again after an unknown fate, and the post keeps its marker; kind "revise" (the
thread index) too, but it waits for room in the day's edit plan rather than post anew.

A post that embeds a picture (the town square of a vote count) names it by its hash; the
picture's bytes wait in the store, and just before the post is sent the picture is uploaded
(once: its `upload://` address is kept; Discourse answers a repeated upload of the same bytes
with the same upload, so a crash between the two never makes a second one). An upload that
fails leaves the picture out and the post goes on; only a 429 holds the post back with it.

Rows of one thread (a topic, or one PM conversation) go out in order; a thread whose head
cannot be sent now is skipped until later, and other threads and games go on. A 429 defers by
`Retry-After`: everything, when it is the key's budget (a rate-limit error code), or only that
thread, when it is the account's own limit on an action (posting too quickly); 5xx, timeouts
and dropped connections back off; a permanent failure (422...) is marked failed, never
retried blindly, and reported to the Storytellers. A private post goes into an existing
conversation only if the guard allows it (nobody there the game did not put there:
app/posting/conversation_guard.py); otherwise it opens a new one; who is in a conversation changes by
rows of kind "members" (members.py). When a non-staff bot's new conversations for the day are
spent (a 429 of hours on opening one), only the rows that open conversations wait; the
Storytellers are told (`on_pm_limit`). A non-staff bot's other limits (write_limits.py): it
never makes a fourth reply in a row in a topic it did not open (the post joins the bot's last
one, by an edit that keeps every part's marker: `merge_replies`; a running count's edit of
one part rewrites the merged post with the other parts kept); a post refused for slow mode
waits for the topic's time, and the thread's queued posts then go out joined; an edit past
the day's plan, or refused for the day, goes out as a new post; a new conversation waits the
forum's gap between new topics (`conversation_spacing`); while the account is silenced, what
needs its public voice waits (standing.py). A key the forum refuses (revoked: 403 on every
request) holds every row where it is, unsent and unfailed, and the outbox tries again after
a backoff that doubles up to `max_backoff`; a send whose fate was unknown is looked for by
its marker first, as after any failure, so nothing goes out
twice once the key works. Nothing here sleeps: spacing between posts is enforced by skipping
until the next drain.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable
from typing import Any

from .budget import Priority
from .forum import ConfigurationError, CredentialsRejected, ForumError, NotFound, OverBudget, PermanentError, TransientError
from .forum_port import ForumPort
from .markers import marker, with_marker
from .members import change_members
from .outgoing import Batch, Outgoing
from .own_posts import OwnPosts
from .port import ForumPost
from .standing import Standing, is_private_reply
from .store import OutboxRow
from .store_port import OutboxStore
from .write_limits import INDEX_SHARE, MAX_RAW, SEPARATOR, WriteLimits

__all__ = ["MAX_RAW", "Outbox", "marker", "with_marker"]

log = logging.getLogger("modbot.adapters.outbox")
MAX_BACKOFF = 60  # seconds; 1, 2, 4, ... after 5xx, timeouts and dropped connections
LONG_WAIT = 120  # seconds: a 429 longer than this on a new conversation is the daily PM limit
REVISE_WAIT = 900.0  # seconds an index revision waits for room in the day's edit plan


class EditPlanFull(TransientError):
    """The thread index's revision waits for room in the day's edit plan: planned, not a
    fault (logged once a row, at INFO)."""


# A picture the raw embeds by its hash until the outbox uploads it (see _with_pictures).
PICTURE = re.compile(r"!\[([^\]]*)\]\(modbot-picture:([0-9a-f]{40})\)")


class Outbox(WriteLimits, OwnPosts):
    def __init__(self, client: ForumPort, store: OutboxStore, *, spacing: float = 0.0,
                 on_failure: Callable[[OutboxRow, str], Outgoing | None] | None = None,
                 wall: Callable[[], float] = time.time, max_backoff: float = MAX_BACKOFF,
                 guard: Callable[[OutboxRow, int], bool] | None = None,
                 on_pm_limit: Callable[[OutboxRow, float], None] | None = None,
                 bot_id: int | None = None, merge_replies: bool = False,
                 recipients_now: Callable[[OutboxRow], str | None] | None = None,
                 on_lost_post: Callable[[OutboxRow, str], None] | None = None,
                 replaced_note: Callable[[OutboxRow, Any, str | None], str] | None = None,
                 edits_a_day: int | None = None,
                 on_limit: Callable[[OutboxRow, str, float], None] | None = None,
                 conversation_spacing: float = 0.0,
                 on_opened: Callable[[OutboxRow, int], None] | None = None) -> None:
        self.conversation_spacing = conversation_spacing  # seconds between new conversations
        self._limits_init(edits_a_day)  # slow mode, edits a day (write_limits.py)
        self.on_limit = on_limit  # (row, kind, seconds): a forum limit delays the bot
        self.standing = Standing(client, wall, on_limit)  # silenced: public rows wait
        self.on_opened = on_opened  # (row, topic id): the bot opened a conversation
        self.bot_id = bot_id
        self.recipients_now = recipients_now  # (row) -> its recipients' names now, by id
        self.on_lost_post = on_lost_post  # (row, why): a post it edits was deleted/moved/hidden
        self.replaced_note = replaced_note  # (row, target, why) -> the words saying a post
        # made anew replaces the one it could not edit (the game's words: outbox_hooks.py)
        self.merge_replies = merge_replies  # non-staff: never a 4th consecutive reply
        self.guard = guard  # (row, topic id) -> False: not into that conversation (a new one)
        self.on_pm_limit = on_pm_limit  # (row, seconds): the daily limit on new PMs is spent
        self.new_pms_until = 0.0  # wall time until which no new conversation is opened
        self.ready_at = 0.0  # wall time when a row the last drain held back may go
        self.max_backoff = max_backoff
        self.client = client
        self.store = store
        self.spacing = spacing
        self.on_failure = on_failure  # (row, error) -> Outgoing | None, to tell the STs
        self.wall = wall
        self.last_sent = 0.0
        self.quiet_until = 0.0  # monotonic time: after a 429, no post before this
        self.refused = 0  # sends in a row the forum refused the key for (a revoked key)

    def drain(self, limit: int | None = None) -> int:
        """Send what can be sent now; return how many posts went out."""
        if time.monotonic() < self.quiet_until:
            return 0
        blocked: set[str] = set()
        sent = 0
        self.ready_at = float("inf")
        rows, opening = self.conversations_first(self.store.pending())
        for row in rows:
            if row.thread in blocked:
                continue
            if row.not_before > self.wall() or (limit is not None and sent >= limit):
                self.ready_at = min(self.ready_at, row.not_before)
                blocked.add(row.thread)
                continue
            if self.spacing and self.wall() - self.last_sent < self.spacing:
                self.ready_at = min(self.ready_at, self.last_sent + self.spacing)
                break
            if self.client.budget.wait_for(*self._requests_for(row, opening)):
                if row.kind != "revise":
                    break  # no token for a post now: the next drain goes on
                blocked.add(row.thread)  # the index's revision spends background room only
                continue
            if self.new_pms_until > self.wall() and (row.id in opening or self.holds_for(
                    opening, row)):
                self.ready_at = min(self.ready_at, self.new_pms_until)
                blocked.add(row.thread)  # waits for the forum's minute or day; others go on
                continue
            try:
                if self.standing.deliver(row, self.opens_conversation(row), self._deliver):
                    sent += 1
                self.refused = 0
            except OverBudget:
                break  # the budget ran out during the row: it is sent again, marker first
            except TransientError as exc:
                opens = exc.status == 429 and self.opens_conversation(row)
                if opens and exc.retry_after > LONG_WAIT:
                    self._pm_limit(row, exc)
                    blocked.add(row.thread)
                    continue
                if opens and not exc.is_shared:  # new topics too soon: none is tried before
                    self.new_pms_until = self.wall() + exc.retry_after
                wait = max(exc.retry_after, min(2 ** max(row.attempts - 1, 0), self.max_backoff))
                planned = isinstance(exc, EditPlanFull)  # not a fault: said once a row
                log.log(logging.DEBUG if planned and row.last_error == str(exc) else
                        logging.INFO if planned else logging.WARNING,
                        "outbox %s: %s; retry in %.0fs", row.key, exc, wait)
                self.store.defer(row, wait, str(exc), self.wall())
                blocked.add(row.thread)
                if exc.is_shared:  # the key's budget is spent: everything waits
                    self.quiet_until = time.monotonic() + exc.retry_after
                    break
            except CredentialsRejected as exc:
                self._key_refused(row, exc)
                break
            except (PermanentError, ConfigurationError) as exc:  # a 403 here: not allowed
                log.error("outbox %s failed for good: %s", row.key, exc)
                self.store.mark_failed(row, str(exc))
                self._report(row, str(exc))
                blocked.add(row.thread)
        return sent

    def _requests_for(self, row: OutboxRow, opening: set[int]) -> tuple[Priority | None, int]:
        """A private reply costs the guard's read too (an index revision, the check of its post,
        from background room): it goes when the minute has room for both."""
        if row.kind == "revise":
            return Priority.BACKGROUND, 2
        return None, 2 if is_private_reply(row, row.id in opening) else 1

    def opens_conversation(self, row: OutboxRow) -> bool:
        return row.kind == "post" and not (row.topic_id or self.store.thread_topic(row.thread))

    def _key_refused(self, row: OutboxRow, exc: CredentialsRejected) -> None:
        """The key is refused: every row waits (none is failed) and the next try comes after a
        backoff, 1 s doubling to `max_backoff`."""
        self.refused += 1
        wait = min(2.0 ** (self.refused - 1), self.max_backoff)
        self.store.defer(row, wait, str(exc), self.wall())
        self.quiet_until = time.monotonic() + wait

    def _deliver(self, row: OutboxRow) -> bool:
        topic_id = row.topic_id or self.store.thread_topic(row.thread)
        if row.kind in ("edit", "revise"):
            return self._edit(row, topic_id)
        if row.kind == "members":  # who is in a conversation (a substitute's seat)
            return change_members(self.client, self.store, row, topic_id)
        if wait := self.slow_wait(topic_id):  # slow mode: the topic's next post waits
            raise TransientError(f"the topic is in slow mode: the next post in {wait:.0f}s",
                                 retry_after=wait)
        if row.attempts > 0 and self._already_posted(row, topic_id):
            return False
        self.store.mark_attempt(row)
        if row.kind == "status":
            status, _, enabled = row.raw.partition(":")
            self.client.update_topic_status(topic_id or 0, status, enabled == "true")
            self.store.mark_sent(row, None, topic_id, None)
            return True
        if topic_id and self.guard is not None and not self.guard(row, topic_id):
            topic_id = None  # someone else is in that conversation: a fresh one
        raw = self._with_pictures(with_marker(row.raw, row.key))
        if topic_id and self.merge_replies and ":pm:" not in row.thread:
            host = self._third_own_reply(topic_id)
            if host is not None and len(host.raw) + len(SEPARATOR) + len(raw) <= MAX_RAW \
                    and self.edit_allowed():
                return self._append(row, host, raw)
        if topic_id:
            joined = self.joined_in_slow_mode(row, topic_id)
            if len(joined) > 1:
                return self._post_joined(joined, topic_id, raw)
            try:
                result = self.create_refusable([row], raw, topic_id=topic_id)
            except PermanentError as refused:
                return self._refused_reply(row, topic_id, raw, refused)
        else:
            recipients = self.recipients_now(row) if self.recipients_now is not None else None
            result = self.create_refusable([row], raw, title=row.title,
                                           archetype="private_message",
                                           target_recipients=recipients or row.recipients)
            # the forum's gap between a regular account's new topics: the next waits for it
            self.new_pms_until = self.wall() + self.conversation_spacing
            if self.on_opened is not None and (result or {}).get("topic_id"):
                self.on_opened(row, result["topic_id"])
        result = result or {}
        if result.get("action") == "enqueued":
            log.warning("outbox %s: queued for approval by the forum", row.key)
        self.store.mark_sent(row, result.get("id"), result.get("topic_id") or topic_id,
                             result.get("post_number"))
        self.last_sent = self.wall()
        return True

    def _edit(self, row: OutboxRow, topic_id: int | None) -> bool:
        """Rewrite the post `row.edit_of` names (idempotent: a retry edits again; the post keeps
        its marker). If that post could not be made, this one is posted instead; so it is when
        the day's edit plan has no room, or the forum refuses the edit (write_limits.py), and
        later edits rewrite that new post (a "revise" row waits instead)."""
        target = self.store.row(row.edit_of or "")
        if target is None or target.status == "failed" or target.post_id is None:
            row.kind = "post"  # nothing to edit: the count goes out as a post of its own
            return self._deliver(row)
        lost = self._where_it_is_not(target)
        if lost is not None:  # deleted, moved or hidden by staff: a new post, the later edits
            return self._anew(row, target, lost)  # go to it
        revise = row.kind == "revise"  # the thread index: waits for room, never posted anew
        if not self.edit_allowed(INDEX_SHARE if revise else 1.0):  # planned (or spent)
            if revise:
                raise EditPlanFull("the day's edit plan has no room for the index",
                                   retry_after=REVISE_WAIT)
            return self._anew(row, target, None)
        raw = self._with_pictures(self._composed(target, row.raw))
        self.store.mark_attempt(row)
        try:
            self.client.update_post(target.post_id, raw, "the thread index" if revise else "the running vote count")
        except TransientError as exc:
            if exc.status != 429 or exc.is_shared:
                raise
            self.edits_refused(row, exc)  # the forum's edits for the day are spent
            if revise:
                raise
            return self._anew(row, target, None)
        except PermanentError as exc:  # refused (slow mode's edits): the count goes out anew
            if revise:  # the index: the forum's answer stands (the row fails, said)
                raise
            log.warning("outbox %s: the forum refused the edit (%s); posting it", row.key, exc)
            return self._anew(row, target, None)
        self.edited()
        self.store.mark_sent(row, target.post_id, target.topic_id or topic_id, target.post_number)
        self.last_sent = self.wall()
        return True

    def _where_it_is_not(self, target: OutboxRow) -> str | None:
        """Why the post the bot keeps up to date is not where it put it (None: it is): a
        staff bot's edit of a deleted post succeeds (PostsController#update reads
        `with_deleted` for staff), after a move (PostMover) it lands in the other topic, and
        editing a hidden post unhides it (PostRevisor#remove_flags_and_unhide_post). One read
        (`GET /posts/ID.json`) before each edit."""
        try:
            post = ForumPost.from_json(self.client.post_by_id(target.post_id or 0))
        except NotFound:
            return "deleted"
        if post.deleted_at:
            return "deleted"
        if target.topic_id and post.topic_id != target.topic_id:
            return "moved"
        return "hidden" if post.hidden else None

    def _composed(self, target: OutboxRow, raw: str) -> str:
        """The post `target` was sent in, with its part now `raw` (a merged post keeps the
        other rows' parts, each with its marker)."""
        parts = self.store.rows_in_post(target.post_id) if target.post_id else []
        if len(parts) < 2:
            return with_marker(raw, target.key)
        return SEPARATOR.join(with_marker(raw if p.key == target.key else self.store.latest_raw(p),
                                          p.key) for p in parts)

    def _with_pictures(self, raw: str) -> str:
        """Each `![ALT|WxH](modbot-picture:SHA1)` the raw embeds, pointed at its upload (made
        now if it was not before); a picture that cannot be uploaded is left out, so the post
        goes without it rather than waiting or being lost."""
        def embed(match: re.Match[str]) -> str:
            address = self._uploaded(match.group(2))
            return f"![{match.group(1)}]({address})" if address else ""
        return PICTURE.sub(embed, raw)

    def _uploaded(self, sha1: str) -> str | None:
        picture = self.store.picture(sha1)
        if picture is None:
            return None
        if picture.short_url:
            return picture.short_url
        try:
            answer = self.client.upload_picture(bytes(picture.png), f"town-square-{sha1[:12]}.png")
        except TransientError as exc:
            if exc.status == 429:  # the shared budget is spent: the post waits with it
                raise
            log.warning("picture %s not uploaded (%s): posting without it", sha1[:12], exc)
            return None
        except ForumError as exc:
            log.warning("picture %s refused (%s): posting without it", sha1[:12], exc)
            return None
        short_url = answer.get("short_url") if isinstance(answer, dict) else None
        if short_url:
            self.store.mark_uploaded(sha1, short_url)
        return short_url

    def _report(self, row: OutboxRow, error: str) -> None:
        if self.on_failure is None:
            return
        outgoing: Outgoing | None = self.on_failure(row, error)
        if outgoing is not None:
            self.store.commit(Batch(outbox=[outgoing]))
