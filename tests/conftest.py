"""Shared fixtures: the databases the store runs on.

PostgreSQL: the server at `MODBOT_TEST_POSTGRES` (default: the `test` database on
127.0.0.1:5432, trust auth); each test run makes a database of its own there
(`run_database`), dropped when the run ends, so two suites on one server (two checkouts, or
CI beside a developer's run) never share tables or an advisory lock (a PostgreSQL advisory
lock is per database: adapters/run_lock.py).
"""

import atexit
import os
import secrets
from functools import cache
from pathlib import Path

import pytest

SERVER_URL = os.environ.get("MODBOT_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


E2E = Path(__file__).parent / "e2e"


def pytest_ignore_collect(collection_path: Path, config) -> bool | None:
    """The fast loop (`-m "not slow"`) does not even import the end-to-end modules: every
    test there is marked slow (tests/test_architecture.py checks it), so they would all be
    deselected after seconds of imports."""
    if config.getoption("markexpr", "").strip() == "not slow" and \
            collection_path.is_relative_to(E2E):
        return True
    return None


def _dsn(url: str) -> str:
    return url.replace("postgresql://", "postgres://")


def postgres_available() -> str | None:
    """None when PostgreSQL answers, else why not."""
    try:
        import psycopg2
        psycopg2.connect(_dsn(SERVER_URL), connect_timeout=3).close()
        return None
    except Exception as exc:
        return f"{exc.__class__.__name__}: {str(exc).strip()[:120]}"


@cache
def run_database() -> str:
    """The URL of this run's own database on the test server (made on first use)."""
    import psycopg2
    name = f"modbot_test_{os.getpid()}_{secrets.token_hex(4)}"
    conn = psycopg2.connect(_dsn(SERVER_URL))
    conn.autocommit = True
    with conn.cursor() as cur:
        cur.execute(f"CREATE DATABASE {name}")
    conn.close()
    atexit.register(_drop, name)
    return SERVER_URL.rsplit("/", 1)[0] + f"/{name}"


def _drop(name: str) -> None:
    import psycopg2
    try:
        conn = psycopg2.connect(_dsn(SERVER_URL))
        conn.autocommit = True
        with conn.cursor() as cur:
            cur.execute(f"DROP DATABASE IF EXISTS {name}")
        conn.close()
    except Exception:  # the server went away first: nothing to drop
        pass


def _reset_postgres(url: str) -> None:
    import psycopg2
    with psycopg2.connect(_dsn(url)) as conn, conn.cursor() as cur:
        cur.execute("DROP TABLE IF EXISTS event_row, input_row, outbox_row, cursor_row, "
                    "game_row, picture_row, snapshot_row, thread_read_row, schema_version "
                    "CASCADE")
    conn.close()


def postgres_url() -> str:
    """This run's PostgreSQL database, or a skip (a failure in CI) when none answers."""
    why = postgres_available()
    if why is not None:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL is required in CI ({SERVER_URL}): {why}")
        pytest.skip(f"PostgreSQL not reachable at {SERVER_URL}: {why}")
    return run_database()


@pytest.fixture(params=["sqlite-file", "sqlite-memory", "postgresql"])
def database_url(request, tmp_path):
    if request.param == "sqlite-file":
        return f"sqlite:///{tmp_path}/modbot.sqlite"
    if request.param == "sqlite-memory":
        return "sqlite:///:memory:"
    url = postgres_url()
    _reset_postgres(url)
    return url
