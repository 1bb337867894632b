"""Theory of operation: who is in a private conversation, changed by the outbox in order.

A seat given to a substitute (`!sub`) keeps its grimoire conversation: the reactor owes two
rows of kind "members" in the seat's thread, before the substitute's role PM: `invite:NAME`
(`POST /t/{id}/invite` with `user`: TopicsController#invite; the bot opened the
conversation) and `remove:NAME` (`PUT /t/{id}/remove-allowed-user`: TopicsController#
remove_allowed_user, which Discourse allows staff and a conversation's creator at trust level
2 or more: lib/guardian/topic_guardian.rb `can_remove_allowed_users?`). Both are idempotent,
so a retry after an unknown fate simply asks again. A change the forum refuses is logged and
passed over, never retried and never reported as a lost post: the role PM that follows is
guarded like every private post (app/posting/conversation_guard.py), so if the replaced player is
still there it opens a fresh conversation with the substitute instead. A seat whose
conversation was never opened has nothing to change.
"""

from __future__ import annotations

import logging

from .forum import ConfigurationError, PermanentError
from .forum_port import ForumPort
from .store import OutboxRow
from .store_port import OutboxStore

log = logging.getLogger("modbot.adapters.outbox")


def change_members(client: ForumPort, store: OutboxStore, row: OutboxRow,
                   topic_id: int | None) -> bool:
    verb, _, name = row.raw.partition(":")
    if topic_id:
        try:
            if verb == "invite":
                client.invite_to_conversation(topic_id, name)
            else:
                client.remove_allowed_user(topic_id, name)
        except (PermanentError, ConfigurationError) as refused:  # a refused key goes on up
            log.warning("outbox %s: the forum refused to %s %s (%s): the next private post "
                        "there is guarded as ever", row.key, verb, name, refused)
    store.mark_sent(row, None, topic_id, None)
    return False  # nothing was posted
