"""Theory of operation: an input that cannot be handled is quarantined, never fatal.

A stream processor keeps a dead-letter queue; this is the bot's. When handling one input of a
game (a thread post, a PM, an edit notice, a rename, a clock tick) raises, `Handling` asks the
service to forget what the runtime did of it (the game is folded again from what the store
committed: `Service.reload`) and `Quarantine.record` keeps it:

- the input row it would have stored, the error and its traceback, as a `QuarantineRow`
  numbered in its game (`q1`, `q2`, ...: post numbers can be reused after a split, and PMs and
  ticks have none), committed with the cursor that passed it (so a restart does not read it
  again, and nothing is handled twice);
- its author is answered where there is one (a seat's grimoire PM for a thread post, the
  conversation of a PM), in words that say nothing of the error or the game;
- the Storytellers are told once, in game terms, with the post's link, under a key of the
  input itself (so a rebuild from the forum, meeting the same input, adopts the note it finds
  rather than sending it again).

The game then *holds* at the input's time (a fault delays, never reorders): its clock does not
move, and each of its later inputs waits as a `ParkedRow` in the order it came, committed with
its cursor; every other game goes on. A Storyteller's lone `!retry qN` handles the input again
(after a fix) and `!discard qN --yes` drops it; either way the inputs that waited are then
handled in their order, each after the clock ticks that fell due before it, and the first of
them that raises holds the game again. A held game's Storytellers may still ask `!status`:
answered from the game as it stands at the hold, which it lists. These three are carried out
here, outside the game's inputs (`lone_release`, `lone_status` read them: the core's grammar),
so they never move its clock; their answers take the keys the core's answers would, so a
rebuild that does not hold there answers under the same key.

A PM whose game cannot be found because finding it raised is kept under no game (logged, its
author answered). A game whose stored inputs cannot be folded at start does not start; its
Storytellers are told and the other games go on (`fold_failed`); it is tried at each start.
"""

from __future__ import annotations

import json
import logging
import traceback
from datetime import UTC, datetime
from typing import Any

from ...adapters.outgoing import Batch, Outgoing
from ...adapters.store import QuarantineRow
from ...adapters.store_port import QuarantineStore
from ...core import iso
from ...shown import shown
from ..posting.render import later
from ..posting.views import date_tag
from .runtime import GameRuntime

log = logging.getLogger("modbot.app.games.quarantine")
NO_GAME = None  # the game of an input whose game could not be found


def error_text(exc: BaseException) -> str:
    """An exception as one line: its type and message, control characters and length tamed."""
    text = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    text = "".join(c if c.isprintable() else " " for c in text)
    return text if len(text) <= 300 else text[:297] + "..."


def describe(row: dict[str, Any]) -> dict[str, Any]:
    """What an input row was, for the templates (its kind, author, number, time)."""
    return {"kind": row.get("kind"), "author": row.get("author") or "",
            "post_number": row.get("post_number"), "post_id": row.get("post_id"),
            "topic_id": row.get("topic_id"), "at": _moment(row.get("at"))}


def _moment(at: str | None) -> datetime | None:
    return datetime.fromisoformat(at) if at else None


class Quarantine:
    """The held games, and what to commit when an input is quarantined, parked or released."""

    def __init__(self, store: QuarantineStore) -> None:
        self.store = store
        self.held: set[int] = store.held_games()
        self.known = store.quarantine_known()  # (game id, kind, post id) kept already

    def holds(self, game: GameRuntime) -> bool:
        return game.game_id in self.held

    def knows(self, game_id: int | None, kind: str, post_id: int | None) -> bool:
        """This input (a PM the inbox shows again) was quarantined or parked already."""
        return post_id is not None and (game_id, kind, post_id) in self.known

    # -- an input that raised --------------------------------------------------------------

    def record(self, game: GameRuntime | None, row: dict[str, Any], exc: BaseException,
               batch: Batch) -> list[Outgoing]:
        """Keep the input (in `batch`) and hold its game; the notes to its author and to
        the Storytellers."""
        game_id = game.game_id if game is not None else NO_GAME
        number = self.store.next_quarantine_number(game_id) + sum(
            1 for q in batch.quarantined if q["game"] == game_id)
        error = error_text(exc)
        log.error("game %s: %s %s could not be handled (q%d): %s; the game holds there",
                  game.setup.name if game else "(none found)", row.get("kind"),
                  row.get("post_id") or row.get("at"), number, error,
                  exc_info=(type(exc), exc, exc.__traceback__))
        batch.quarantined.append({
            "game": game_id, "number": number, "kind": row["kind"], "post_id": row.get("post_id"),
            "at": row.get("at") or iso(datetime.now(UTC)), "data": json.dumps(row, default=str),
            "error": error, "trace": "".join(traceback.format_exception(exc))[-8000:]})
        self.known.add((game_id, row["kind"], row.get("post_id")))
        if game is None:
            return self._answer_author(None, row)
        self.held.add(game.game_id)
        key = f"quarantine:{row['kind']}:{row.get('post_id') or row.get('at')}"
        note = game.reactor.note_to_storytellers(
            game.state.setup.storytellers, key,
            later("quarantined.md.j2", number=number, input=describe(row), error=error,
                  topic_id=game.topic_id, held_at=date_tag(_moment(row.get("at")))))
        return [note, *self._answer_author(game, row)]

    def _answer_author(self, game: GameRuntime | None, row: dict[str, Any]) -> list[Outgoing]:
        """The author of a post or PM, told their words were not read (nothing more)."""
        author, post_id = row.get("author") or "", row.get("post_id")
        if row["kind"] not in ("post", "pm") or not author or post_id is None:
            return []
        raw = later("quarantined_author.md.j2", input=describe(row))
        if game is None or row["kind"] == "pm":
            topic = row.get("topic_id")
            prefix = game.options.key if game is not None else "modbot"
            return [Outgoing(f"{prefix}:quarantined:pm:{post_id}", f"{prefix}:pmtopic:{topic}",
                             raw, topic_id=topic)] if topic else []
        state = game.state
        if not state.is_seated(author) or state.setup.is_storyteller(author):
            return []  # a Storyteller reads the note; nobody else has a conversation here
        return [game.reactor.pm(author, f"quarantined:{post_id}", raw)]

    # -- a held game's inputs --------------------------------------------------------------

    def park(self, game: GameRuntime, row: dict[str, Any], batch: Batch) -> None:
        """The input waits behind the game's open quarantine (in `batch`)."""
        batch.parked.append({"game": game.game_id, "kind": row["kind"],
                             "post_id": row.get("post_id"), "data": json.dumps(row, default=str)})
        self.known.add((game.game_id, row["kind"], row.get("post_id")))

    def waiting(self, game: GameRuntime) -> list[tuple[int, dict[str, Any]]]:
        """The game's parked inputs, in their order: (parked row id, input row)."""
        return [(p.id, json.loads(p.data)) for p in self.store.parked(game.game_id)]

    # -- the Storytellers' release ---------------------------------------------------------

    def find(self, game: GameRuntime, number: int) -> QuarantineRow | None:
        return next((q for q in self.store.quarantined(game.game_id) if q.number == number), None)

    def settle(self, row: QuarantineRow, status: str, by: str, at: datetime,
               batch: Batch) -> None:
        """A quarantined input retried with success, or discarded (or, retried, waiting behind
        a clock tick quarantined before it): no longer what holds its game."""
        batch.settled[row.id] = {"status": status, "resolved_by": by, "resolved_at": iso(at)}

    def failed_again(self, row: QuarantineRow, exc: BaseException, batch: Batch) -> str:
        error = error_text(exc)
        log.error("q%d retried and failed again: %s", row.number, error,
                  exc_info=(type(exc), exc, exc.__traceback__))
        batch.settled[row.id] = {"attempts": row.attempts + 1, "error": error,
                                 "trace": "".join(traceback.format_exception(exc))[-8000:]}
        return error

    # -- a game whose stored inputs do not fold ---------------------------------------------

    def fold_failed(self, game: GameRuntime, exc: BaseException) -> Batch:
        """A game whose stored inputs cannot be folded at start: it does not start (the others
        do); kept once as a quarantined input of kind `fold`, its Storytellers told once."""
        error = error_text(exc)
        log.error("game %s: its stored inputs cannot be folded (%s): it does not start; the "
                  "other games go on", game.setup.name, error,
                  exc_info=(type(exc), exc, exc.__traceback__))
        batch = Batch()
        if any(q.kind == "fold" for q in self.store.quarantined(game.game_id, status="open")):
            return batch
        batch.quarantined.append({
            "game": game.game_id, "number": self.store.next_quarantine_number(game.game_id),
            "kind": "fold", "post_id": None, "at": iso(datetime.now(UTC)),
            "data": json.dumps({"kind": "fold"}), "error": error,
            "trace": "".join(traceback.format_exception(exc))[-8000:]})
        batch.outbox.append(game.reactor.note_to_storytellers(
            game.setup.storytellers, f"quarantine:fold:{game.game_id}",
            later("fold_failed.md.j2", error=error, topic_id=game.topic_id)))
        return batch

    def folded(self, game_id: int) -> None:
        """The game's stored inputs fold now: a failed fold of an earlier start is over."""
        for row in self.store.quarantined(game_id, status="open"):
            if row.kind == "fold":
                self.store.commit(Batch(settled={row.id: {
                    "status": "retried", "resolved_by": "modbot",
                    "resolved_at": iso(datetime.now(UTC))}}))
                self.held.discard(game_id)

    def listing(self, game_id: int) -> list[dict[str, Any]]:
        """The game's quarantined inputs, for `!status` and `modbot game status`."""
        return [listed(q) for q in self.store.quarantined(game_id)]


def listed(row: QuarantineRow) -> dict[str, Any]:
    """One quarantined input as the templates and the CLI show it."""
    return {"number": row.number, "status": row.status, "error": row.error,
            "input": describe(json.loads(row.data)), "attempts": row.attempts,
            "resolved_by": row.resolved_by, "resolved_at": _moment(row.resolved_at)}


def quarantine_lines(held: list[dict[str, Any]]) -> list[str]:
    """The game's quarantined inputs as `modbot game status` prints them, one line each."""
    if not held:
        return []
    lines = ["", "Inputs modbot could not handle:"]
    for q in held:
        what, i = q["input"], q["input"]
        where = {"post": f"post #{i['post_number']} by {i['author']}",
                 "pm": f"PM id:{i['post_id']} from {i['author']}",
                 "edit": f"an edit of post #{i['post_number']}", "tick": "the clock",
                 "fold": "the stored history"}.get(what["kind"], what["kind"])
        state = {"open": "holds the game"}.get(q["status"], q["status"])
        lines.append(shown(f"  q{q['number']} ({state}): {where}, at {iso(i['at'])}: {q['error']}"))
    return lines
