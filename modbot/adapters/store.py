"""The store: what the bot has read, what it derived, and what it must still post.

Theory of operation: the *input log* (`InputRow`: each game post as first seen, and each clock
tick that changed something) is the source of truth; the game state is rebuilt by folding it
through the pure core. Derived `EventRow`s are the audit trail. `OutboxRow`s are posts the bot
owes the forum, keyed deterministically (a re-derived row is ignored, never duplicated).
`Store.commit()` writes inputs, events, outbox rows and cursors in ONE transaction, so a crash
leaves all of a batch or none of it; the posts' words are rendered before it (rendering.py),
so a template's mistake holds that post only. The tables are in store_models.py.

SQLite (WAL) by default, file created on first use; PostgreSQL when the URL says so. Schema
changes go through `MIGRATIONS`, applied in order and recorded in `schema_version`.
The models share one module-wide database proxy: a process uses one `Store` at a time (one
daemon serves all its games from one database).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import peewee
from playhouse.db_url import connect

from .migrations import MIGRATIONS
from .outgoing import Batch
from .rendering import rendered
from .store_models import (
    MODELS,
    CursorRow,
    EventRow,
    GameRow,
    InputRow,
    OutboxRow,
    ParkedRow,
    PictureRow,
    QuarantineRow,
    SchemaVersion,
    SnapshotRow,
    ThreadReadRow,
    proxy,
)
from .store_quarantine import QuarantineQueries
from .store_sightings import SightingQueries

DEFAULT_URL = "sqlite:///data/modbot.sqlite"
__all__ = ["DEFAULT_URL", "MODELS", "CursorRow", "EventRow", "GameRow", "InputRow", "OutboxRow",
           "ParkedRow", "PictureRow", "QuarantineRow", "SchemaVersion", "SnapshotRow", "Store",
           "ThreadReadRow", "proxy"]


class Store(QuarantineQueries, SightingQueries):
    def __init__(self, url: str | None = None) -> None:
        self.url = url or DEFAULT_URL
        if self.url.startswith("sqlite:///") and not self.url.startswith("sqlite:///:memory:"):
            Path(self.url[len("sqlite:///"):]).parent.mkdir(parents=True, exist_ok=True)
        pragmas = {"journal_mode": "wal", "foreign_keys": 1, "synchronous": "normal",
                   "busy_timeout": 10000} if self.url.startswith("sqlite") else {}
        self.db = connect(self.url, **({"pragmas": pragmas} if pragmas else {}))
        proxy.initialize(self.db)
        self.migrate()

    def close(self) -> None:
        self.db.close()

    def migrate(self) -> int:
        with self.db.atomic():
            self.db.create_tables([SchemaVersion])
            row = SchemaVersion.select().first()
            current = row.version if row else 0
            models = SimpleNamespace(**{model.__name__: model for model in MODELS})
            for version in range(current, len(MIGRATIONS)):
                MIGRATIONS[version](self.db, models)
            if row is None:
                SchemaVersion.create(version=len(MIGRATIONS))
            elif current < len(MIGRATIONS):
                row.version = len(MIGRATIONS)
                row.save()
        return len(MIGRATIONS)

    # -- games and inputs -------------------------------------------------------------------

    def find_game(self, key: str) -> GameRow | None:
        return GameRow.get_or_none(GameRow.key == key)

    def game(self, key: str, name: str) -> GameRow:
        row, _ = GameRow.get_or_create(key=key, defaults={"name": name})  # type: ignore[no-untyped-call,unused-ignore]
        return cast(GameRow, row)

    def inputs(self, game_id: int, after: int = 0) -> list[Any]:
        """The game's stored inputs in order (from the `after`-th on), as light records (named
        tuples with the columns' names: folding 10,000 of them at start-up should not build
        10,000 models)."""
        query = InputRow.select().where(InputRow.game == game_id).order_by(InputRow.id)
        return list((query.offset(after) if after else query).namedtuples())

    def input_count(self, game_id: int) -> int:
        return InputRow.select().where(InputRow.game == game_id).count()

    def snapshot(self, game_id: int) -> SnapshotRow | None:
        return SnapshotRow.get_or_none(SnapshotRow.game == game_id)

    def save_snapshot(self, game_id: int, inputs: int, version: str, data: bytes) -> None:
        SnapshotRow.insert(game=game_id, inputs=inputs, version=version, data=data).on_conflict(
            conflict_target=[SnapshotRow.game],
            update={SnapshotRow.inputs: inputs, SnapshotRow.version: version,
                    SnapshotRow.data: data}).execute()

    def thread_read(self, key: str) -> dict[str, Any] | None:
        row = ThreadReadRow.get_or_none(ThreadReadRow.key == key)
        return json.loads(bytes(row.data)) if row else None

    def save_thread_read(self, key: str, data: dict[str, Any] | None) -> None:
        """Keep a partial read (None: the read is done, forget it)."""
        if data is None:
            ThreadReadRow.delete().where(ThreadReadRow.key == key).execute()
            return
        blob = json.dumps(data).encode()
        ThreadReadRow.insert(key=key, data=blob).on_conflict(
            conflict_target=[ThreadReadRow.key], update={ThreadReadRow.data: blob}).execute()

    def events_by_input(self, game_id: int) -> dict[int, list[tuple[str, dict[str, Any]]]]:
        """The game's stored events, (type, data) in order, by the id of their input."""
        out: dict[int, list[tuple[str, dict[str, Any]]]] = {}
        rows = cast("Iterable[dict[str, Any]]", EventRow.select(EventRow.input, EventRow.type, EventRow.data)
                    .where(EventRow.game == game_id).order_by(EventRow.id).dicts())
        for row in rows:
            out.setdefault(row["input"], []).append((row["type"], json.loads(row["data"])))
        return out

    def has_inputs(self, game_id: int) -> bool:
        return InputRow.select().where(InputRow.game == game_id).exists()

    def latest_input_at(self) -> datetime | None:
        """The forum time of the latest stored input of any game."""
        value = InputRow.select(peewee.fn.MAX(InputRow.at)).scalar()
        return datetime.fromisoformat(value.replace("Z", "+00:00")) if value else None

    def cursor(self, name: str) -> int | None:
        row = CursorRow.get_or_none(CursorRow.name == name)
        return row.value if row else None

    def cursors_with(self, prefix: str) -> dict[str, int]:
        return {row.name: row.value for row in
                CursorRow.select().where(CursorRow.name.startswith(prefix))}

    # -- the one transaction ----------------------------------------------------------------

    def commit(self, batch: Batch) -> dict[str, str]:
        """One transaction; the posts' words rendered before it (rendering.py). Returns the
        posts held because their words failed to render (key -> error)."""
        keys = [out.key for out in batch.outbox]
        statuses = {r.key: r.status for r in OutboxRow.select(OutboxRow.key, OutboxRow.status)
                    .where(OutboxRow.key.in_(keys))} if keys else {}
        words, held = rendered(batch.outbox, statuses)
        with self.db.atomic():
            input_ids: dict[int, int] = {}
            for index, (game_id, fields) in enumerate(batch.inputs):
                input_ids[index] = InputRow.create(game=game_id, **fields).id
            if batch.events:
                EventRow.insert_many([
                    {"game": g, "input": input_ids.get(i) if i is not None else None,
                     "type": t, "data": json.dumps(d, default=str)}
                    for g, i, t, d in batch.events]).execute()
            for out in batch.outbox:
                if out.kind == "withdraw":  # a post not sent yet that became moot: never sent
                    OutboxRow.update(status="withdrawn").where(
                        (OutboxRow.key == out.edit_of) & (OutboxRow.status == "pending")
                        & (OutboxRow.attempts == 0)).execute()
                    continue
                if out.key not in words and out.key not in held:
                    continue  # stored already: nothing to render, nothing to write
                raw, pictures = words.get(out.key, ("", ()))
                status, error = ("held", held[out.key]) if out.key in held else ("pending", None)
                # ON CONFLICT (key) only: SQLite's INSERT OR IGNORE would also swallow a
                # NOT NULL violation and lose the post silently. (A conflict is a held row.)
                OutboxRow.insert(key=out.key, thread=out.thread, kind=out.kind,
                                 topic_id=out.topic_id, recipients=",".join(out.recipients) or None,
                                 title=out.title, raw=raw, edit_of=out.edit_of, status=status,
                                 last_error=error).on_conflict(
                    conflict_target=[OutboxRow.key], update={OutboxRow.raw: raw,
                                                             OutboxRow.status: status,
                                                             OutboxRow.last_error: error}
                ).execute()
                for sha1, png in pictures:
                    PictureRow.insert(sha1=sha1, png=png).on_conflict(
                        conflict_target=[PictureRow.sha1],
                        update={PictureRow.sha1: PictureRow.sha1}).execute()
            for key, (post_id, topic_id, number) in batch.adopted.items():
                OutboxRow.update(status="sent", post_id=post_id, topic_id=topic_id,
                                 post_number=number).where(
                    (OutboxRow.key == key) & (OutboxRow.status == "pending")).execute()
            for name, value in batch.cursors.items():
                CursorRow.insert(name=name, value=value).on_conflict(
                    conflict_target=[CursorRow.name], update={CursorRow.value: value}).execute()
            for game_id, number in batch.last_post_numbers.items():
                GameRow.update(last_post_number=number).where(
                    (GameRow.id == game_id) & (GameRow.last_post_number < number)).execute()
            self.commit_quarantine(batch)
        return held

    # -- outbox -----------------------------------------------------------------------------

    def row(self, key: str) -> OutboxRow | None:
        return OutboxRow.get_or_none(OutboxRow.key == key)

    def rows_in_post(self, post_id: int) -> list[OutboxRow]:
        """The sent rows one forum post carries (several, when the outbox merged posts to keep
        a non-staff bot under Discourse's consecutive-replies limit), in their order."""
        return list(OutboxRow.select().where(
            (OutboxRow.post_id == post_id) & (OutboxRow.kind == "post")
            & (OutboxRow.status == "sent")).order_by(OutboxRow.id))

    def posted(self, thread: str) -> dict[str, int]:
        """The post number of each post the bot made in a thread, by its row's key."""
        rows = cast("Iterable[dict[str, Any]]", OutboxRow.select(OutboxRow.key, OutboxRow.post_number).where(
            (OutboxRow.thread == thread) & (OutboxRow.status == "sent") & (OutboxRow.kind == "post")
            & OutboxRow.post_number.is_null(False)).dicts())
        return {row["key"]: row["post_number"] for row in rows}

    def newest_revision(self, key: str) -> OutboxRow | None:
        """The newest row of a post kept up to date: its last edit (any status), else itself."""
        newest = (OutboxRow.select().where((OutboxRow.key == key) | (OutboxRow.edit_of == key))
                  .order_by(OutboxRow.id.desc()).first())
        return cast(OutboxRow | None, newest)

    def latest_raw(self, row: OutboxRow) -> str:
        """A sent row's text as the forum shows it: its newest sent edit's, else its own."""
        edit = (OutboxRow.select(OutboxRow.raw).where(
            (OutboxRow.edit_of == row.key) & (OutboxRow.status == "sent"))
            .order_by(OutboxRow.id.desc()).first())
        return edit.raw if edit else row.raw

    def picture(self, sha1: str) -> PictureRow | None:
        return PictureRow.get_or_none(PictureRow.sha1 == sha1)

    def mark_uploaded(self, sha1: str, short_url: str) -> None:
        PictureRow.update(short_url=short_url).where(PictureRow.sha1 == sha1).execute()

    def pending(self) -> list[OutboxRow]:
        return list(OutboxRow.select().where(OutboxRow.status == "pending").order_by(OutboxRow.id))

    def due_count(self, now: float | None = None) -> int:
        """Pending rows whose time has come by `now` (the outbox's wall; by default real time):
        the requests the outbox wants now."""
        return OutboxRow.select().where((OutboxRow.status == "pending") & (
            OutboxRow.not_before <= (time.time() if now is None else now))).count()

    def thread_topic(self, thread: str) -> int | None:
        """The topic of a thread's latest sent post (a conversation closed to an invitee is
        followed by a new one: see app/posting/conversation_guard.py)."""
        row = (OutboxRow.select(OutboxRow.topic_id)
               .where((OutboxRow.thread == thread) & (OutboxRow.topic_id.is_null(False))
                      & (OutboxRow.status == "sent")).order_by(OutboxRow.id.desc()).first())
        return row.topic_id if row else None

    def threads_with_topic(self, threads: set[str]) -> set[str]:
        """Which of these threads have a topic (a post of theirs was sent), in one query."""
        if not threads:
            return set()
        return {r.thread for r in OutboxRow.select(OutboxRow.thread).distinct().where(
            OutboxRow.thread.in_(list(threads)) & OutboxRow.topic_id.is_null(False)
            & (OutboxRow.status == "sent"))}

    def last_sent_number(self, thread: str, topic_id: int | None = None) -> int:
        """The highest post number the bot is known to have posted in a thread (in its topic
        `topic_id`, when given; 0: none)."""
        where = (OutboxRow.thread == thread) & (OutboxRow.status == "sent")
        if topic_id is not None:
            where &= OutboxRow.topic_id == topic_id
        value = OutboxRow.select(peewee.fn.MAX(OutboxRow.post_number)).where(where).scalar()
        return value or 0

    def sent_post_ids(self, thread: str) -> set[int]:
        """The forum ids of the posts the bot made in a thread."""
        rows = cast("Iterable[tuple[int]]", OutboxRow.select(OutboxRow.post_id).where(
            (OutboxRow.thread == thread) & (OutboxRow.status == "sent")
            & OutboxRow.post_id.is_null(False)).tuples())
        return {post_id for (post_id,) in rows}

    def sent_numbers(self, after: dict[str, int]) -> dict[str, set[int]]:
        """For each thread, the post numbers above `after[thread]` the bot is known to have
        posted there (one query for all the threads)."""
        found: dict[str, set[int]] = {thread: set() for thread in after}
        if not after:
            return found
        rows = cast("Iterable[dict[str, Any]]", OutboxRow.select(OutboxRow.thread, OutboxRow.post_number)
                    .where(OutboxRow.thread.in_(list(after)) & (OutboxRow.status == "sent")
                           & (OutboxRow.post_number > min(after.values()))).dicts())
        for row in rows:
            if row["post_number"] > after[row["thread"]]:
                found[row["thread"]].add(row["post_number"])
        return found

    def own_numbers(self, topic_id: int, count: int = 3) -> list[int]:
        """The post numbers of the bot's last `count` posts in the topic, newest first."""
        rows = cast("Iterable[dict[str, Any]]", OutboxRow.select(OutboxRow.post_number).distinct().where(
            (OutboxRow.topic_id == topic_id) & (OutboxRow.status == "sent")
            & OutboxRow.post_number.is_null(False)).order_by(
            OutboxRow.post_number.desc()).limit(count).dicts())
        return [row["post_number"] for row in rows]

    def count_rows(self, prefix: str, status: str) -> int:
        """Outbox rows whose key starts with `prefix` (a game's) in `status`."""
        return OutboxRow.select().where(OutboxRow.key.startswith(prefix)
                                        & (OutboxRow.status == status)).count()

    def rewrite_pending(self, key: str, raw: str) -> None:
        """A post (or an edit) not sent yet takes newer words (the thread index's revision)."""
        OutboxRow.update(raw=raw).where((OutboxRow.key == key)
                                        & (OutboxRow.status == "pending")).execute()

    def another_author_posted(self, thread: str) -> None:
        """Someone else posted in the thread's topic: a reply that waited for that (a fourth
        in a row the forum would refuse: write_limits.py) is tried at once."""
        OutboxRow.update(not_before=0).where(
            (OutboxRow.thread == thread) & (OutboxRow.status == "pending")
            & (OutboxRow.not_before > 0)
            & OutboxRow.last_error.contains("waiting for another author's post")).execute()

    def send_again(self, keys: list[str]) -> None:
        """Rows to send once more (the last edit of a running count after a rebuild)."""
        if keys:
            OutboxRow.update(status="pending").where(OutboxRow.key.in_(keys)).execute()

    def forget_game(self, key: str, prefix: str) -> int:
        """Drop a game's stored inputs, events and outbox rows (before rebuilding it from the
        forum on purpose); return how many inputs were dropped."""
        row = self.find_game(key)
        with self.db.atomic():
            dropped = 0
            if row is not None:
                dropped = InputRow.delete().where(InputRow.game == row.id).execute()
                EventRow.delete().where(EventRow.game == row.id).execute()
                SnapshotRow.delete().where(SnapshotRow.game == row.id).execute()
                QuarantineRow.delete().where(QuarantineRow.game == row.id).execute()
                ParkedRow.delete().where(ParkedRow.game == row.id).execute()
                row.delete_instance()
            OutboxRow.delete().where(OutboxRow.key.startswith(prefix)).execute()
        return dropped

    def mark_attempt(self, row: OutboxRow) -> None:
        row.attempts += 1
        row.first_attempt = row.first_attempt or time.time()
        OutboxRow.update(attempts=row.attempts, first_attempt=row.first_attempt).where(
            OutboxRow.id == row.id).execute()

    def unmark_attempt(self, row: OutboxRow) -> None:
        """The attempt just marked was refused outright (nothing was made): forget it."""
        row.attempts = max(row.attempts - 1, 0)
        OutboxRow.update(attempts=row.attempts).where(OutboxRow.id == row.id).execute()

    def mark_sent(self, row: OutboxRow, post_id: int | None, topic_id: int | None,
                  post_number: int | None) -> None:
        OutboxRow.update(status="sent", post_id=post_id, topic_id=topic_id or row.topic_id,
                         post_number=post_number).where(OutboxRow.id == row.id).execute()

    def defer(self, row: OutboxRow, seconds: float, error: str, now: float | None = None) -> None:
        """The row waits `seconds` from `now` (the outbox's wall: a rehearsal's forum time)."""
        OutboxRow.update(not_before=(time.time() if now is None else now) + seconds,
                         last_error=error).where(
            OutboxRow.id == row.id).execute()

    def mark_failed(self, row: OutboxRow, error: str) -> None:
        OutboxRow.update(status="failed", last_error=error).where(OutboxRow.id == row.id).execute()

    def held(self, prefix: str) -> list[OutboxRow]:
        """The posts of a game (`prefix`: its key prefix) held: their words failed to render."""
        return list(OutboxRow.select().where((OutboxRow.status == "held") & (
            OutboxRow.key.startswith(prefix))).order_by(OutboxRow.id))

    def outbox_counts(self) -> dict[str, int]:
        query = cast("Iterable[dict[str, Any]]", OutboxRow.select(
            OutboxRow.status, peewee.fn.COUNT(OutboxRow.id).alias("n")).group_by(
            OutboxRow.status).dicts())
        return {row["status"]: row["n"] for row in query}
