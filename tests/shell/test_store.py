"""The store's contract, on a SQLite file, in-memory SQLite and PostgreSQL."""

import peewee
import pytest

from modbot.adapters.migrations import MIGRATIONS
from modbot.adapters.outgoing import Batch, Outgoing
from modbot.adapters.store import CursorRow, EventRow, GameRow, InputRow, OutboxRow, SchemaVersion, Store


@pytest.fixture()
def store(database_url):
    store = Store(database_url)
    yield store
    store.close()


def _post_input(n: int) -> dict:
    return {"kind": "post", "post_id": 100 + n, "post_number": n, "author": "Alex",
            "at": "2026-12-03T07:00:00Z", "raw": f"/vote Derek {n}", "raw_sha1": "x"}


def test_migrations_are_recorded_and_idempotent(store):
    assert store.migrate() == len(MIGRATIONS)
    assert SchemaVersion.select().count() == 1
    assert SchemaVersion.get().version == len(MIGRATIONS)


def test_one_commit_writes_inputs_events_outbox_and_cursors_together(store):
    game = store.game("42", "BotF 1")
    store.commit(Batch(inputs=[(game.id, _post_input(1))],
                       events=[(game.id, 0, "Nominated", {"nominee": "Derek"})],
                       outbox=[Outgoing("g42:vc:1.1", "g42:topic", "Vote count", topic_id=42)],
                       cursors={"public_post_id": 101}, last_post_numbers={game.id: 1}))
    (row,) = store.inputs(game.id)
    assert (row.post_number, row.raw) == (1, "/vote Derek 1")
    assert EventRow.get().input_id == row.id
    assert [r.key for r in store.pending()] == ["g42:vc:1.1"]
    assert store.cursor("public_post_id") == 101
    assert GameRow.get_by_id(game.id).last_post_number == 1


def test_a_failing_commit_writes_nothing(store):
    game = store.game("42", "BotF 1")
    bad = Outgoing("g42:bad", "g42:topic", None, topic_id=42)  # raw is NOT NULL
    with pytest.raises(peewee.IntegrityError):
        store.commit(Batch(inputs=[(game.id, _post_input(1))], outbox=[bad],
                           cursors={"public_post_id": 101}))
    assert InputRow.select().count() == 0 and OutboxRow.select().count() == 0
    assert store.cursor("public_post_id") is None


def test_outbox_keys_are_unique_so_rederived_posts_are_ignored(store):
    out = Outgoing("g42:end:1", "g42:topic", "Day 1 is over", topic_id=42)
    store.commit(Batch(outbox=[out]))
    store.commit(Batch(outbox=[Outgoing("g42:end:1", "g42:topic", "different", topic_id=42)]))
    assert [(r.key, r.raw) for r in OutboxRow.select()] == [("g42:end:1", "Day 1 is over")]


def test_cursor_upsert_and_last_post_number_never_goes_back(store):
    game = store.game("42", "BotF 1")
    for value in (5, 9):
        store.commit(Batch(cursors={"public_post_id": value}))
    assert store.cursor("public_post_id") == 9 and CursorRow.select().count() == 1
    store.commit(Batch(last_post_numbers={game.id: 7}))
    store.commit(Batch(last_post_numbers={game.id: 3}))
    assert GameRow.get_by_id(game.id).last_post_number == 7


def test_outbox_lifecycle(store):
    store.commit(Batch(outbox=[
        Outgoing("g42:rejected:5", "g42:pm:alex", "first", recipients=("Alex",), title="t"),
        Outgoing("g42:rejected:9", "g42:pm:alex", "second", recipients=("Alex",), title="t")]))
    first, second = store.pending()
    assert first.recipients == "Alex" and store.thread_topic("g42:pm:alex") is None
    store.mark_attempt(first)
    store.mark_sent(first, 777, 55, 1)
    assert store.thread_topic("g42:pm:alex") == 55
    assert store.last_sent_number("g42:pm:alex") == 1
    store.defer(second, 30, "rate limited")
    store.mark_failed(second, "422")
    assert store.outbox_counts() == {"sent": 1, "failed": 1}
    assert OutboxRow.get(OutboxRow.key == "g42:rejected:5").attempts == 1


def test_games_are_found_again_by_key(store):
    first = store.game("42", "BotF 1")
    assert store.game("42", "BotF 1").id == first.id
    assert store.game("43", "BotF 2").id != first.id


def test_sqlite_file_is_created_in_a_new_folder_with_wal(tmp_path):
    store = Store(f"sqlite:///{tmp_path}/new/dir/modbot.sqlite")
    try:
        assert (tmp_path / "new" / "dir" / "modbot.sqlite").exists()
        assert store.db.execute_sql("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        store.close()


def test_a_version_1_database_is_migrated(tmp_path):
    import sqlite3
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as db:  # the schema as version 1 created it
        db.executescript("""
            CREATE TABLE schema_version (id INTEGER PRIMARY KEY, version INTEGER NOT NULL);
            INSERT INTO schema_version (version) VALUES (1);
            CREATE TABLE game_row (id INTEGER PRIMARY KEY, key VARCHAR(255) NOT NULL UNIQUE,
                name VARCHAR(255) NOT NULL, last_post_number INTEGER NOT NULL);
            CREATE TABLE input_row (id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL,
                kind VARCHAR(255) NOT NULL, post_id INTEGER, post_number INTEGER,
                author VARCHAR(255), at VARCHAR(255) NOT NULL, raw TEXT, raw_sha1 VARCHAR(255));
            INSERT INTO game_row (key, name, last_post_number) VALUES ('42', 'old game', 3);
            INSERT INTO input_row (game_id, kind, post_id, post_number, author, at, raw)
                VALUES (1, 'post', 7, 3, 'Alex', '2026-12-03T07:00:00Z', '/vote Derek');
        """)
    store = Store(f"sqlite:///{path}")
    try:
        assert SchemaVersion.get().version == len(MIGRATIONS) == 11
        assert store.find_game("42").seal_salt is None  # v10: made when the game next starts
        (row,) = store.inputs(1)
        assert (row.raw, row.topic_id, row.shared, row.participants) == \
            ("/vote Derek", None, None, None)
    finally:
        store.close()


def test_the_bots_sent_post_numbers_after_each_threads_cursor_in_one_query(store):
    store.commit(Batch(outbox=[Outgoing(f"g{t}:post:{n}", f"g{t}:topic", "A post.", topic_id=t)
                               for t in (1, 2) for n in range(3)]))
    for n, row in enumerate(store.pending()):
        store.mark_sent(row, 100 + n, row.topic_id, 10 + n % 3)  # numbers 10, 11, 12 in each
    found = store.sent_numbers({"g1:topic": 10, "g2:topic": 11, "g3:topic": 0})
    assert found == {"g1:topic": {11, 12}, "g2:topic": {12}, "g3:topic": set()}
