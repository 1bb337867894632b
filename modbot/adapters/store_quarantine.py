"""Theory of operation: the store's side of the quarantine (app/games/quarantine.py).

An input the bot could not handle is a `QuarantineRow` (open, retried or discarded); while one
of a game's is open, that game's later inputs wait as `ParkedRow`s, in the order they came.
Both are written in the same transaction as the cursor that passed them (`Store.commit` calls
`commit_quarantine` with the batch), so a crash never loses nor repeats one. These are the
store's queries about them, mixed into `Store`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from .outgoing import Batch
from .store_models import ParkedRow, QuarantineRow


class QuarantineQueries:
    """The quarantine's queries (a part of `Store`)."""

    def commit_quarantine(self, batch: Batch) -> None:
        """The batch's quarantine writes (inside `Store.commit`'s transaction)."""
        for fields in batch.quarantined:
            QuarantineRow.create(**fields)
        for fields in batch.parked:
            ParkedRow.create(**fields)
        if batch.unparked:
            ParkedRow.delete().where(ParkedRow.id.in_(batch.unparked)).execute()
        for row_id, fields in batch.settled.items():
            QuarantineRow.update(**fields).where(QuarantineRow.id == row_id).execute()

    def quarantined(self, game_id: int | None = None, status: str | None = None) -> list[QuarantineRow]:
        """The game's quarantined inputs (every game's with None), oldest first; only those in
        `status` when given."""
        query = QuarantineRow.select().order_by(QuarantineRow.id)
        if game_id is not None:
            query = query.where(QuarantineRow.game == game_id)
        if status is not None:
            query = query.where(QuarantineRow.status == status)
        return list(query)

    def next_quarantine_number(self, game_id: int | None) -> int:
        """The number the game's next quarantined input takes (q1, q2, ...)."""
        where = QuarantineRow.game.is_null() if game_id is None else QuarantineRow.game == game_id
        return QuarantineRow.select().where(where).count() + 1

    def parked(self, game_id: int) -> list[ParkedRow]:
        """The game's inputs waiting behind its open quarantine, in their order."""
        return list(ParkedRow.select().where(ParkedRow.game == game_id).order_by(ParkedRow.id))

    def held_games(self) -> set[int]:
        """The ids of the games an open quarantined input holds."""
        rows = cast("Iterable[tuple[int]]", QuarantineRow.select(QuarantineRow.game).where(
            (QuarantineRow.status == "open") & QuarantineRow.game.is_null(False)).tuples())
        return {game_id for (game_id,) in rows}

    def quarantine_known(self) -> set[tuple[int | None, str, int | None]]:
        """(game id, kind, post id) of every input quarantined or parked: read once, so that a
        PM the inbox shows again is not taken twice."""
        known: set[tuple[int | None, str, int | None]] = set()
        for model in (QuarantineRow, ParkedRow):
            rows = cast("Iterable[tuple[int | None, str, int]]", model.select(
                model.game, model.kind, model.post_id).where(model.post_id.is_null(False)).tuples())
            known.update((game_id, kind, post_id) for game_id, kind, post_id in rows)
        return known
