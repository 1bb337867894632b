"""Shared fixtures: the databases the store runs on."""

import os

import pytest

POSTGRES_URL = os.environ.get("MODBOT_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


def postgres_available() -> str | None:
    """None when PostgreSQL answers, else why not."""
    try:
        import psycopg2
        psycopg2.connect(POSTGRES_URL.replace("postgresql://", "postgres://"),
                         connect_timeout=3).close()
        return None
    except Exception as exc:
        return f"{exc.__class__.__name__}: {str(exc).strip()[:120]}"


def _reset_postgres() -> None:
    import psycopg2
    with psycopg2.connect(POSTGRES_URL.replace("postgresql://", "postgres://")) as conn, \
            conn.cursor() as cur:
        cur.execute("DROP TABLE IF EXISTS event_row, input_row, outbox_row, cursor_row, "
                    "game_row, picture_row, schema_version CASCADE")
    conn.close()


@pytest.fixture(params=["sqlite-file", "sqlite-memory", "postgresql"])
def database_url(request, tmp_path):
    if request.param == "sqlite-file":
        return f"sqlite:///{tmp_path}/modbot.sqlite"
    if request.param == "sqlite-memory":
        return "sqlite:///:memory:"
    why = postgres_available()
    if why is not None:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL is required in CI ({POSTGRES_URL}): {why}")
        pytest.skip(f"PostgreSQL not reachable at {POSTGRES_URL}: {why}")
    _reset_postgres()
    return POSTGRES_URL
