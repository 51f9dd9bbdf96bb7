"""An entry's rows in the index: the session's facts, its searchable texts, its tool calls.

Owns: what one transcript entry adds to the index (texts redacted first with `redaction.engine.redact`,
tool calls paired with results across updates through the `calls` table, the kit's own echoes
marked (`texts.kit`, by `transcript.kit_echoes`), the session's title
(as `sessions` names it: `glance`, by the rule of `titles`), first request, times (by the rule
of `span`), branch, version, compactions), and each API message's usage (the `messages` rows:
`transcript.tokens`' key and rule, the last line of a message replacing what an earlier line
or update counted) and each agent's usage its `Agent` result reports (`agent_results`); the
session's token columns are added up from those rows (`SESSION_TOKENS`), never counted on the
way.
Loaded only when a file has new lines, so an update that finds nothing new never imports the
transcript parsers. Does not: read files (`update`).
"""

from __future__ import annotations

import sqlite3

from session_kit.index.agent_rows import SpawnRows
from session_kit.index.db import TOKEN_COLUMNS, sql_row, sql_value
from session_kit.index.files import IndexFile
from session_kit.redaction.engine import head_to_redact, redact, redact_many
from session_kit.redaction.printed import Commands, redact_output
from session_kit.transcript.agent_signals import SOURCE_RESULT
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
from session_kit.transcript.glance import glance
from session_kit.transcript.kit_echoes import KitEchoes
from session_kit.transcript.searchable import searchable_fields
from session_kit.transcript.span import SpanScan
from session_kit.transcript.titles import title_line
from session_kit.transcript.tokens import Usage, agent_result_usage, assistant_usage, count_key
from session_kit.transcript.tools import summarize_input

MAX_TEXT = 64 * 1024  # of one piece of text, what is indexed (its head): the rest is output noise
MAX_ERROR = 2000  # of a call's error, what is kept


# Each is cut after redaction (`head_to_redact` before it): a secret across the cut is found whole.
class SessionState:
    """The session's row, loaded once per file and saved at its end."""

    __slots__ = ("session", "fields", "titled", "span")

    COLUMNS = ("project", "cwd", "path", "title", "first_request", "started", "ended", "branch", "version",
               "input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens", "agents",
               "compactions")  # fmt: skip
    TOKENS = ("input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens")

    def __init__(self, session: str, fields: dict) -> None:
        self.session = session
        self.fields = fields
        self.titled = False  # a title line was read in this update: the title is looked up again
        self.span = SpanScan(parse_timestamp(fields["started"]), parse_timestamp(fields["ended"]))

    @classmethod
    def load(cls, conn: sqlite3.Connection, item: IndexFile) -> SessionState:
        row = conn.execute(
            f"SELECT {', '.join(cls.COLUMNS)} FROM sessions WHERE id=?", (sql_value(item.session),)
        ).fetchone()
        fields = dict(zip(cls.COLUMNS, row)) if row else dict.fromkeys(cls.COLUMNS)
        if item.agent is None:
            fields["path"] = item.original or item.path
        fields["project"] = fields["project"] or item.project
        for name in ("agents", "compactions"):
            fields[name] = fields[name] or 0
        return cls(item.session, fields)

    def save(self, conn: sqlite3.Connection, item: IndexFile, size: int) -> None:
        if item.agent is None and (self.titled or self.fields["title"] is not None):
            # The title by the one rule, from the file as `sessions` reads it (a summary's leaf
            # may have arrived since, a later title line may win).
            title = glance(item.path, size).title
            self.fields["title"] = redact(title)[:300] if title is not None else None
        self.fields["started"] = format_timestamp(self.span.start)
        self.fields["ended"] = format_timestamp(self.span.end)
        agents = conn.execute("SELECT count(*) FROM agents WHERE session=?", (self.session,)).fetchone()[0]
        self.fields["agents"] = agents
        totals = conn.execute(SESSION_TOKENS, {"session": sql_value(self.session)}).fetchone()
        self.fields.update(zip(self.TOKENS, totals))
        names = ", ".join(self.COLUMNS)
        marks = ", ".join("?" for _ in self.COLUMNS)
        conn.execute(
            f"INSERT OR REPLACE INTO sessions(id, {names}) VALUES(?, {marks})",
            sql_row((self.session, *(self.fields[c] for c in self.COLUMNS))),
        )


# A session's tokens: its files' messages, and the agents whose log the index never saw
# counted from their `Agent` results (as `show` counts them). Input is input alone: cache
# reads and writes have their own columns, as in every command.
SESSION_TOKENS = """
SELECT coalesce(sum(input), 0), coalesce(sum(output), 0), coalesce(sum(cache_read), 0),
       coalesce(sum(cache_write_5m + cache_write_1h), 0)
FROM (SELECT input, output, cache_read, cache_write_5m, cache_write_1h FROM messages WHERE session = :session
      UNION ALL
      SELECT input, output, cache_read, cache_write_5m, cache_write_1h FROM agent_results r
      WHERE r.session = :session AND NOT EXISTS (SELECT 1 FROM files f WHERE f.agent = r.agent_id))
"""
_NO_HOUR = -1


class FileRows:
    """The rows one update of one file adds, gathered and then written in one go: the texts
    redacted in one pass (`redaction.engine.redact_many`), inserted with `executemany`, and the FTS5
    index filled from them with one statement. Tool calls used and answered within the batch
    are paired in memory; a result whose use an earlier update indexed updates that row.
    With `searchable=False` (an update for usage alone) only the usage rows and the session's
    facts are gathered; lines up to `counted` (which such an update already read) give only
    their texts and calls."""

    __slots__ = (
        "conn", "state", "item", "file_id", "last_message", "texts", "calls", "results", "messages", "agent_results",
        "warmup", "searchable", "counted", "echoes", "spawns", "commands",
    )  # fmt: skip

    def __init__(
        self,
        conn: sqlite3.Connection,
        state: SessionState,
        item: IndexFile,
        file_id: int,
        last: str | None,
        *,
        warmup: bool = False,
        searchable: bool = True,
        counted: int = 0,
        from_start: bool = False,
    ):
        self.conn = conn
        self.searchable = searchable
        self.counted = counted
        self.warmup = warmup  # a 2.0.x warmup log: billed (its usage is kept), not searchable
        self.state = state
        self.item = item
        self.file_id = file_id
        self.last_message = last
        self.texts: list[list] = []  # [line, ts, kind, tool, status, text, tool_use_id, kit]
        self.echoes = KitEchoes(after_request=searchable and _ends_in_kit_request(conn, file_id))
        self.calls: dict[str, list] = {}  # tool_use_id -> [tool, summary, status, exit, error, started, dur, line]
        self.results: list[tuple] = []  # (tool_use_id, status, exit_code, error, ended) of earlier uses
        self.messages: dict[str, tuple] = {}  # count key -> (hour, model, Usage): the last line wins
        self.agent_results: dict[str, tuple] = {}  # agent id -> (hour, model, Usage)
        # the `agents` rows its spawning calls make (and its sidechain threads, read from its start)
        self.spawns = SpawnRows(item.session, from_start=from_start and item.agent is None)
        self.commands = Commands()  # the calls whose command is their output's context

    def add(self, entry: Entry) -> None:
        if entry.line > self.counted:
            self._add_counted(entry)
        if self.searchable and not self.warmup:
            self._add_searchable(entry)

    def _add_counted(self, entry: Entry) -> None:
        """What an entry adds to the usage rows and the session's facts."""
        if entry.kind == KIND_ASSISTANT:
            found = assistant_usage(entry.raw)
            if found is not None:
                key = count_key(entry.raw) or f"line:{self.file_id}:{entry.line}"
                self.messages[key] = (_hour(entry), *found)
            if entry.message_id:
                self.last_message = entry.message_id
        elif entry.kind == KIND_USER and (result := agent_result_usage(entry.raw)) is not None:
            self.agent_results[result[0]] = (_hour(entry), *result[1:])
        if self.warmup:
            return
        if entry.kind == KIND_ASSISTANT or entry.kind == KIND_USER:
            self.spawns.add(entry, redact)  # the agents its spawning calls started (`agents`)
        if self.item.agent is not None:
            return
        fields = self.state.fields
        conversation = entry.kind in (KIND_USER, KIND_ASSISTANT)
        # the session's own transcript: its facts, as `show` gives them
        self.state.titled = self.state.titled or title_line(entry) is not None
        self.state.span.add(entry)
        if entry.is_compact_boundary:
            fields["compactions"] += 1
        if conversation:
            fields["cwd"] = fields["cwd"] or entry.cwd
            fields["branch"] = entry.git_branch or fields["branch"]
            fields["version"] = entry.version or fields["version"]
            if fields["first_request"] is None and (request := request_text(entry)):
                fields["first_request"] = redact(request)[:500]

    def _add_searchable(self, entry: Entry) -> None:
        """An entry's texts and tool calls."""
        stamp = format_timestamp(entry.timestamp)
        names: dict[str, str] = {}
        for block in entry.tool_uses:
            call_id, name = block.get("id"), str(block.get("name", "?"))
            if isinstance(call_id, str) and call_id not in self.calls:
                names[call_id] = name
                tool_input = block.get("input")
                self.commands.use(call_id, tool_input)
                summary = summarize_input(name, tool_input if isinstance(tool_input, dict) else {})
                self.calls[call_id] = [name, summary, "pending", None, None, stamp, None, entry.line]
        statuses: dict[str, str] = {}
        printed: dict[str, str] = {}  # a result's call's command, when it is its context
        for result in entry.tool_results:
            if (command := self.commands.result(result.tool_use_id)) is not None:
                printed[result.tool_use_id] = command
            call = self.calls.get(result.tool_use_id)
            status, exit_code, error = result_outcome(result, tool=call[0] if call else None, version=entry.version)
            statuses[result.tool_use_id] = status
            if call is None:
                self.results.append(
                    (
                        result.tool_use_id,
                        status,
                        exit_code,
                        head_to_redact(error, MAX_ERROR) if error else error,
                        entry.timestamp,
                    )
                )
                continue
            names[result.tool_use_id] = call[0]
            duration = seconds_between(parse_timestamp(call[5]), entry.timestamp)
            call[2:5], call[6] = [status, exit_code, head_to_redact(error, MAX_ERROR) if error else None], duration
        kit = int(self.echoes.is_echo(entry))
        for where, tool, call_id, text in searchable_fields(entry):
            if call_id is not None:  # a tool output: its tool is its use's
                tool = names.get(call_id)
            if text and not text.isspace():
                text = head_to_redact(text, MAX_TEXT)
                if call_id in printed:  # read after its command (`redaction.printed`)
                    text = redact_output(text, printed[call_id])
                self.texts.append(
                    [
                        entry.line,
                        stamp,
                        where,
                        tool,
                        statuses.get(call_id),
                        text,
                        call_id,
                        kit,
                    ]
                )

    def finish(self) -> None:
        """At the end of the update, once every chunk is flushed."""
        self.spawns.threads(self.conn)

    def flush(self, fts: bool) -> None:
        conn, item = self.conn, self.item
        self._flush_usage()
        self.spawns.flush(conn)
        if not self.searchable:
            return
        names = self._earlier_tools()
        pieces = [t[5] for t in self.texts]
        pieces += [c[1] for c in self.calls.values()] + [c[4] or "" for c in self.calls.values()]
        pieces += [r[3] or "" for r in self.results]
        clean = iter(redact_many(pieces))
        for row in self.texts:
            row[5] = next(clean)[:MAX_TEXT]
        for call in self.calls.values():
            call[1] = next(clean)
        for call in self.calls.values():
            call[4] = next(clean)[:MAX_ERROR] or None
        results = [(r[0], r[1], r[2], next(clean)[:MAX_ERROR] or None, r[4]) for r in self.results]
        for row in self.texts:  # an output whose call an earlier update indexed
            if row[3] is None and row[6] in names:
                row[3] = names[row[6]][2]
        for call_id, status, exit_code, error, ended in results:
            found = names.get(call_id)
            if found is None:
                continue
            row_id, started, _tool = found
            duration = seconds_between(parse_timestamp(started), ended)
            conn.execute(
                "UPDATE calls SET status=?, exit_code=?, error=?, duration_s=? WHERE id=?",
                sql_row((status, exit_code, error, duration, row_id)),
            )
        conn.executemany(
            "INSERT INTO calls(file_id, session, agent, tool_use_id, tool, summary, status, exit_code, error, started,"
            " duration_s, line) VALUES(?,?,?,?,?,?,?,?,?,?,?,?)",
            [sql_row((self.file_id, item.session, item.agent, call_id, *call)) for call_id, call in self.calls.items()],
        )
        first = conn.execute("SELECT coalesce(max(id), 0) FROM texts").fetchone()[0]
        conn.executemany(
            "INSERT INTO texts(file_id, session, agent, line, ts, kind, tool, status, text, kit)"
            " VALUES(?,?,?,?,?,?,?,?,?,?)",
            [sql_row((self.file_id, item.session, item.agent, *row[:6], row[7])) for row in self.texts],
        )
        if fts and self.texts:
            conn.execute("INSERT INTO texts_fts(rowid, text) SELECT id, text FROM texts WHERE id > ?", (first,))
        self.texts, self.calls, self.results = [], {}, []

    def _flush_usage(self) -> None:
        """Each message's usage, replacing what an earlier update counted of it (its last line
        came later); each agent result's."""
        marks = ",".join("?" * (len(TOKEN_COLUMNS.split(",")) + 6))
        item = self.item
        self.conn.executemany(
            f"INSERT OR REPLACE INTO messages(file_id, key, session, agent, hour, model, {TOKEN_COLUMNS})"
            f" VALUES({marks})",
            [
                sql_row((self.file_id, key, item.session, item.agent, hour, model, *_tokens(usage)))
                for key, (hour, model, usage) in self.messages.items()
            ],
        )
        self.conn.executemany(
            f"INSERT OR REPLACE INTO agent_results(file_id, session, agent_id, hour, model, {TOKEN_COLUMNS}, source)"
            f" VALUES({marks})",  # the same count: source in place of key
            [
                sql_row((self.file_id, item.session, agent_id, hour, model, *_tokens(usage), SOURCE_RESULT))
                for agent_id, (hour, model, usage) in self.agent_results.items()
            ],
        )
        self.messages, self.agent_results = {}, {}

    def _earlier_tools(self) -> dict[str, tuple[int, str | None, str | None]]:
        """(row id, started, tool) of the pending calls of this session an earlier update
        indexed, for the results here."""
        wanted = [r[0] for r in self.results]
        found: dict[str, tuple[int, str | None, str | None]] = {}
        for i in range(0, len(wanted), 500):
            part = wanted[i : i + 500]
            marks = ",".join("?" * len(part))
            for row_id, call_id, started, tool in self.conn.execute(
                f"SELECT id, tool_use_id, started, tool FROM calls WHERE session=? AND status='pending'"
                f" AND tool_use_id IN ({marks})",
                sql_row((self.item.session, *part)),
            ):
                found[call_id] = (row_id, started, tool)
        return found


def _ends_in_kit_request(conn: sqlite3.Connection, file_id: int) -> bool:
    """Whether the last text an earlier update indexed of the file is a kit command's request
    (its body, in the lines read now, is then the kit's too)."""
    row = conn.execute("SELECT kit, text FROM texts WHERE file_id=? ORDER BY id DESC LIMIT 1", (file_id,)).fetchone()
    return bool(row and row[0] and "<command-name>" in row[1])


def _hour(entry: Entry) -> int:
    stamp = entry.timestamp
    return int(stamp.timestamp() // 3600) if stamp is not None else _NO_HOUR


def _tokens(u: Usage) -> tuple[int, ...]:
    """`TOKEN_COLUMNS`' values of a usage."""
    return (u.input, u.output, u.cache_read, u.cache_write_5m, u.cache_write_1h, u.web_search, u.web_fetch)
