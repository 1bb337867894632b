"""Theory of operation: the bot's seal and reveal posts, as the forum keeps them now.

A moderator (a Storyteller among them) can edit any post, the bot's own seal and reveal
included. `modbot verify` reads the seal's first version, so an edit proves nothing, but the
Storytellers should hear of it, and the players reading the reveal. So every `check_seconds`
(an hour of forum time by default: one request for each game with a seal) the service reads
each game's sent seal and reveal posts by id (`GET /t/{id}/posts.json?post_ids[]=…`) and
compares each with what the outbox sent: a post no longer showing the words the bot sent
(its own later posts joined to it by a non-staff bot's merge keep them) was edited by someone
else. The Storytellers are told once for each version (`own-edited:WHAT:VERSION`), and a
cursor `own-edited:TOPIC:WHAT` keeps the version, so the reveal, when it comes, says the seal
was edited (`with_edit_notice`). A deleted or moved post is the forum-answers issue's.
"""

from __future__ import annotations

import dataclasses
import logging
from datetime import datetime

from ...adapters.forum_port import ForumPort
from ...adapters.outgoing import Batch, Outgoing, Rendered
from ...adapters.store_port import OwnPostStore
from ..games.runtime import GameRuntime
from .render import render

log = logging.getLogger("modbot.app.posting.own_edits")
WATCHED = ("seal", "reveal:grimoire")


def edited_cursor(topic_id: int, what: str) -> str:
    return f"own-edited:{topic_id}:{what}"


class OwnEdits:
    def __init__(self, client: ForumPort, store: OwnPostStore, check_seconds: float = 3600) -> None:
        self.client, self.store = client, store
        self.check_seconds = check_seconds
        self.last: datetime | None = None

    def due(self, now: datetime) -> bool:
        if self.last is None or now < self.last:
            self.last = now
            return False
        return self.check_seconds > 0 and (now - self.last).total_seconds() >= self.check_seconds

    def check(self, games: list[GameRuntime], now: datetime) -> list[Outgoing]:
        """The notes owed for the bot's seal or reveal posts someone else edited."""
        self.last = now
        notes: list[Outgoing] = []
        for game in games:
            rows = {what: (row, int(row.post_id)) for what in WATCHED
                    if (row := self.store.row(f"{game.options.key}:{what}")) is not None
                    and row.status == "sent" and row.post_id}
            if not rows:
                continue
            posts = {p.id: p for p in self.client.posts_by_ids(
                game.topic_id, sorted({post_id for _, post_id in rows.values()}))}
            for what, (row, post_id) in rows.items():
                post = posts.get(post_id)
                if post is None or row.raw.strip() in post.raw:
                    continue
                notes.extend(self._edited(game, what, post.id, post.post_number, post.version))
        return notes

    def _edited(self, game: GameRuntime, what: str, post_id: int, number: int,
                version: int) -> list[Outgoing]:
        cursor = edited_cursor(game.topic_id, what)
        if self.store.cursor(cursor) == version:
            return []
        log.warning("game %s: the bot's %s post (#%s) was edited by someone else (version %s)",
                    game.setup.name, what, number, version)
        self.store.commit(Batch(cursors={cursor: version}))
        raw = render("own_post_edited.md.j2", what=what.split(":")[0], post_number=number,
                     version=version, topic_id=game.topic_id)
        return [game.reactor.note_to_storytellers(
            game.state.setup.storytellers, f"own-edited:{what}:{version}", raw)]


def with_edit_notice(store: OwnPostStore, topic_id: int, out: Outgoing) -> Outgoing:
    """The reveal's grimoire post, saying the seal post was edited when it was."""
    if not out.key.endswith(":reveal:grimoire") or \
            store.cursor(edited_cursor(topic_id, "seal")) is None:
        return out

    def body() -> Rendered:
        notice = render("own_post_edited_reveal.md.j2")
        return dataclasses.replace(out.rendered, raw=f"{out.rendered.raw}\n\n{notice}")
    return dataclasses.replace(out, body=body)
