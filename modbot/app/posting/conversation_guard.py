"""Theory of operation: private information goes only where the game put it.

Any participant of a Discourse PM may invite someone else into it (`TopicsController#invite`:
the conversation gains an `invited_user` small action), and the invitee reads the whole
conversation. So before each private post into an existing conversation the outbox asks this
guard (`allows`): the conversation's participants (`GET /t/{id}.json`, `details.allowed_users`)
must be the row's recipients and the bot, no one else, compared by user id (`expected_ids`:
the game's places as bound by identities.py), so a player or Storyteller who renamed is never
taken for an intruder, and a stranger who took their old name never for them. A Storyteller's
answer in the conversation they wrote from is checked the same way. When someone else is there, the post
does not go in: the outbox opens a fresh conversation with the same recipients instead (the
thread's later posts follow it there), a staff bot removes the invitee
(`PUT /t/{id}/remove-allowed-user`, which Discourse allows staff), and the service is told
(`on_intruder`) so that the player hears why, in the new conversation, and the Storytellers
what the invitee could read: everything in that conversation so far. Each check costs one
request, and only a private post into a conversation that exists pays it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from ...adapters.forum import ForumError
from ...adapters.forum_port import ForumPort
from ...adapters.outgoing import Outgoing
from ...adapters.store import OutboxRow
from .reactions import Reactor
from .render import later

log = logging.getLogger("modbot.app.posting.conversation_guard")


class ConversationGuard:
    def __init__(self, client: ForumPort, bot_username: str, staff: bool,
                 on_intruder: Callable[[OutboxRow, int, list[str]], None] | None = None,
                 bot_id: int | None = None,
                 expected_ids: Callable[[OutboxRow], set[int] | None] | None = None) -> None:
        self.client = client
        self.bot = bot_username.lower()
        self.bot_id = bot_id
        self.staff = staff
        self.on_intruder = on_intruder  # (row, topic id, [usernames]) -> None
        self.expected_ids = expected_ids  # (row) -> the recipients' user ids, or None

    def allows(self, row: OutboxRow, topic_id: int) -> bool:
        """May this private row go into conversation `topic_id`? (A thread post: always.)"""
        if not (":pm:" in row.thread or ":pmtopic:" in row.thread) or row.kind != "post" \
                or not row.recipients:
            return True
        details = self.client.topic_by_id(topic_id).get("details", {})
        people = details.get("allowed_users") or []
        ids = self.expected_ids(row) if self.expected_ids is not None else None
        if ids is not None and self.bot_id is not None:
            extra = sorted(u["username"] for u in people if u.get("id") not in ids | {self.bot_id})
        else:
            expected = {self.bot} | {r.strip().lower() for r in row.recipients.split(",")}
            extra = sorted(u["username"] for u in people
                           if u.get("username", "").lower() not in expected)
        if not extra:
            return True
        log.warning("outbox %s: conversation %s has %s in it, whom the game did not put there: "
                    "a new conversation is opened", row.key, topic_id, ", ".join(extra))
        if self.staff:
            for name in extra:
                try:
                    self.client.remove_allowed_user(topic_id, name)
                except ForumError as exc:
                    log.error("could not remove %s from conversation %s: %s", name, topic_id, exc)
        if self.on_intruder is not None:
            self.on_intruder(row, topic_id, extra)
        return False


def intrusion_notes(reactor: Reactor, player: str | None, topic_id: int, names: list[str],
                    storytellers: Sequence[str]) -> list[Outgoing]:
    """Someone joined a private conversation the game made (`player`'s grimoire, or the
    Storytellers' own when None): the player hears why their messages move, the Storytellers
    what the newcomers could read."""
    key = f"intruder:{topic_id}:{'+'.join(n.lower() for n in names)}"
    told = [reactor.note_to_storytellers(storytellers, key, later(
        "intruder_storytellers.md.j2", player=player, topic_id=topic_id, names=names))]
    if player is not None:
        told.append(reactor.pm(player, key.replace("intruder:", "moved:", 1), later(
            "intruder_player.md.j2", topic_id=topic_id, names=names)))
    return told
