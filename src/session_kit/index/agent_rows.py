"""The index's `agents` table: one row per agent of a session, as `debug-agent` and `show` list
them, whether its log was kept or not.

Owns: what a file's lines add to the table (`SpawnRows`: each `Agent`/`Task` call, a row keyed
by the call until its result names the agent; a call refused or declined before it started
removes its row: `transcript.agent_signals`), what an agent log adds (`log_row`: its path,
and the type and description of its meta file, which win over the call's), and the agent of a
session file that holds only a sidechain thread (`SpawnRows.threads`, as `show` lists it). The same links the
session model's linker (`sessions.agents.AgentLinker`) makes first: the meta file's
`toolUseId`, then the agent the call's result names. Does not read files or link by time (a
2025 log no result names keeps its own row, typed by its meta file).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from typing import Any

from session_kit.base.tools import spawns_agent
from session_kit.index.db import sql_row
from session_kit.transcript.agent_signals import spawn_result
from session_kit.transcript.entries import Entry
from session_kit.transcript.tools import agent_spawn

# A spawning call's result (`toolUseResult`) has one of these, or names the agent in its text.
_RESULT_KEYS = frozenset({"agentId", "totalToolUseCount", "totalDurationMs", "status"})


class SpawnRows:
    """The spawning calls and their results one update of one file sees, in order, written to
    the `agents` table by `flush` (a call's result may come in a later update)."""

    __slots__ = ("session", "calls", "steps", "sidechains", "main")

    def __init__(self, session: str, *, from_start: bool = False) -> None:
        self.session = session
        self.calls: set[str] = set()  # the spawning calls seen in this update
        self.steps: list[tuple] = []  # ("call", id, type, description) | ("result", id, agent id, rejected)
        # A session file read from its start: its sidechain entries until a main-conversation
        # entry is met (a file holding only an agent's thread has that agent: `threads`).
        self.sidechains: list[Entry] | None = [] if from_start else None
        self.main = False  # a main-conversation entry was met in this update

    def add(self, entry: Entry, redact: Any) -> None:
        if entry.is_sidechain:
            if self.sidechains is not None:
                self.sidechains.append(entry)
        elif not self.main and entry.is_conversation:
            self.main, self.sidechains = True, None
        for block in entry.tool_uses:
            call_id, tool_input = block.get("id"), block.get("input")
            if isinstance(call_id, str) and spawns_agent(str(block.get("name"))):
                asked = agent_spawn(tool_input if isinstance(tool_input, Mapping) else {})
                description = redact(asked.description)[:500] if asked.description else None
                self.calls.add(call_id)
                self.steps.append(("call", call_id, asked.agent_type, description))
        extra = entry.raw.get("toolUseResult")
        for result in entry.tool_results:
            spawning = result.tool_use_id in self.calls or (
                isinstance(extra, Mapping) and not _RESULT_KEYS.isdisjoint(extra)
            )
            if not spawning and not (result.is_error or "agentId: " in result.text):
                continue
            said = spawn_result(result.extra, result.text, is_error=result.is_error, denial=result.denial)
            if said.rejected or said.agent_id:
                self.steps.append(("result", result.tool_use_id, said.agent_id, said.rejected))

    def flush(self, conn: sqlite3.Connection) -> None:
        for step in self.steps:
            if step[0] == "call":
                _, call_id, agent_type, description = step
                linked = conn.execute(
                    "UPDATE agents SET type = coalesce(type, ?), description = coalesce(description, ?)"
                    " WHERE session = ? AND tool_use_id = ?",
                    _row((agent_type, description, self.session, call_id)),
                ).rowcount
                if not linked:  # no log named it yet: a row of its own, keyed by the call
                    conn.execute(
                        "INSERT OR IGNORE INTO agents(session, agent_id, type, description, path, tool_use_id)"
                        " VALUES(?,?,?,?,NULL,?)",
                        _row((self.session, call_id, agent_type, description, call_id)),
                    )
            else:
                _, call_id, agent_id, rejected = step
                if rejected:  # it started nothing
                    conn.execute(
                        "DELETE FROM agents WHERE session = ? AND agent_id = ? AND path IS NULL",
                        (self.session, call_id),
                    )
                elif agent_id != call_id:
                    _rename(conn, self.session, call_id, agent_id)
        self.steps = []

    def threads(self, conn: sqlite3.Connection) -> None:
        """At the end of an update of a session file: the agents of a file that holds only
        sidechain threads, named as `show` names them (`sessions.agents.inline_agent_ids`:
        the `agentId` its entries carry, else its root's uuid); a main-conversation entry
        makes them the inline agents of a 1.0.x session instead, whose rows their `Task`
        calls make. Only an update that read the file from its start adds them."""
        if self.main:
            conn.execute(
                "DELETE FROM agents WHERE session = ? AND path IS NULL AND tool_use_id IS NULL", _row((self.session,))
            )
        elif self.sidechains:
            from session_kit.sessions.agents import inline_agent_ids  # only for such a file

            conn.executemany(
                "INSERT OR IGNORE INTO agents(session, agent_id, type, description, path, tool_use_id)"
                " VALUES(?,?,NULL,NULL,NULL,NULL)",
                [_row((self.session, agent_id)) for agent_id in inline_agent_ids(self.sidechains)],
            )
        self.sidechains = None


def _rename(conn: sqlite3.Connection, session: str, call_id: str, agent_id: str) -> None:
    """The row keyed by its call takes the agent's id (merged into the log's row, if any)."""
    session, call_id, agent_id = _row((session, call_id, agent_id))
    row = conn.execute(
        "SELECT type, description FROM agents WHERE session = ? AND agent_id = ? AND path IS NULL", (session, call_id)
    ).fetchone()
    if row is None:
        conn.execute(
            "UPDATE agents SET tool_use_id = coalesce(tool_use_id, ?) WHERE session = ? AND agent_id = ?",
            (call_id, session, agent_id),
        )
        return
    conn.execute("DELETE FROM agents WHERE session = ? AND agent_id = ? AND path IS NULL", (session, call_id))
    conn.execute(
        "INSERT INTO agents(session, agent_id, type, description, path, tool_use_id) VALUES(?,?,?,?,NULL,?)"
        " ON CONFLICT(session, agent_id) DO UPDATE SET type = coalesce(agents.type, excluded.type),"
        " description = coalesce(agents.description, excluded.description),"
        " tool_use_id = coalesce(agents.tool_use_id, excluded.tool_use_id)",
        (session, agent_id, row[0], row[1], call_id),
    )


def _row(values: tuple) -> tuple:
    """`values` as SQLite stores them."""
    return sql_row(values)


def log_row(
    conn: sqlite3.Connection, session: str, agent_id: str, path: str, meta: Mapping[str, Any], redact: Any
) -> None:
    """An agent log's row: its meta file's type and description win over its call's."""
    kind, description, call_id = meta.get("agentType"), meta.get("description"), meta.get("toolUseId")
    kind = kind if isinstance(kind, str) else None
    description = redact(description)[:500] if isinstance(description, str) else None
    call_id = call_id if isinstance(call_id, str) and call_id != agent_id else None
    if call_id is not None:  # its call's own row, keyed by the call: now the log's
        _rename(conn, session, call_id, agent_id)
    conn.execute(
        "INSERT INTO agents(session, agent_id, type, description, path, tool_use_id) VALUES(?,?,?,?,?,?)"
        " ON CONFLICT(session, agent_id) DO UPDATE SET type = coalesce(excluded.type, agents.type),"
        " description = coalesce(excluded.description, agents.description), path = excluded.path,"
        " tool_use_id = coalesce(agents.tool_use_id, excluded.tool_use_id)",
        _row((session, agent_id, kind, description, path, call_id)),
    )
