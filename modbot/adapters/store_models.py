"""Theory of operation: the store's tables (store.py works with them).

The input log (`InputRow`), the events derived from it (`EventRow`), the posts owed
(`OutboxRow`: pending, sent, failed, withdrawn, or held when its words failed to render),
cursors, pictures, snapshots and long reads under way. The models share one module-wide
database proxy: a process uses one `Store` at a time.
"""

from __future__ import annotations

import peewee

proxy = peewee.DatabaseProxy()


class _Model(peewee.Model):
    id = peewee.AutoField()  # what peewee gives every model unsaid; said, so mypy knows it

    class Meta:
        database = proxy
        legacy_table_names = False


class SchemaVersion(_Model):
    version = peewee.IntegerField()


class GameRow(_Model):
    key = peewee.CharField(unique=True)  # the game's topic id as text
    name = peewee.CharField()
    last_post_number = peewee.IntegerField(default=0)
    seal_salt = peewee.CharField(null=True)  # the seal's secret salt (v10; app/starting/seal_salt.py)


class InputRow(_Model):
    game = peewee.ForeignKeyField(GameRow, backref="inputs", on_delete="CASCADE")
    kind = peewee.CharField()  # post | pm | tick | edit
    post_id = peewee.IntegerField(null=True)
    topic_id = peewee.IntegerField(null=True)  # the PM topic of a `pm` input (schema v2)
    shared = peewee.BooleanField(null=True)  # a `pm` whose topic has players in it (v3)
    participants = peewee.TextField(null=True)  # a `pm`'s conversation, usernames (v4)
    post_number = peewee.IntegerField(null=True)
    author = peewee.CharField(null=True)
    at = peewee.CharField()  # ISO time: created_at of the post, or the tick's time
    raw = peewee.TextField(null=True)  # type: ignore[assignment]  # hides Model.raw
    raw_sha1 = peewee.CharField(null=True)

    class Meta:
        indexes = ((("game", "kind", "post_id"), False),)


class EventRow(_Model):
    game = peewee.ForeignKeyField(GameRow, backref="events", on_delete="CASCADE")
    input = peewee.ForeignKeyField(InputRow, null=True, on_delete="CASCADE")
    type = peewee.CharField()
    data = peewee.TextField()


class OutboxRow(_Model):
    key = peewee.CharField(unique=True)
    thread = peewee.CharField(index=True)  # posts of one thread go out in id order
    kind = peewee.CharField(default="post")  # post | status | edit
    topic_id = peewee.IntegerField(null=True)
    recipients = peewee.CharField(null=True)  # for a new PM topic
    title = peewee.CharField(null=True)
    raw = peewee.TextField()  # type: ignore[assignment]  # hides Model.raw
    status = peewee.CharField(default="pending", index=True)  # pending|sent|failed|held
    attempts = peewee.IntegerField(default=0)
    not_before = peewee.FloatField(default=0)
    first_attempt = peewee.FloatField(null=True)  # wall time of the first attempt (v5)
    post_id = peewee.IntegerField(null=True)
    post_number = peewee.IntegerField(null=True)
    last_error = peewee.TextField(null=True)
    edit_of = peewee.CharField(null=True)  # kind "edit": the key of the post it rewrites (v7)


class CursorRow(_Model):
    name = peewee.CharField(unique=True)
    value = peewee.BigIntegerField()


class PictureRow(_Model):
    """A picture a post embeds (v6): keyed by the PNG's SHA-1, uploaded once, its
    `upload://` address kept so a retried post never uploads it again."""
    sha1 = peewee.CharField(unique=True)
    png = peewee.BlobField()
    short_url = peewee.CharField(null=True)


class SnapshotRow(_Model):
    """A game's runtime memory after folding its first `inputs` inputs (v8): a cache of the
    fold, trusted only by the code and set-up of `version` (see app/recovery/snapshot.py)."""
    game = peewee.ForeignKeyField(GameRow, unique=True, on_delete="CASCADE")
    inputs = peewee.IntegerField()
    version = peewee.CharField()
    data = peewee.BlobField()


class ThreadReadRow(_Model):
    """A long thread read part of the way (v9): the posts read so far and the ids still to
    read, as JSON, so a rebuild keeps its place across restarts (app/recovery/rebuild.py)."""
    key = peewee.CharField(unique=True)  # topic id and the read's query parameters
    data = peewee.BlobField()


class QuarantineRow(_Model):
    """An input the bot could not handle (v11; app/games/quarantine.py): the input row it would have
    stored (JSON), the error, and what became of it: open (its game holds behind it), retried
    (handled after all) or discarded. `number` is its number in its game (`q3`)."""
    game = peewee.ForeignKeyField(GameRow, null=True, on_delete="CASCADE")  # None: no game found
    number = peewee.IntegerField()
    kind = peewee.CharField()  # post | pm | tick | edit | rename | lapse | late | route | fold
    post_id = peewee.IntegerField(null=True)
    at = peewee.CharField()  # ISO forum time of the input
    data = peewee.TextField()  # the input row, JSON
    error = peewee.TextField()
    trace = peewee.TextField(default="")
    status = peewee.CharField(default="open", index=True)  # open | retried | discarded
    attempts = peewee.IntegerField(default=1)
    resolved_by = peewee.CharField(null=True)
    resolved_at = peewee.CharField(null=True)


class ParkedRow(_Model):
    """An input of a held game, waiting behind its open quarantine (v11): the input row as
    JSON, handled in its order once the game is released."""
    game = peewee.ForeignKeyField(GameRow, on_delete="CASCADE")
    kind = peewee.CharField()
    post_id = peewee.IntegerField(null=True)
    data = peewee.TextField()


class PostSightingRow(_Model):
    """Each distinct text the bot has read of a post (v11; store_sightings.py): what it has
    seen is evidence, beside what the forum keeps (an edit in Discourse's grace period leaves
    no revision, yet the bot read the post before it)."""
    post_id = peewee.IntegerField()
    topic_id = peewee.IntegerField(null=True)
    raw_sha1 = peewee.CharField()
    raw = peewee.TextField()  # type: ignore[assignment]  # hides Model.raw
    version = peewee.IntegerField(default=1)
    updated_at = peewee.CharField(null=True)  # the post's updated_at, as that read showed it

    class Meta:
        indexes = ((("post_id", "raw_sha1"), True),)


MODELS = [SchemaVersion, GameRow, InputRow, EventRow, OutboxRow, CursorRow, PictureRow,
          SnapshotRow, ThreadReadRow, QuarantineRow, ParkedRow, PostSightingRow]
