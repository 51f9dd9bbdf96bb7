"""Pushing the local index's rows into the team database.

Owns: what a push sends and when. The unit is a file of the index: a file whose follower's
checkpoint (`files.tail`: how far it was read, its head and tail hashes; and whether its texts
are indexed) is the one the team database recorded for it is skipped, so pushing again sends nothing and adds no row;
a file that changed has its rows replaced whole (its texts, calls, messages and agent results,
as the index holds them now: a call paired since, a message's last line). Files go in batches,
one transaction each, the checkpoint written in the same transaction as the rows: a push
killed (or a server lost) mid-way leaves every file either as the previous push left it or
complete, and the next push sends the rest. A session's provenance (origin, machine, user) is
written by its first push and never changed; its facts are updated only by pushes of that same
origin. Text leaves the machine as the index stores it: redacted by `session_kit.redaction.engine` when
it was indexed (a NUL, which PostgreSQL's text cannot hold, becomes U+FFFD). Does not: bring
the index up to date (`sync`), or connect (`connection`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

BATCH_FILES = 100  # files per transaction: a kill loses at most one batch's work, never half of one
BATCH_ROWS = 50_000

_SESSION_FACTS = (
    "project", "cwd", "path", "title", "first_request", "started", "ended", "branch", "version",
    "input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens", "agents", "compactions",
)  # fmt: skip
_TOKENS = ("input", "output", "cache_read", "cache_write_5m", "cache_write_1h", "web_search", "web_fetch")
# table -> (the index's columns after file_id, the team table's same columns)
_ROWS = {
    "texts": ("session, agent, line, ts, kind, tool, status, text, kit",) * 2,
    "calls": ("session, agent, tool_use_id, tool, summary, status, exit_code, error, started, duration_s, line",) * 2,
    "messages": (f"key, session, agent, hour, model, {', '.join(_TOKENS)}",) * 2,
    "agent_results": (f"session, agent_id, hour, model, {', '.join(_TOKENS)}, source",) * 2,
}


@dataclass(frozen=True, slots=True)
class PushResult:
    files: int  # files whose rows were sent
    unchanged: int  # files already in the team database as they are
    sessions: int  # sessions whose row was written or updated
    rows: int  # texts, calls, messages and agent results sent
    machine: str
    origin: str
    database: str = ""  # its address, without the password

    def as_dict(self) -> dict[str, Any]:
        return {
            "machine": self.machine,
            "origin": self.origin,
            "files": self.files,
            "unchanged": self.unchanged,
            "sessions": self.sessions,
            "rows": self.rows,
            "database": self.database,
        }


@dataclass(frozen=True, slots=True)
class _File:
    local_id: int
    name: str  # the path as the team database keys it
    session: str
    agent: str | None
    project: str | None
    modified: int | None
    warmup: bool
    checkpoint: str


def clean(value: object) -> object:
    """A value PostgreSQL takes: text without NUL; a boolean for the index's 0/1 flags."""
    if isinstance(value, str) and "\x00" in value:
        return value.replace("\x00", "\ufffd")
    return value


def _pushed_at(texts: int, offset: int, size: int, ino: int | None, tail: str | None) -> str:
    """What a file's pushed rows stand for: how far the index read it, and its content there
    (the follower's head and tail hashes), not where it lies (its inode, its time): a second
    download of the same CI artifact is the same file."""
    from session_kit.base.follow import Checkpoint

    cp = Checkpoint.from_text(tail)
    if cp is None or not (cp.head or cp.tail):
        return f"{texts}|{offset}|{size}|{ino}"
    return f"{texts}|{cp.offset}|{cp.size}|{cp.head}|{cp.tail}"


def _local_files(index: sqlite3.Connection, name_of: Callable[[str], str]) -> list[_File]:
    rows = index.execute(
        "SELECT id, path, session, agent, project, modified, warmup, offset, size, ino, tail, texts FROM files ORDER BY id"
    )
    return [
        _File(
            fid,
            name_of(path),
            session,
            agent,
            project,
            modified,
            bool(warmup),
            _pushed_at(texts, offset, size, ino, tail),
        )
        for fid, path, session, agent, project, modified, warmup, offset, size, ino, tail, texts in rows
        if session
    ]


def push(
    index: sqlite3.Connection,
    team: Any,
    *,
    machine: str,
    origin: str,
    user: str | None,
    present: Iterable[str] | None = None,
    name_of: Callable[[str], str] = str,
    progress: Callable[[int, int], object] | None = None,
) -> PushResult:
    """Send what changed in `index` since the last push of `machine` (the schema is ready:
    `schema.ready`). `present`: the paths on disk now (the rest stay, marked not present);
    `name_of`: a path as the team database keys it (a CI folder's, relative to the folder).
    The provenance is text like any other: a NUL in a machine's name is cleaned (`clean`)."""
    machine, origin, user = clean(machine), clean(origin), clean(user)
    files = _local_files(index, name_of)
    pushed = dict(team.execute("SELECT path, checkpoint FROM files WHERE machine = %s", (machine,)).fetchall())
    team.commit()
    changed = [f for f in files if pushed.get(f.name) != f.checkpoint]
    sessions = sent = done = 0
    for batch in _batches(index, changed):
        with team.transaction():
            sessions += _push_sessions(index, team, {f.session for f in batch}, machine, origin, user, name_of)
            sent += _push_files(index, team, batch, machine, user)
        done += len(batch)
        if progress is not None:
            progress(done, len(changed))
    if present is not None:
        names = sorted({name_of(p) for p in present})
        with team.transaction():
            team.execute(
                "UPDATE files SET present = (path = ANY(%s)) WHERE machine = %s AND present IS DISTINCT FROM (path = ANY(%s))",
                (names, machine, names),
            )
    return PushResult(len(changed), len(files) - len(changed), sessions, sent, machine, origin)


def _batches(index: sqlite3.Connection, changed: Sequence[_File]) -> Iterator[list[_File]]:
    """The changed files in groups of at most BATCH_FILES, and about BATCH_ROWS texts."""
    texts = dict(index.execute("SELECT file_id, count(*) FROM texts GROUP BY file_id"))
    batch: list[_File] = []
    rows = 0
    for f in changed:
        batch.append(f)
        rows += texts.get(f.local_id, 0)
        if len(batch) >= BATCH_FILES or rows >= BATCH_ROWS:
            yield batch
            batch, rows = [], 0
    if batch:
        yield batch


def _push_sessions(
    index: sqlite3.Connection,
    team: Any,
    ids: set[str],
    machine: str,
    origin: str,
    user: str | None,
    name_of: Callable[[str], str],
) -> int:
    marks = ",".join("?" * len(ids))
    rows = index.execute(f"SELECT id, {', '.join(_SESSION_FACTS)} FROM sessions WHERE id IN ({marks})", sorted(ids))
    columns = ("id", "origin", "machine", "user_name", *_SESSION_FACTS)
    update = ", ".join(f"{c} = EXCLUDED.{c}" for c in _SESSION_FACTS)
    values = [
        # its transcript named as its file is (a CI folder's: relative to the folder)
        [clean(v) for v in (row[0], origin, machine, user, *row[1:3], name_of(row[3]) if row[3] else None, *row[4:])]
        for row in rows
    ]
    if not values:
        return 0
    with team.cursor() as cur:
        cur.executemany(
            f"INSERT INTO sessions({', '.join(columns)}) VALUES ({', '.join(['%s'] * len(columns))})"
            f" ON CONFLICT (id) DO UPDATE SET {update}, last_pushed = now()"
            " WHERE sessions.origin = EXCLUDED.origin",  # provenance: the first push's, kept
            values,
        )
        return max(cur.rowcount, 0)


def _push_files(index: sqlite3.Connection, team: Any, batch: Sequence[_File], machine: str, user: str | None) -> int:
    """The batch's files (their rows replaced whole) and their agents; the rows sent."""
    with team.cursor() as cur:
        cur.executemany(
            "INSERT INTO files(machine, path, session, agent, project, modified, warmup, user_name, present,"
            " checkpoint) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, true, %s)"
            " ON CONFLICT (machine, path) DO UPDATE SET session = EXCLUDED.session, agent = EXCLUDED.agent,"
            " project = EXCLUDED.project, modified = EXCLUDED.modified, warmup = EXCLUDED.warmup,"
            " user_name = EXCLUDED.user_name, present = true, checkpoint = EXCLUDED.checkpoint RETURNING id",
            [
                [
                    clean(v)
                    for v in (machine, f.name, f.session, f.agent, f.project, f.modified, f.warmup, user, f.checkpoint)
                ]
                for f in batch
            ],
            returning=True,
        )
        team_ids = []
        while True:
            team_ids.append(cur.fetchone()[0])
            if not cur.nextset():
                break
        team_of = {f.local_id: team_id for f, team_id in zip(batch, team_ids)}
        marks = ",".join("?" * len(batch))
        local_ids = list(team_of)
        sent = 0
        for table, (local_columns, team_columns) in _ROWS.items():
            cur.execute(f"DELETE FROM {table} WHERE file_id = ANY(%s)", (team_ids,))
            rows = index.execute(f"SELECT file_id, {local_columns} FROM {table} WHERE file_id IN ({marks})", local_ids)
            kit = table == "texts"
            with cur.copy(f"COPY {table} (file_id, {team_columns}) FROM STDIN") as copy:
                for row in rows:
                    values = [team_of[row[0]], *map(clean, row[1:])]
                    if kit:
                        values[-1] = bool(values[-1])
                    copy.write_row(values)
                    sent += 1
        agents = [
            [clean(v) for v in (machine, f.session, f.agent, *found)]
            for f in batch
            if f.agent is not None
            and (
                found := index.execute(
                    "SELECT type, description FROM agents WHERE session = ? AND agent_id = ?", (f.session, f.agent)
                ).fetchone()
            )
        ]
        if agents:
            cur.executemany(
                "INSERT INTO agents VALUES (%s, %s, %s, %s, %s) ON CONFLICT (machine, session, agent_id)"
                " DO UPDATE SET type = EXCLUDED.type, description = EXCLUDED.description",
                agents,
            )
    return sent
