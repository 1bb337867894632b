"""Theory of operation: one daemon per database, held by a lock the operating system or the
database server lets go of when the process dies.

Two `modbot run`s on one database would both read the forum and both post: each would send
what the other already sent, and the rate-limit answers they cause would look like the
forum's fault. So `modbot run` takes this lock before it reads anything, and a second one is
refused with one line. On SQLite the lock is an exclusive `flock` on a file beside the
database (`modbot.sqlite.lock`), held by an open file the kernel closes when the process
ends, however it ends; on PostgreSQL it is a session advisory lock
(`pg_try_advisory_lock`) on a connection of its own, which the server releases when that
connection closes, a killed process included. An in-memory SQLite database is the process's
own, so it needs no lock.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from playhouse.db_url import connect

ADVISORY_KEY = 0x6D6F64626F74  # "modbot": the key of the advisory lock, the same everywhere


class AlreadyRunning(Exception):
    """Another process holds this database's lock."""


class RunLock:
    """Held from `take` until `release` (or the process ends)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._file: int | None = None
        self._db = None

    @classmethod
    def take(cls, url: str) -> RunLock:
        lock = cls(url)
        if url.startswith("sqlite:///") and ":memory:" not in url:
            lock._take_file(Path(url[len("sqlite:///"):] + ".lock"))
        elif url.startswith(("postgres://", "postgresql://")):
            lock._take_advisory()
        return lock

    def _take_file(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise AlreadyRunning(self.url) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())  # who holds it, for a person who looks
        self._file = fd

    def _take_advisory(self) -> None:
        db = connect(self.url)
        held = db.execute_sql("SELECT pg_try_advisory_lock(%s)", (ADVISORY_KEY,)).fetchone()[0]
        if not held:
            db.close()
            raise AlreadyRunning(self.url)
        self._db = db

    def release(self) -> None:
        if self._file is not None:
            os.close(self._file)  # closing the file lets go of the flock
            self._file = None
        if self._db is not None:
            self._db.close()  # the session's advisory lock ends with it
            self._db = None
