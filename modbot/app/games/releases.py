"""Theory of operation: the Storytellers release a quarantined input (quarantine.py).

A Storyteller's post or PM that is a lone `!retry qN` or `!discard qN` (the core's grammar
reads it: `lone_release`), at any time, or a lone `!status` while the game is held, is carried
out here, never as one of the game's inputs: it must not move a held game's clock, and it is
about the bot's own queue, which the core does not know.

- `!retry q3`: the input is handled again now, at its own time (the game's clock held there).
  Handled, its posts go out, q3 is marked retried, and the inputs that waited behind it are
  handled in their order (`Handling.release`). Raising again, the game is folded back, the
  new error kept and said, and the game stays held.
- `!discard q3`: says what would be dropped; `--yes` drops it and releases the rest.
- A number the game does not hold (never quarantined, or released already) is said so.
- `!status` while held: the game as it stands at the hold, with what holds it.

Each answer goes where the core would answer the Storyteller's commands (their PM, or the
Storytellers' conversation), under the same key, so a rebuild from the forum that finds the
answer already posted adopts it.
"""

from __future__ import annotations

import json
from typing import Any

from ...adapters.outgoing import Batch, Outgoing
from ...adapters.store import QuarantineRow
from ...core import CommandReport, Post, lone_release, lone_status
from ..posting.render import later
from .feeding import Feeder
from .quarantine import describe
from .runtime import GameRuntime


class Releases:
    """The release commands, carried out for `Handling` (handling.py) by its `Feeder`."""

    def __init__(self, feeder: Feeder) -> None:
        self.handling = feeder

    def carried_out(self, game: GameRuntime, post: Post, source: dict[str, Any],
                    last_post_number: int | None = None) -> bool:
        """True if `post` was a Storyteller's release (or a held game's `!status`), carried
        out and answered (with the thread's cursor, `last_post_number`, committed)."""
        state = game.state
        if not state.setup.is_storyteller(post.author):
            return False
        batch = Batch()
        if last_post_number is not None:
            batch.last_post_numbers[game.game_id] = last_post_number
            game.last_post_number = max(game.last_post_number, last_post_number)
        asked = lone_release(post.raw, state)
        quarantine = self.handling.quarantine
        if asked is None:
            if not quarantine.holds(game) or not lone_status(post.raw, state):
                return False
            report = CommandReport(by=post.author, post_number=post.post_number, status=True)
            self._commit(game, batch, game.reactor.command_answer(state, report, source, []))
            return True
        release, confirmed = asked
        row = quarantine.find(game, release.number)
        view: dict[str, object] = {"number": release.number, "discard": release.discard, "confirmed": confirmed}
        if row is None or row.status != "open" or row.kind == "fold":
            view.update(found=listed_or_none(row))
            self._answer(game, batch, source, view)
        elif release.discard and not confirmed:
            self._answer(game, batch, source, {**view, "input": describe(json.loads(row.data))})
        elif release.discard:
            quarantine.settle(row, "discarded", post.author, post.created_at, batch)
            quarantine.held.discard(game.game_id)
            self._answer(game, batch, source, {**view, "done": True, "waiting": self._waiting(game),
                                               "input": describe(json.loads(row.data))})
            self.handling.release(game)
        else:
            self._retry(game, row, post, source, batch, view)
        return True

    def _retry(self, game: GameRuntime, row: QuarantineRow, post: Post, source: dict[str, Any], batch: Batch,
               view: dict[str, Any]) -> None:
        handling, quarantine = self.handling, self.handling.quarantine
        data = json.loads(row.data)
        view["input"] = describe(data)
        quarantine.held.discard(game.game_id)  # handled now, at its own time
        try:
            step = handling.step_of(game, data)
        except Exception as exc:
            quarantine.held.add(game.game_id)
            handling.reload(game)
            view["error"] = quarantine.failed_again(row, exc, batch)
            self._answer(game, batch, source, view)
            return
        if step is None:  # a clock tick before it was quarantined, and holds the game: the
            quarantine.settle(row, "waiting", post.author, post.created_at, batch)  # input
            quarantine.park(game, data, batch)  # waits behind it
            self._answer(game, batch, source, {**view, "behind": True})
            return
        quarantine.settle(row, "retried", post.author, post.created_at, batch)
        batch.outbox.append(self._answer_post(game, source, {
            **view, "done": True, "waiting": self._waiting(game)}))
        handling.commit_step(game, step, batch)
        handling.release(game)

    def _waiting(self, game: GameRuntime) -> int:
        return len(self.handling.quarantine.waiting(game))

    def _answer_post(self, game: GameRuntime, source: dict[str, Any], view: dict[str, Any]) -> Outgoing:
        raw = later("release_answer.md.j2", **view, topic_id=game.topic_id)
        return game.reactor.answer_storyteller(game.state, source, raw)

    def _answer(self, game: GameRuntime, batch: Batch, source: dict[str, Any], view: dict[str, Any]) -> None:
        self._commit(game, batch, self._answer_post(game, source, view))

    def _commit(self, game: GameRuntime, batch: Batch, answer: Outgoing) -> None:
        self.handling.commit_outgoing([answer], batch)


def listed_or_none(row: QuarantineRow | None) -> dict[str, Any] | None:
    """What became of a quarantined input the Storytellers named (None: no such number)."""
    if row is None:
        return None
    return {"status": row.status, "kind": row.kind, "resolved_by": row.resolved_by}
