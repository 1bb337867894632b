"""The store's schema changes, in order: each runs once, recorded in `schema_version`
(see store.py), with the store's models (`m`, by class name: this module imports nothing of
the store's). Append a new one; never edit one that has shipped."""

from __future__ import annotations

from typing import Any

import peewee
from playhouse.migrate import SchemaMigrator, migrate


def _v1_create(db: Any, m: Any) -> None:
    db.create_tables([m.GameRow, m.InputRow, m.EventRow, m.OutboxRow, m.CursorRow])


def _v2_input_topic(db: Any, m: Any) -> None:
    """PM inputs (Storyteller commands) remember their PM topic, to answer there."""
    columns = {c.name for c in db.get_columns("input_row")}
    if "topic_id" not in columns:  # a database created by v1 before this column existed
        migrator = SchemaMigrator.from_database(db)
        migrate(migrator.add_column("input_row", "topic_id", peewee.IntegerField(null=True)))


def _v3_input_shared(db: Any, m: Any) -> None:
    """PM inputs remember whether players take part, so answers stay with the STs."""
    columns = {c.name for c in db.get_columns("input_row")}
    if "shared" not in columns:
        migrator = SchemaMigrator.from_database(db)
        migrate(migrator.add_column("input_row", "shared", peewee.BooleanField(null=True)))


def _v4_input_participants(db: Any, m: Any) -> None:
    """PM inputs remember who takes part (players' night commands and whispers)."""
    columns = {c.name for c in db.get_columns("input_row")}
    if "participants" not in columns:
        migrator = SchemaMigrator.from_database(db)
        migrate(migrator.add_column("input_row", "participants", peewee.TextField(null=True)))


def _v5_outbox_first_attempt(db: Any, m: Any) -> None:
    """Outbox rows remember their first attempt: the marker search in PMs pages back to it."""
    if "outbox_row" not in db.get_tables():
        db.create_tables([m.OutboxRow])
        return
    columns = {c.name for c in db.get_columns("outbox_row")}
    if "first_attempt" not in columns:
        migrator = SchemaMigrator.from_database(db)
        migrate(migrator.add_column("outbox_row", "first_attempt", peewee.FloatField(null=True)))


def _v6_pictures(db: Any, m: Any) -> None:
    """The pictures posts embed (the town square of a vote count)."""
    db.create_tables([m.PictureRow])


def _v7_outbox_edits(db: Any, m: Any) -> None:
    """Outbox rows that rewrite another post (a running vote count)."""
    if "edit_of" not in {c.name for c in db.get_columns("outbox_row")}:
        migrator = SchemaMigrator.from_database(db)
        migrate(migrator.add_column("outbox_row", "edit_of", peewee.CharField(null=True)))


def _v8_snapshots(db: Any, m: Any) -> None:
    """Snapshots of running games, so a restart folds only what came after."""
    db.create_tables([m.SnapshotRow])


def _v9_thread_reads(db: Any, m: Any) -> None:
    """Long thread reads part of the way, so a rebuild keeps its place across restarts."""
    db.create_tables([m.ThreadReadRow])


def _v10_seal_salt(db: Any, m: Any) -> None:
    """Each game's secret salt for the seal of its grimoire (made once, kept until the reveal)."""
    if "seal_salt" not in {c.name for c in db.get_columns("game_row")}:
        migrator = SchemaMigrator.from_database(db)
        migrate(migrator.add_column("game_row", "seal_salt", peewee.CharField(null=True)))


def _v11_quarantine(db: Any, m: Any) -> None:
    """Inputs the bot could not handle, and the inputs of their games that wait behind them;
    what the bot has read of each post (its sightings)."""
    db.create_tables([m.QuarantineRow, m.ParkedRow, m.PostSightingRow])


MIGRATIONS = [_v1_create, _v2_input_topic, _v3_input_shared, _v4_input_participants,
              _v5_outbox_first_attempt, _v6_pictures, _v7_outbox_edits,
              _v8_snapshots, _v9_thread_reads, _v10_seal_salt, _v11_quarantine]  # append; never edit one
