"""The index database: where it lives, its schema, and opening it.

Owns: `<state>/index/history-<hash of the Claude root>.sqlite3`, one per Claude root (folder
0700, file 0600); the schema below; whether
this Python's SQLite has FTS5 (`fts5_available`), and the one flag (`meta.fts`) that says
which way the text table was made; opening in WAL mode, so a reader never waits on a writer
and a writer killed (even with -9) leaves the last committed state. Does not: fill it
(`update`) or search it (`query`).

Tables (documented for users in docs/json.md, "export"):
    sessions  one row per session: id, project, cwd, path, title, first_request, started,
              ended, branch, version, input_tokens, output_tokens, cache_read_tokens,
              cache_write_tokens (its files' `messages` and the `agent_results` of agents
              with no log, added up), agents, compactions
    texts     one row per searchable piece (message text, tool input, tool output, summary):
              session, agent, line, ts, kind, tool, status (a tool output's: ok | error),
              text (redacted; a piece's first 64 KiB), kit (1: the kit's own slash command
              or what it expanded into, `transcript.kit_echoes`); `texts_fts` indexes
              `text` where there is FTS5 (external content: the text is stored once)
    calls     one row per tool call: session, agent, tool_use_id, tool, summary, status,
              exit_code, error, started, duration_s, line
    agents    one row per subagent log: session, agent_id, type, description, path
    messages  one row per API message of a file (`transcript.tokens`' key; the last line of
              a message wins, a later update replacing what an earlier one counted):
              file_id, key, session, agent, hour (UTC hours since the epoch, -1 without a
              time), model, input, output, cache_read, cache_write_5m, cache_write_1h,
              web_search, web_fetch
    agent_results  what an `Agent`/`Task` result reports of its agent's usage (all that is
              known of an agent whose log is gone): file_id, session, agent_id, hour, model,
              the same token columns, source (`result`: the agent's last request only)
    files     one row per indexed file: path, session, agent, project, offset (bytes
              indexed, whole lines only), size, ino, mtime, modified (mtime in ns, the
              order "written first" follows), warmup (a 2.0.x warmup log: only its usage is
              kept), lines, last_message, tail (the line
              follower's checkpoint, `transcript.follow`), texts (1: its texts and calls
              are indexed; 0: read for its usage alone, as `usage` reads a file the index
              never saw: its messages, agent results and session facts only; the next
              update that wants texts reads it again from the start)

A database of another schema version is deleted and made again from the transcripts (its
rows are never trusted: version 1 counted each message's first line; version 2 had no
`files.texts`; version 3 no `texts.kit`).
"""

from __future__ import annotations

import os
import sqlite3

from session_kit.state.root import ensure_dir

INDEX = "index"
DB_FILE = "history.sqlite3"
SCHEMA_VERSION = "4"

META = "CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);"
TOKEN_COLUMNS = "input, output, cache_read, cache_write_5m, cache_write_1h, web_search, web_fetch"
SCHEMA = f"""
CREATE TABLE IF NOT EXISTS files(
    id INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL, session TEXT, agent TEXT, project TEXT,
    offset INTEGER NOT NULL, size INTEGER NOT NULL, ino INTEGER, mtime REAL, modified INTEGER DEFAULT 0,
    warmup INTEGER DEFAULT 0, lines INTEGER NOT NULL, last_message TEXT, tail TEXT, texts INTEGER DEFAULT 1);
CREATE INDEX IF NOT EXISTS files_agent ON files(agent);
CREATE TABLE IF NOT EXISTS sessions(
    id TEXT PRIMARY KEY, project TEXT, cwd TEXT, path TEXT, title TEXT, first_request TEXT, started TEXT,
    ended TEXT, branch TEXT, version TEXT, input_tokens INTEGER DEFAULT 0, output_tokens INTEGER DEFAULT 0,
    cache_read_tokens INTEGER DEFAULT 0, cache_write_tokens INTEGER DEFAULT 0,
    agents INTEGER DEFAULT 0, compactions INTEGER DEFAULT 0);
CREATE TABLE IF NOT EXISTS messages(
    file_id INTEGER NOT NULL, key TEXT NOT NULL, session TEXT NOT NULL, agent TEXT, hour INTEGER, model TEXT,
    {TOKEN_COLUMNS.replace(",", " INTEGER,")} INTEGER, PRIMARY KEY(file_id, key)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS messages_session ON messages(session);
CREATE INDEX IF NOT EXISTS messages_key ON messages(key);  -- the few held twice, found without a sort
CREATE INDEX IF NOT EXISTS messages_sums ON messages(file_id, hour, model, {TOKEN_COLUMNS});  -- usage's sums
CREATE TABLE IF NOT EXISTS agent_results(
    file_id INTEGER NOT NULL, session TEXT NOT NULL, agent_id TEXT NOT NULL, hour INTEGER, model TEXT,
    {TOKEN_COLUMNS.replace(",", " INTEGER,")} INTEGER, source TEXT, PRIMARY KEY(file_id, agent_id));
CREATE TABLE IF NOT EXISTS texts(
    id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, session TEXT NOT NULL, agent TEXT, line INTEGER,
    ts TEXT, kind TEXT, tool TEXT, status TEXT, text TEXT NOT NULL, kit INTEGER DEFAULT 0);
CREATE INDEX IF NOT EXISTS texts_file ON texts(file_id);
CREATE TABLE IF NOT EXISTS calls(
    id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, session TEXT NOT NULL, agent TEXT, tool_use_id TEXT,
    tool TEXT, summary TEXT, status TEXT, exit_code INTEGER, error TEXT, started TEXT, duration_s REAL,
    line INTEGER);
CREATE INDEX IF NOT EXISTS calls_file ON calls(file_id);
CREATE INDEX IF NOT EXISTS calls_use ON calls(tool_use_id);
CREATE TABLE IF NOT EXISTS agents(
    session TEXT NOT NULL, agent_id TEXT NOT NULL, type TEXT, description TEXT, path TEXT,
    PRIMARY KEY(session, agent_id));
"""

FTS_SCHEMA = """
CREATE VIRTUAL TABLE IF NOT EXISTS texts_fts USING fts5(
    text, content='texts', content_rowid='id', tokenize="unicode61 remove_diacritics 2");
"""


def index_path(state_root: str, claude_root: str | os.PathLike[str] | None = None) -> str:
    """The database of one Claude root (`--claude-dir`): roots never mix their sessions."""
    if claude_root is None:
        return os.path.join(state_root, INDEX, DB_FILE)
    import hashlib

    digest = hashlib.blake2b(os.path.abspath(claude_root).encode("utf-8", "surrogateescape"), digest_size=6)
    return os.path.join(state_root, INDEX, f"history-{digest.hexdigest()}.sqlite3")


def fts5_available(conn: sqlite3.Connection) -> bool:
    try:
        conn.execute("CREATE VIRTUAL TABLE temp.fts5_probe USING fts5(x)")
        conn.execute("DROP TABLE temp.fts5_probe")
        return True
    except sqlite3.OperationalError:
        return False


def connect(
    state_root: str,
    *,
    fts: bool | None = None,
    create: bool = True,
    claude_root: str | os.PathLike[str] | None = None,
) -> sqlite3.Connection:
    """The index (of `claude_root`), made if missing; `fts=False` makes it without FTS5 (as
    where SQLite lacks it). A database made by another schema version, or that is no
    database, is made again."""
    path = index_path(state_root, claude_root)
    if not create and not os.path.exists(path):
        raise FileNotFoundError(path)
    ensure_dir(os.path.dirname(path), root=state_root)
    if not os.path.exists(path):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600))
    conn = sqlite3.connect(path, timeout=30, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute(META)
        row = conn.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
    except sqlite3.DatabaseError as exc:
        if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
            raise  # another process holds it: no reason to doubt it
        row = ("damaged",)  # not a database (any more): made again from the transcripts
    if row is not None and row[0] != SCHEMA_VERSION:  # before the schema: its tables may differ
        conn.close()
        for suffix in ("", "-wal", "-shm"):
            try:
                os.unlink(path + suffix)
            except FileNotFoundError:
                pass
        return connect(state_root, fts=fts, create=create, claude_root=claude_root)
    conn.executescript(SCHEMA)
    if row is None:
        use_fts = fts5_available(conn) if fts is None else (fts and fts5_available(conn))
        conn.execute("BEGIN IMMEDIATE")
        if conn.execute("SELECT value FROM meta WHERE key='schema'").fetchone() is None:
            if use_fts:
                conn.execute(FTS_SCHEMA)
            conn.execute("INSERT INTO meta VALUES('schema', ?), ('fts', ?)", (SCHEMA_VERSION, "1" if use_fts else "0"))
        conn.execute("COMMIT")
    return conn


def has_fts(conn: sqlite3.Connection) -> bool:
    row = conn.execute("SELECT value FROM meta WHERE key='fts'").fetchone()
    return bool(row and row[0] == "1")
