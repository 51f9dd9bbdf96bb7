"""An entry's rows in the index: the session's facts, its searchable texts, its tool calls.

Owns: what one transcript entry adds to the index (texts redacted first with `redact.redact`,
tool calls paired with results across updates through the `calls` table, the session's title,
first request, times, branch, version, tokens counted once per API message, compactions).
Loaded only when a file has new lines, so an update that finds nothing new never imports the
transcript parsers. Does not: read files (`update`).
"""

from __future__ import annotations

import sqlite3

from session_kit.index.files import IndexFile
from session_kit.queries.search import _fields as searchable_fields
from session_kit.redact import redact
from session_kit.transcript.calls import result_outcome
from session_kit.transcript.entries import (
    KIND_ASSISTANT,
    KIND_USER,
    Entry,
    format_timestamp,
    parse_timestamp,
    request_text,
    seconds_between,
)
from session_kit.transcript.titles import TYPE_AI, TYPE_CUSTOM, title_line
from session_kit.transcript.tools import summarize_input

MAX_TEXT = 64 * 1024  # of one piece of text, what is indexed (its head): the rest is output noise


class SessionState:
    """The session's row, loaded once per file and saved at its end."""

    __slots__ = ("session", "fields", "title_rank")

    COLUMNS = ("project", "cwd", "path", "title", "first_request", "started", "ended", "branch", "version",
               "input_tokens", "output_tokens", "agents", "compactions")  # fmt: skip

    def __init__(self, session: str, fields: dict) -> None:
        self.session = session
        self.fields = fields
        self.title_rank = 0

    @classmethod
    def load(cls, conn: sqlite3.Connection, item: IndexFile) -> SessionState:
        row = conn.execute(f"SELECT {', '.join(cls.COLUMNS)} FROM sessions WHERE id=?", (item.session,)).fetchone()
        fields = dict(zip(cls.COLUMNS, row)) if row else dict.fromkeys(cls.COLUMNS)
        if item.agent is None:
            fields["path"] = str(item.original or item.path)
        fields["project"] = fields["project"] or item.project
        for name in ("input_tokens", "output_tokens", "agents", "compactions"):
            fields[name] = fields[name] or 0
        state = cls(item.session, fields)
        if item.agent is not None and row is not None:
            state.title_rank = 3  # an agent's lines never name the session
        return state

    def save(self, conn: sqlite3.Connection) -> None:
        agents = conn.execute("SELECT count(*) FROM agents WHERE session=?", (self.session,)).fetchone()[0]
        self.fields["agents"] = agents
        names = ", ".join(self.COLUMNS)
        marks = ", ".join("?" for _ in self.COLUMNS)
        conn.execute(
            f"INSERT OR REPLACE INTO sessions(id, {names}) VALUES(?, {marks})",
            (self.session, *(self.fields[c] for c in self.COLUMNS)),
        )


_TITLE_RANK = {TYPE_CUSTOM: 3, TYPE_AI: 2}


def add_entry(
    conn: sqlite3.Connection,
    state: SessionState,
    item: IndexFile,
    file_id: int,
    entry: Entry,
    last_message: str | None,
    fts: bool,
) -> str | None:
    fields = state.fields
    stamp = format_timestamp(entry.timestamp)
    if item.agent is None:
        title = title_line(entry)
        if title is not None:
            rank = _TITLE_RANK.get(title.type, 1)
            if rank >= state.title_rank:
                fields["title"], state.title_rank = redact(title.text)[:300], rank
        if entry.is_compact_boundary:
            fields["compactions"] += 1
        if entry.kind in (KIND_USER, KIND_ASSISTANT):
            fields["cwd"] = fields["cwd"] or entry.cwd
            fields["branch"] = entry.git_branch or fields["branch"]
            fields["version"] = entry.version or fields["version"]
            if fields["first_request"] is None and (request := request_text(entry)):
                fields["first_request"] = redact(request)[:500]
    if stamp and entry.kind in (KIND_USER, KIND_ASSISTANT):
        fields["started"] = min(fields["started"] or stamp, stamp)
        fields["ended"] = max(fields["ended"] or stamp, stamp)
    usage = entry.usage if entry.kind == KIND_ASSISTANT else None
    message = entry.message_id
    if usage and message != last_message:  # the client repeats usage on each block's line
        fields["input_tokens"] += _int(usage.get("input_tokens")) + _int(usage.get("cache_read_input_tokens"))
        fields["output_tokens"] += _int(usage.get("output_tokens"))
    if message:
        last_message = message
    names: dict[str, str] = {}
    for block in entry.tool_uses:
        call_id, name = block.get("id"), str(block.get("name", "?"))
        if isinstance(call_id, str):
            names[call_id] = name
            tool_input = block.get("input")
            summary = summarize_input(name, tool_input if isinstance(tool_input, dict) else {})
            conn.execute(
                "INSERT INTO calls(file_id, session, agent, tool_use_id, tool, summary, status, started, line)"
                " VALUES(?,?,?,?,?,?,'pending',?,?)",
                (file_id, item.session, item.agent, call_id, name, redact(summary), stamp, entry.line),
            )
    statuses: dict[str, str] = {}
    for result in entry.tool_results:
        status, exit_code, error = result_outcome(result)
        statuses[result.tool_use_id] = status
        call = conn.execute(
            "SELECT id, tool, started FROM calls WHERE tool_use_id=? AND session=? AND status='pending'",
            (result.tool_use_id, item.session),
        ).fetchone()
        if call is not None:
            names[result.tool_use_id] = call[1]
            duration = seconds_between(parse_timestamp(call[2]), entry.timestamp)
            conn.execute(
                "UPDATE calls SET status=?, exit_code=?, error=?, duration_s=? WHERE id=?",
                (status, exit_code, redact(error)[:2000] if error else None, duration, call[0]),
            )
    outputs = iter(entry.tool_results)
    for where, tool, text in searchable_fields(entry, names):
        status = statuses.get(next(outputs).tool_use_id) if where == "tool_output" else None
        if not text or not text.strip():
            continue
        text = redact(text[:MAX_TEXT])
        rowid = conn.execute(
            "INSERT INTO texts(file_id, session, agent, line, ts, kind, tool, status, text) VALUES(?,?,?,?,?,?,?,?,?)",
            (file_id, item.session, item.agent, entry.line, stamp, where, tool, status, text),
        ).lastrowid
        if fts:
            conn.execute("INSERT INTO texts_fts(rowid, text) VALUES(?, ?)", (rowid, text))
    return last_message


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0
