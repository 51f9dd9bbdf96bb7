"""The team tests' PostgreSQL: one real server for the whole run (`tests/support/postgres.py`),
a new database for each test. Without a server they skip, saying why; under `CI=true` they
fail instead (`tests/run.sh` installs the distribution's package where it can)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.support import postgres


@pytest.fixture(scope="session")
def pg_server() -> Iterator[postgres.Server]:
    try:
        server = postgres.start()
    except postgres.NoServer as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the team tests need a PostgreSQL server: {exc} (CI=true: they must run)")
        pytest.skip(f"no PostgreSQL server: {exc}")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def team_db(pg_server: postgres.Server, monkeypatch: pytest.MonkeyPatch) -> str:
    """A new, empty database's name; `$SESSION_KIT_TEAM_URL` points at it, `$USER` is `alice`."""
    name = pg_server.new_database()
    monkeypatch.setenv("SESSION_KIT_TEAM_URL", pg_server.url(name))
    monkeypatch.setenv("USER", "alice")
    monkeypatch.setenv("LOGNAME", "alice")
    monkeypatch.delenv("PGPASSWORD", raising=False)
    return name
