"""Theory of operation: the store as each of its users depends on it, a `Protocol` per use.

`Store` (store.py) is the one that keeps everything in SQLite or PostgreSQL; each part of the
bot is handed it under the narrow protocol of what that part reads and writes, as the forum is
handed as a `ForumPort`: the reading (its cursors, the numbers and ids the bot's own posts
took, the long reads under way), the games (an input committed with what it caused, and the
outbox rows a note is checked against), the quarantine, the identities (the places bound by
id), the bot's own posts kept up to date (the thread index, the seal), and the outbox (the
rows it sends). The composition root (app/running/parts.py) hands the one `Store` to all of
them; mypy checks that it is each of these, and a test may give anything with the members.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from collections.abc import Iterable

    from .outgoing import Batch
    from .port import ForumPost
    from .store_models import GameRow, OutboxRow, ParkedRow, PictureRow, QuarantineRow
    from .store_sightings import Sighting


class Committing(Protocol):
    def commit(self, batch: Batch) -> dict[str, str]: ...


class Cursors(Protocol):
    def cursor(self, name: str) -> int | None: ...


class ReadingStore(Committing, Cursors, Protocol):
    """The reading (app/reading/): where the inbox was read to, the numbers and ids of the
    bot's own posts in each thread, a long thread's read under way."""

    def sent_numbers(self, after: dict[str, int]) -> dict[str, set[int]]: ...
    def sent_post_ids(self, thread: str) -> set[int]: ...
    def thread_read(self, key: str) -> dict[str, Any] | None: ...
    def save_thread_read(self, key: str, data: dict[str, Any] | None) -> None: ...


class OwnPostStore(Committing, Cursors, Protocol):
    """The bot's own posts as it sent them (the seal, a note checked against its edits)."""

    def row(self, key: str) -> OutboxRow | None: ...


class GameStore(OwnPostStore, Protocol):
    """The games (app/games/handling.py, feeding.py): an input committed with its events and
    posts, and a thread where another author posted (a non-staff bot's reply may go)."""

    def another_author_posted(self, thread: str) -> None: ...


class QuarantineStore(Committing, Protocol):
    """The inputs that could not be handled (app/games/quarantine.py)."""

    def quarantined(self, game_id: int | None = None,
                    status: str | None = None) -> list[QuarantineRow]: ...
    def next_quarantine_number(self, game_id: int | None) -> int: ...
    def parked(self, game_id: int) -> list[ParkedRow]: ...
    def held_games(self) -> set[int]: ...
    def quarantine_known(self) -> set[tuple[int | None, str, int | None]]: ...


class CursorFamily(Protocol):
    """Cursors by a common prefix (the bus's channels' last ids, the places bound)."""

    def cursors_with(self, prefix: str) -> dict[str, int]: ...


class IdentityStore(Committing, Cursors, CursorFamily, Protocol):
    """The places bound to user ids (app/games/identities.py)."""


class LoopStore(Committing, CursorFamily, Protocol):
    """The run loop (app/running/run_loop.py): the key's day so far and the bus's last ids
    kept across a restart, and the store closed at the stop."""

    def close(self) -> None: ...


class GameRows(Protocol):
    """A game's own row (the seal's salt: app/starting/seal_salt.py)."""

    def game(self, key: str, name: str) -> GameRow: ...
    def find_game(self, key: str) -> GameRow | None: ...


class SignupStore(Committing, Protocol):
    """The sign-up threads (app/starting/signups.py): the list post, and each post's texts as
    the bot read them (evidence of what a post said before an edit)."""

    def sightings(self, post_ids: Iterable[int]) -> dict[int, list[Sighting]]: ...
    def record_sightings(self, posts: Iterable[ForumPost]) -> None: ...


class IndexStore(Protocol):
    """The thread index (app/posting/thread_index.py): what the bot posted in a thread, and
    its index's newest revision."""

    def posted(self, thread: str) -> dict[str, int]: ...
    def newest_revision(self, key: str) -> OutboxRow | None: ...
    def rewrite_pending(self, key: str, raw: str) -> None: ...


class PendingStore(Protocol):
    """What waits to be sent (app/posting/outbox_hooks.py)."""

    def pending(self) -> list[OutboxRow]: ...


class OutboxStore(OwnPostStore, PendingStore, Protocol):
    """The outbox (outbox.py, write_limits.py, members.py): the rows it sends, their attempts,
    where each went, the pictures it uploaded."""

    def mark_attempt(self, row: OutboxRow) -> None: ...
    def unmark_attempt(self, row: OutboxRow) -> None: ...
    def mark_sent(self, row: OutboxRow, post_id: int | None, topic_id: int | None,
                  post_number: int | None) -> None: ...
    def mark_failed(self, row: OutboxRow, error: str) -> None: ...
    def defer(self, row: OutboxRow, seconds: float, error: str,
              now: float | None = None) -> None: ...
    def mark_uploaded(self, sha1: str, short_url: str) -> None: ...
    def picture(self, sha1: str) -> PictureRow | None: ...
    def rows_in_post(self, post_id: int) -> list[OutboxRow]: ...
    def latest_raw(self, row: OutboxRow) -> str: ...
    def last_sent_number(self, thread: str, topic_id: int | None = None) -> int: ...
    def thread_topic(self, thread: str) -> int | None: ...
    def threads_with_topic(self, threads: set[str]) -> set[str]: ...
    def own_numbers(self, topic_id: int, count: int = 3) -> list[int]: ...
