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

_MESSAGES = f"SELECT file_id, hour, model, {_SUMS}, count(*) FROM messages GROUP BY file_id, hour, model"
# The messages held more than once (a resumed or copied file repeats earlier ones): few, so
# the common case costs no sort of every message by key.
_REPEATS = f"""
SELECT file_id, key, hour, model, {TOKEN_COLUMNS} FROM messages
WHERE key IN (SELECT key FROM messages GROUP BY key HAVING count(*) > 1)
"""
_RESULTS = f"SELECT file_id, agent_id, hour, model, source, {TOKEN_COLUMNS} FROM agent_results"
_FILES = """
SELECT f.id, f.path, f.modified, f.project, f.session, f.agent, a.type
FROM files f LEFT JOIN agents a ON a.session = f.session AND a.agent_id = f.agent
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
    """The token rows of the files at `paths` (files the index keeps but are not named, such
    as those the client deleted, are left out). The sums are read whole and filtered here:
    cheaper than telling SQLite which files, on a history of any size."""
    wanted = {_text(p) for p in paths}
    found = [row for row in conn.execute(_FILES) if row[1] in wanted]
    found.sort(key=lambda row: (row[2] or 0, row[1]))  # the file written first owns a message
    rank = {row[0]: n for n, row in enumerate(found)}
    files = {row[0]: UsageFile(*row[3:]) for row in found}
    sums = {(f, h, m): rest for f, h, m, *rest in conn.execute(_MESSAGES) if f in rank}
    copies: dict[str, list[tuple]] = {}
    for file_id, key, *rest in conn.execute(_REPEATS):
        if file_id in rank:
            copies.setdefault(key, []).append((rank[file_id], file_id, *rest))
    repeated = 0
    for held in copies.values():
        held.sort()
        for _rank, file_id, hour, model, *tokens in held[1:]:
            row = sums[(file_id, hour, model)]
            for i, v in enumerate(tokens):
                row[i] -= v
            row[-1] -= 1
            repeated += 1
    messages = [(f, h, m, tuple(rest)) for (f, h, m), rest in sums.items() if rest[-1]]
    logged = {f.agent for f in files.values() if f.agent}
    first: dict[str, tuple] = {}
    for file_id, agent_id, hour, model, source, *tokens in conn.execute(_RESULTS):
        if file_id not in rank or agent_id in logged:
            continue
        if agent_id not in first or rank[file_id] < rank[first[agent_id][0]]:
            first[agent_id] = (file_id, agent_id, hour, model, source, (*tokens, 1))
    return UsageRows(files, messages, list(first.values()), repeated)


def _text(path: str) -> str:
    """The path as the index stores it (a lone surrogate as U+FFFD, `rows.sql_value`)."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        from session_kit.index.db import sql_value

        return str(sql_value(path))
    return path
