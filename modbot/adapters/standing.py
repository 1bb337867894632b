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
status change, a new conversation), waits `RECHECK` seconds and is tried again; its thread
keeps its order, and replies in existing conversations (players' night answers, the
Storytellers' console) go on. Nothing is marked failed, nothing is sent twice (the refused
create made nothing). The Storytellers are told once per silence (`on_limit(row, "silenced",
seconds)`), in their own conversation, which a silenced account may still reply in.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from .forum import ConfigurationError, PermanentError, TransientError
from .forum_port import ForumPort
from .store import OutboxRow

log = logging.getLogger("modbot.adapters.outbox")
RECHECK = 300.0  # seconds a silenced account's public rows wait before they are tried again


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
        self.silenced_until = 0.0  # wall time: public rows wait until then
        self.silenced = False  # the last refusal was the silence's (told once per silence)

    def deliver(self, row: OutboxRow, opens: bool, send: Callable[[OutboxRow], bool]) -> bool:
        """`send(row)`, unless the account is silenced and the row needs the public voice
        (then a TransientError holds it); a refusal that the account's session explains as
        the silence holds it too, any other refusal stands."""
        if not is_private_reply(row, opens) and self.silenced_until > self.wall():
            raise _held(self.silenced_until - self.wall())
        try:
            sent = send(row)
        except (PermanentError, ConfigurationError) as refused:
            if not self._silenced_now():
                raise
            self._silence_met(row, refused)
            raise _held(RECHECK) from refused
        if not is_private_reply(row, opens):
            self.silenced = False  # a public row went: the silence, if any, is over
        return sent

    def _silenced_now(self) -> bool:
        me = self.client.current_user()
        staff = bool(me.get("admin") or me.get("moderator"))
        return not staff and me.get("can_create_topic") is False

    def _silence_met(self, row: OutboxRow, refused: Exception) -> None:
        self.silenced_until = self.wall() + RECHECK
        if self.silenced:
            return
        self.silenced = True
        log.warning("outbox %s: the forum refused it (%s) and the bot's account may not write "
                    "in public (silenced by a moderator): its public posts, edits and new "
                    "conversations wait; replies in its conversations go on", row.key, refused)
        if self.on_limit is not None:
            self.on_limit(row, "silenced", RECHECK)


def _held(seconds: float) -> TransientError:
    return TransientError(f"the bot's account is silenced: tried again in {seconds:.0f}s",
                          retry_after=seconds)
