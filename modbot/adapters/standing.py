"""Theory of operation: a silenced bot waits, it does not fail.

A moderator may silence a non-staff account (Admin::UsersController#silence; a staff account
cannot be silenced). Until the silence ends the forum refuses its posts in public topics (422
`topic_not_found`), its new public topics (403), its new private messages to anyone not staff
(422 `cant_send_pm`) and every edit of its own posts (403), while replies in the private
conversations it is in still go (lib/guardian/post_guardian.rb, `can_create_post_in_topic?`
and `can_edit_post?`; the sandbox's silence.py). None of those answers says "silenced", so a
refusal is read against the account's own session (`GET /session/current.json`, one request
per refusal): a non-staff account whose `can_create_topic` is false may not write in public.

Then the refused row, and every row that needs the public voice (a post in a topic, an edit, a
status change, a new conversation), waits until the silence ends: the session says when
(`silenced_till`, on the forum's clock, read against the forum's own time: the `Date` of its
answers, `ForumClient.forum_now`), so the rows are looked at again every `SOON` seconds and go
the moment the forum's time passes it, with no request spent meanwhile; and since a moderator
may unsilence it sooner, one is tried again every `RECHECK` seconds anyway (a refusal asks
the session again). Its thread keeps its order, and replies in
existing conversations (players' night answers, a death, a prod, the Storytellers' console)
go on at once. Nothing is marked failed, nothing is sent twice (the refused create made
nothing). The Storytellers are told once per silence (`on_limit(row, "silenced", seconds)`),
in their own conversation, which a silenced account may still reply in, with when it ends.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from .forum import ConfigurationError, PermanentError, TransientError
from .forum_port import ForumPort
from .port import forum_time
from .store import OutboxRow

log = logging.getLogger("modbot.adapters.outbox")
RECHECK = 300.0  # seconds a silenced account's public rows wait, the silence's end unknown
SOON = 15.0  # seconds between looks at whether the forum's time has passed the silence's end


def is_private_reply(row: OutboxRow, opens: bool) -> bool:
    """A post into a private conversation the bot is already in: allowed while silenced."""
    private = ":pm:" in row.thread or ":pmtopic:" in row.thread
    return private and row.kind == "post" and not opens


class Standing:
    """Whether the bot's account may write in public now, learnt from the forum's refusals."""

    def __init__(self, client: ForumPort, wall: Callable[[], float],
                 on_limit: Callable[[OutboxRow, str, float], None] | None = None) -> None:
        self.client = client
        self.wall = wall
        self.on_limit = on_limit
        self.silenced_until = 0.0  # wall time: public rows wait until then (the end unknown)
        self.silenced_till = 0.0  # the forum's epoch: the silence's end, as the session said
        self.silenced = False  # the last refusal was the silence's (told once per silence)

    def deliver(self, row: OutboxRow, opens: bool, send: Callable[[OutboxRow], bool]) -> bool:
        """`send(row)`, unless the account is silenced and the row needs the public voice
        (then a TransientError holds it); a refusal that the account's session explains as
        the silence holds it too, any other refusal stands."""
        if not is_private_reply(row, opens) and self.silenced_until > self.wall():
            left = self.silenced_till - self.client.forum_now()  # the end, if the session said
            if left > 0 or not self.silenced_till:  # (a moderator may unsilence it sooner:
                raise _held(min(SOON, left) if left > 0 else self.silenced_until - self.wall())
        try:
            sent = send(row)
        except (PermanentError, ConfigurationError) as refused:
            till = self._silenced_now()
            if till is None:
                raise
            self._silence_met(row, refused, till)  # tried again at RECHECK's end at the latest)
            raise _held(SOON if till else RECHECK) from refused
        if not is_private_reply(row, opens):
            self.silenced = False  # a public row went: the silence, if any, is over
        return sent

    def _silenced_now(self) -> float | None:
        """None: not silenced; else when the silence ends (epoch seconds on the forum's
        clock; 0.0 when the session does not say)."""
        me = self.client.current_user()
        staff = bool(me.get("admin") or me.get("moderator"))
        if staff or me.get("can_create_topic") is not False:
            return None
        till = me.get("silenced_till")
        try:
            return forum_time(till).timestamp() if till else 0.0
        except ValueError:
            return 0.0

    def _silence_met(self, row: OutboxRow, refused: Exception, till: float) -> None:
        self.silenced_till = till
        self.silenced_until = self.wall() + RECHECK
        if self.silenced:
            return
        self.silenced = True
        log.warning("outbox %s: the forum refused it (%s) and the bot's account may not write "
                    "in public (silenced by a moderator): its public posts, edits and new "
                    "conversations wait; replies in its conversations go on", row.key, refused)
        if self.on_limit is not None:
            self.on_limit(row, "silenced", till - self.client.forum_now() if till else 0.0)


def _held(seconds: float) -> TransientError:
    return TransientError(f"the bot's account is silenced: tried again in {seconds:.0f}s",
                          retry_after=seconds)
