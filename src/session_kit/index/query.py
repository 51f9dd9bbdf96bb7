"""Searching the index: filters, ranking, context, and the command that resumes each hit.

Owns: turning a query into an FTS5 phrase (or, where the index was made without FTS5, a
case-insensitive scan of the stored text), the filters users ask for (project, tool, errors
only, since/until, agent), ranking (the kit's own echoes last, and only when asked for; then FTS5's bm25, then the
newest), the snippet around each hit
(cut from the stored, already redacted text) and, per hit, how to resume its session:
`cd <project> && claude --resume <id>`, with `session-kit restore <id>` first when the client
deleted the transcript and the kit's archive holds it; for a session that can be neither
resumed nor restored (an orphan agent log's), `session-kit show <the hit's file>`. Reads only
the database (and, per session shown, one stat and a look at the archive's listing when its
transcript is gone). Does not: update the index (`update`) or print.
"""

from __future__ import annotations

import os
import shlex
import sqlite3
from dataclasses import dataclass
from typing import Any

from session_kit.index.db import has_fts

SNIPPET_RADIUS = 60
DEFAULT_LIMIT = 20


@dataclass(frozen=True, slots=True)
class Filters:
    project: str | None = None  # the project folder's name under `projects/`
    tool: str | None = None
    errors_only: bool = False
    since: str | None = None  # ISO-8601 (a date or a time), compared as text
    until: str | None = None
    agent: str | None = None  # an agent id prefix or an agent type
    kit: bool = False  # the kit's own echoes too (`texts.kit`), ranked after the real hits


@dataclass(frozen=True, slots=True)
class IndexedHit:
    session_id: str
    agent_id: str | None
    project: str | None
    path: str | None  # the session's transcript (gone when `archived`)
    line: int
    timestamp: str | None
    where: str
    tool: str | None
    status: str | None
    snippet: str
    title: str | None
    archived: bool  # the client deleted the transcript: restore it first
    kit: bool  # the kit's own slash command or what it expanded into (`transcript.kit_echoes`)
    # The shell command that resumes the session; for one that cannot be resumed, the command
    # that shows the hit's file; None when that file is gone too (and not archived).
    resume: str | None

    def as_dict(self) -> dict[str, Any]:
        return {
            "session_id": self.session_id,
            "agent_id": self.agent_id,
            "project": self.project,
            "path": self.path,
            "line": self.line,
            "timestamp": self.timestamp,
            "where": self.where,
            "tool": self.tool,
            "status": self.status,
            "snippet": self.snippet,
            "title": self.title,
            "archived": self.archived,
            "kit": self.kit,
            "resume": self.resume,
        }


def _phrase(text: str) -> str:
    """The query as one FTS5 phrase, its last word a prefix: its words in order, any
    punctuation a separator (`SENTINEL_fail` finds `SENTINEL_FAILURE`)."""
    return '"' + text.replace('"', '""') + '"*'


def _where(filters: Filters) -> tuple[list[str], list[Any]]:
    clauses, args = [], []
    if filters.project:
        clauses.append("t.session IN (SELECT id FROM sessions WHERE project = ?)")
        args.append(filters.project)
    more, more_args = call_filters(filters)
    return clauses + more, args + more_args


def call_filters(filters: Any, mark: str = "?") -> tuple[list[str], list[Any]]:
    """The clauses on a hit's text row (`t`) that the index's search and the team database's
    share: tool, errors only, since/until, agent (an id prefix or a type); `mark` is the
    store's placeholder (`?` here, `%s` in PostgreSQL)."""
    clauses: list[str] = []
    args: list[Any] = []
    if filters.tool:
        clauses.append(f"lower(t.tool) = lower({mark})")
        args.append(filters.tool)
    if filters.errors_only:
        clauses.append("t.status = 'error'")
    if filters.since:
        clauses.append(f"t.ts >= {mark}")
        args.append(filters.since)
    if filters.until:
        clauses.append(f"t.ts < {mark}")
        args.append(filters.until)
    if filters.agent:
        clauses.append(
            f"(t.agent LIKE {mark} OR t.agent IN (SELECT agent_id FROM agents WHERE lower(type) = lower({mark})))"
        )
        args.extend([filters.agent.replace("%", "").replace("_", "\\_") + "%", filters.agent])
    return clauses, args


def search_index(
    conn: sqlite3.Connection,
    text: str,
    filters: Filters = Filters(),
    *,
    limit: int | None = DEFAULT_LIMIT,
    archive: str | None = None,
) -> tuple[list[IndexedHit], int, int]:
    """The best hits (at most `limit`), how many there are in all, and how many of those the
    kit's own echoes (`texts.kit`) make: left out unless `filters.kit`, then ranked after
    every real hit. `archive`: the Claude root's archive (`archive.layout.base_dir`), which
    says whether a deleted session can be restored."""
    from session_kit.base.fileio import TEXT_ERRORS

    # A lone surrogate (bytes of an argument that were not UTF-8) cannot reach SQLite.
    text = text.encode("utf-8", TEXT_ERRORS).decode("utf-8")
    clauses, args = _where(filters)
    args = [a.encode("utf-8", TEXT_ERRORS).decode("utf-8") if isinstance(a, str) else a for a in args]
    fts = has_fts(conn)
    if fts:
        match = ["texts_fts MATCH ?", *clauses]
        base = f"FROM texts_fts JOIN texts t ON t.id = texts_fts.rowid WHERE {' AND '.join(match)}"
        params = [_phrase(text), *args]
        order = "ORDER BY t.kit, texts_fts.rank, t.ts DESC"
    else:
        match = ["instr(lower(t.text), lower(?)) > 0", *clauses]
        base = f"FROM texts t WHERE {' AND '.join(match)}"
        params = [text, *args]
        order = "ORDER BY t.kit, t.ts DESC"
    if not filters.kit:
        order = order.replace("t.kit, ", "")  # (no echo is left to put last)
    try:
        if fts and not clauses:  # counted in the full-text index alone (`texts_kit`: the few echoes)
            total = conn.execute("SELECT count(*) FROM texts_fts WHERE texts_fts MATCH ?", params).fetchone()[0]
            echoes = conn.execute(
                "SELECT count(*) FROM texts_fts WHERE texts_fts MATCH ? AND rowid IN (SELECT id FROM texts WHERE kit = 1)",
                params,
            ).fetchone()[0]
        else:
            total, echoes = conn.execute(f"SELECT count(*), coalesce(sum(t.kit), 0) {base}", params).fetchone()
        if not filters.kit:
            base, total = base + " AND t.kit = 0", total - echoes
        rows = conn.execute(
            f"SELECT t.session, t.agent, t.line, t.ts, t.kind, t.tool, t.status, t.text, t.kit {base} {order}"
            + (" LIMIT ?" if limit is not None else ""),
            [*params, limit] if limit is not None else params,
        ).fetchall()
    except sqlite3.OperationalError as exc:  # an FTS5 syntax the phrase could not hold
        if "fts5" not in str(exc):
            raise  # a damaged index, not the query (`db.use` makes it again)
        raise ValueError(f"the index cannot search for {text!r}: {exc}") from None
    sessions: dict[str, tuple] = {}
    hits = []
    for session, agent, line, ts, kind, tool, status, stored, kit in rows:
        info = sessions.get(session)
        if info is None:
            row = conn.execute("SELECT project, cwd, path, title FROM sessions WHERE id=?", (session,)).fetchone()
            project, cwd, path, title = row or (None, None, None, None)
            archived = not (path and os.path.exists(path))
            resume = resume_command(session, cwd, archived)
            if archived and archive is not None and not _restorable(archive, session):
                resume = None  # restore would find nothing: the hit's own file is shown (below)
            info = sessions[session] = (project, path, title, archived, resume)
        project, path, title, archived, resume = info
        if resume is None:
            resume = _show_command(conn, session, agent)
        hits.append(
            IndexedHit(
                session,
                agent,
                project,
                path,
                line,
                ts,
                kind,
                tool,
                status,
                snippet(stored, text),
                title,
                archived,
                bool(kit),
                resume,
            )
        )
    return hits, total, echoes


def _restorable(archive: str, session: str) -> bool:
    """The archive holds the session's transcript (an orphan agent log's session has none)."""
    from session_kit.archive.store import archived_session_files

    name = f"{session}.jsonl"
    return any(os.path.basename(entry.rel) == name for entry in archived_session_files(archive, session))


def _show_command(conn: sqlite3.Connection, session: str, agent: str | None) -> str | None:
    """For a hit in a session that cannot be resumed (its transcript is neither on disk nor in
    the archive: an orphan agent log's), the command that shows the file the hit is in; None
    when that file is gone too."""
    rows = conn.execute("SELECT path FROM files WHERE session=? AND agent IS ? ORDER BY path", (session, agent))
    for (path,) in rows:
        if path and os.path.exists(path):
            return f"session-kit show {shlex.quote(path)}"
    return None


def resume_command(session: str, cwd: str | None, archived: bool) -> str:
    parts = [f"session-kit restore {session}"] if archived else []
    if cwd:
        parts.append(f"cd {shlex.quote(cwd)}")
    parts.append(f"claude --resume {session}")
    return " && ".join(parts)


def snippet(text: str, query: str) -> str:
    """About SNIPPET_RADIUS characters each side of the first place the query's words are."""
    folded = text.casefold()
    at = folded.find(query.casefold())
    if at < 0:  # the phrase matched across punctuation: take its first word
        words = query.split()
        at = folded.find(words[0].casefold()) if words else 0
    at = max(at, 0)
    start = max(0, at - SNIPPET_RADIUS)
    end = min(len(text), at + len(query) + SNIPPET_RADIUS)
    piece = " ".join(text[start:end].split())
    return ("…" if start > 0 else "") + piece + ("…" if end < len(text) else "")
