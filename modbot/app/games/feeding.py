"""Theory of operation: one input of a game, handled, quarantined, or waiting behind one.

`Handling` (handling.py) decides what of the forum is a game's input and in which order; the
`Feeder` handles each one as its input row (what the store keeps of it: runtime.py's
`apply_input` reads it): `feed` ticks the game's clock to the input's time (each moment that
fell due committed as a tick of its own), hands the row to the game and commits what it gave,
with its cursor, in one transaction (`commit_step`). If the game holds (quarantine.py), the row
waits behind the held input instead, parked with its cursor; if handling it (or a tick before
it) raises, the game is folded back to what the store committed (`reload`), the input is
quarantined and the game holds there. `release` handles what waited, in order, once a
Storyteller retried or discarded the held input (releases.py).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any

from ...adapters.outgoing import Batch, Outgoing
from ...adapters.store_port import GameStore
from ...core import iso
from ..posting.own_edits import with_edit_notice
from ..reading.late import is_late
from .quarantine import Quarantine
from .runtime import GameRuntime
from .steps import Step, input_row

log = logging.getLogger("modbot.app.running.service")


class Feeder:
    def __init__(self, store: GameStore, quarantine: Quarantine,
                 reload: Callable[[GameRuntime], None],
                 commit_outgoing: Callable[[list[Outgoing], Batch | None], None],
                 bind_substitutes: Callable[[GameRuntime], object]) -> None:
        self.store = store
        self.quarantine = quarantine
        self.reload = reload  # a game folded again from what the store committed
        self.commit_outgoing = commit_outgoing  # the posts owed, adopting a rebuild's finds
        self.bind_substitutes = bind_substitutes  # a newcomer's user id, kept (identities.py)
        self.edits_waiting: set[tuple[int, int, str]] = set()  # (game, post, sha1) parked

    def tick_until(self, game: GameRuntime, at: datetime) -> bool:
        """Commit a tick at each moment something fell due for the game, up to `at`; False if
        the game holds (now, or because a tick could not be handled: quarantine.py)."""
        while not self.quarantine.holds(game):
            moment = at
            try:
                due = game.next_due()
                if due is None or due > at:
                    return True
                moment = max(due, game.clock_at or due)
                step = game.on_tick(moment)
            except Exception as exc:
                self.quarantined(game, {"kind": "tick", "at": iso(moment)}, exc)
                return False
            if step.input is None:  # nothing changed at that moment: stop rather than spin
                return True
            self.commit_step(game, step)
        return False

    # -- one input of a game: handled, or quarantined, or waiting behind one ----------------

    def feed(self, game: GameRuntime, row: dict[str, Any], last_post_number: int | None = None,
              unparked: int | None = None) -> None:
        """Handle one input of the game (its input row: what the store keeps of it), after the
        clock ticks that fell due before it, and commit what it gave; if the game holds, it
        waits behind the held input; if handling it raises, it is quarantined and the game
        holds there (quarantine.py). `unparked`: the parked row it was waiting in."""
        batch = Batch()
        if last_post_number is not None:
            batch.last_post_numbers[game.game_id] = last_post_number
            game.last_post_number = max(game.last_post_number, last_post_number)
        if unparked is not None:
            batch.unparked.append(unparked)
        step = None
        if not self.quarantine.holds(game):
            try:
                step = self.step_of(game, row)
            except Exception as exc:
                self.quarantined(game, row, exc, batch)
                return
        if step is None:  # the game holds (a tick before it could not be handled, maybe)
            if unparked is not None:
                return  # still waiting, where it was
            self.quarantine.park(game, row, batch)
            self.store.commit(batch)
            return
        self.commit_step(game, step, batch)

    def step_of(self, game: GameRuntime, row: dict[str, Any]) -> Step | None:
        """What the game does with one input row; None if a clock tick before it was
        quarantined (the game holds)."""
        kind, at = row["kind"], datetime.fromisoformat(row["at"])
        if kind == "post" and is_late(game.history, at):  # moved in, or read after an unlist
            log.warning("game %s: post #%s by %s (made %s) reached the thread late: held",
                        game.setup.name, row.get("post_number"), row.get("author"), row["at"])
            return game.apply_input(input_row({**row, "kind": "late"}))
        if kind not in ("edit", "tick") and not self.tick_until(game, at):
            return None
        return game.apply_input(input_row(row))

    def quarantined(self, game: GameRuntime, row: dict[str, Any], exc: Exception,
                     batch: Batch | None = None) -> None:
        """The input raised: the game as its committed inputs make it again, the input kept
        and the game held at it, its author and Storytellers told (quarantine.py)."""
        batch = batch or Batch()
        self.reload(game)
        game.last_post_number = max(game.last_post_number,
                                    batch.last_post_numbers.get(game.game_id, 0))
        self.commit_outgoing(self.quarantine.record(game, row, exc, batch), batch)

    def release(self, game: GameRuntime) -> None:
        """The inputs that waited behind a quarantined one, handled in their order (the first
        that raises holds the game again, the rest wait on)."""
        for parked_id, row in self.quarantine.waiting(game):
            if self.quarantine.holds(game):
                return
            if row["kind"] == "edit":
                self.edits_waiting.discard((game.game_id, row["post_id"], row["raw_sha1"]))
            self.feed(game, row, unparked=parked_id)

    def commit_step(self, game: GameRuntime, step: Step, batch: Batch | None = None) -> None:
        """What handling one input gave, committed in one transaction with `batch` (its
        cursor, the parked row it waited in)."""
        batch = batch or Batch()
        if step.input is not None:
            batch.inputs.append((game.game_id, step.input))
            batch.events.extend((game.game_id, 0, name, data) for name, data in step.events)
            batch.cursors.update(step.cursors)
        elif not (batch.last_post_numbers or batch.unparked):
            return
        self.commit_outgoing([with_edit_notice(self.store, game.topic_id, out)
                              for out in step.outgoing], batch)
        if any(name in ("PlayerSubstituted", "ObserverAdded") for name, _ in step.events):
            self.bind_substitutes(game)  # the newcomer's id, kept (identities.py)
