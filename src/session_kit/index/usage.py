"""The index's token rows as the `usage` report reads them: each API message once.

Owns: the queries over `messages` and `agent_results` for a set of files (the ones on disk
now): per file, hour and model the sums of the messages the file owns — a message several
files hold (a resumed or copied file repeats earlier ones) belongs to the file written first
(`files.modified`, then the path) — how many repeats were left out, and the usage `Agent`
results report of agents none of those files is the log of (once per agent, its first
file's). Does not: update the index (`update`), group by day, week or anything else, or
price (`usage.history`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass

from session_kit.index.db import TOKEN_COLUMNS

_SUMS = ", ".join(f"sum({c.strip()})" for c in TOKEN_COLUMNS.split(","))

_MESSAGES = f"""
WITH ranked AS (
    SELECT m.file_id, m.hour, m.model, {TOKEN_COLUMNS},
           row_number() OVER (PARTITION BY m.key ORDER BY u.rank) > 1 AS repeated
    FROM messages m JOIN usage_files u ON u.id = m.file_id)
SELECT file_id, hour, model, repeated, {_SUMS}, count(*) FROM ranked GROUP BY file_id, hour, model, repeated
"""

_RESULTS = f"""
WITH ranked AS (
    SELECT r.file_id, r.agent_id, r.hour, r.model, r.source, {TOKEN_COLUMNS},
           row_number() OVER (PARTITION BY r.agent_id ORDER BY u.rank) AS nth
    FROM agent_results r JOIN usage_files u ON u.id = r.file_id
    WHERE NOT EXISTS (SELECT 1 FROM files f JOIN usage_files l ON l.id = f.id WHERE f.agent = r.agent_id))
SELECT file_id, agent_id, hour, model, source, {TOKEN_COLUMNS} FROM ranked WHERE nth = 1
"""

_FILES = """
SELECT f.id, f.project, f.session, f.agent, a.type
FROM files f JOIN usage_files u ON u.id = f.id LEFT JOIN agents a ON a.session = f.session AND a.agent_id = f.agent
"""


@dataclass(frozen=True, slots=True)
class UsageFile:
    project: str | None
    session: str
    agent: str | None
    agent_type: str | None


@dataclass(frozen=True, slots=True)
class UsageRows:
    files: dict[int, UsageFile]
    messages: list[tuple[int, int, str, tuple[int, ...]]]  # (file id, hour, model, Usage fields)
    agent_results: list[tuple[int, str, int, str, str, tuple[int, ...]]]  # (file, agent, hour, model, source, fields)
    repeated: int  # messages a later file repeats, left out


def usage_rows(conn: sqlite3.Connection, paths: Iterable[str]) -> UsageRows:
    """The token rows of the files at `paths` (as the index names them)."""
    conn.execute("CREATE TEMP TABLE IF NOT EXISTS usage_paths(path TEXT PRIMARY KEY)")
    conn.execute("CREATE TEMP TABLE IF NOT EXISTS usage_files(id INTEGER PRIMARY KEY, rank INTEGER)")
    conn.execute("DELETE FROM usage_paths")
    conn.execute("DELETE FROM usage_files")
    conn.executemany("INSERT OR IGNORE INTO usage_paths VALUES(?)", ((_text(p),) for p in paths))
    conn.execute(
        "INSERT INTO usage_files SELECT f.id, row_number() OVER (ORDER BY f.modified, f.path)"
        " FROM files f JOIN usage_paths p ON p.path = f.path"
    )
    files = {row[0]: UsageFile(*row[1:]) for row in conn.execute(_FILES)}
    messages = []
    repeated = 0
    for file_id, hour, model, again, *sums in conn.execute(_MESSAGES):
        if again:
            repeated += sums[-1]
        else:
            messages.append((file_id, hour, model, tuple(sums)))
    results = [
        (file_id, agent_id, hour, model, source, (*tokens, 1))
        for file_id, agent_id, hour, model, source, *tokens in conn.execute(_RESULTS)
    ]
    return UsageRows(files, messages, results, repeated)


def _text(path: str) -> str:
    """The path as the index stores it (a lone surrogate as U+FFFD, `rows.sql_value`)."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        from session_kit.index.rows import sql_value

        return str(sql_value(path))
    return path
