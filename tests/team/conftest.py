"""The team tests' PostgreSQL: one real server for the whole run, a new database for each test
(`tests/support/postgres.py`). Without a server they skip, saying why; under `CI=true` they
fail instead (`tests/run.sh` installs the distribution's package where it can)."""

from __future__ import annotations

from tests.support.postgres import pg_server, team_db  # noqa: F401  (fixtures, used by name)
