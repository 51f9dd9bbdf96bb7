"""The index database: where it lives, its schema, and opening it.

Owns: opening `<state>/index/history-<hash of the Claude root>.sqlite3`, one per Claude root
(folder 0700, file 0600; its path is `journal.index_path`'s); the schema below; whether
this Python's SQLite has FTS5 (`fts5_available`), and the one flag (`meta.fts`) that says
which way the text table was made; opening in WAL mode, so a reader never waits on a writer
and a writer killed (even with -9) leaves the last committed state. Does not: fill it
(`update`) or search it (`query`).

Tables (documented for users in docs/reference/json.md, "export"):
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
    agents    one row per agent of a session, as `debug-agent` lists them (`index.agent_rows`):
              session, agent_id (the call's id until a result or log names the agent), type
              (the meta file's, else the spawning call's), description, path (its log; null
              when none was kept), tool_use_id (the call that spawned it)
    messages  one row per API message of a file (`transcript.tokens`' key; the last line of
              a message wins, a later update replacing what an earlier one counted):
              file_id, key, session, agent, hour (UTC hours since the epoch, -1 without a
              time), model, input, output, cache_read, cache_write_5m, cache_write_1h,
              web_search, web_fetch
    agent_results  what an `Agent`/`Task` result reports of its agent's usage (all that is
              known of an agent whose log is gone): file_id, session, agent_id, hour, model,
              the same token columns, source (`result`: the agent's last request only)
    listing   what `sessions` said of each main session file (`index.listing`): path,
              project, name, ino, dev, size, mtime (ns) (its stamp: `follow.stamp`),
              activity, tz, flags (its tail), started,
              ended, cwd, branch, title, prompt (the texts as shown: redacted), shown (1: the
              rest of the row's strings need no redaction), rules (the fingerprint of the rules
              the row was made by)
    files     one row per indexed file: path, session, agent, project, offset (bytes
              indexed, whole lines only), size, ino, mtime, modified (mtime in ns, the
              order "written first" follows), warmup (a 2.0.x warmup log: only its usage is
              kept), lines, last_message, tail (the line
              follower's checkpoint, `transcript.follow`), texts (1: its texts and calls
              are indexed; 0: read for its usage alone, as `usage` reads a file the index
              never saw: its messages, agent results and session facts only; the next
              update that wants texts reads it again from the start)

The index is a cache of the transcripts: an index that cannot be used (another schema
version, whose rows are never trusted: version 1 counted each message's first line, version 2
had no `files.texts`, version 3 no `texts.kit`, version 4 listed only agents with a log; a file cut short or garbled; another
program's database; a folder or a symlink in its place; its full-text table dropped, or rows deleted under it) is moved aside
to `<path>.damaged` (one kept) and made again, said once on stderr (`errors.Rebuilt`):
`connect` finds what opening shows (`problem`: cheap checks, no page read twice), `use` what
only reading shows (a garbled page), and does its work again on the new index. `health` is
`doctor`'s read-only look. Writers take `BEGIN IMMEDIATE` (`begin`, retried while busy) and
one update runs at a time (`writer`); a reader reads in one transaction (`snapshot`).
"""

from __future__ import annotations

import functools
import os
import sqlite3
import stat
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from session_kit.base import fileio
from session_kit.base.fileio import TEXT_ERRORS
from session_kit.index.journal import index_path
from session_kit.state.root import ensure_dir, locked

T = TypeVar("T")

SCHEMA_VERSION = "5"

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
CREATE INDEX IF NOT EXISTS texts_kit ON texts(id) WHERE kit = 1;  -- the few echoes, counted without a join
CREATE TABLE IF NOT EXISTS calls(
    id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, session TEXT NOT NULL, agent TEXT, tool_use_id TEXT,
    tool TEXT, summary TEXT, status TEXT, exit_code INTEGER, error TEXT, started TEXT, duration_s REAL,
    line INTEGER);
CREATE INDEX IF NOT EXISTS calls_file ON calls(file_id);
CREATE INDEX IF NOT EXISTS calls_use ON calls(tool_use_id);
CREATE TABLE IF NOT EXISTS agents(
    session TEXT NOT NULL, agent_id TEXT NOT NULL, type TEXT, description TEXT, path TEXT, tool_use_id TEXT,
    PRIMARY KEY(session, agent_id)) WITHOUT ROWID;  -- read in key order: an export's rows in one order
CREATE INDEX IF NOT EXISTS agents_call ON agents(session, tool_use_id);
"""
LISTING_SCHEMA = """
CREATE TABLE IF NOT EXISTS listing(
    path TEXT PRIMARY KEY, project TEXT NOT NULL, name TEXT NOT NULL, ino INTEGER, dev INTEGER, size INTEGER,
    mtime INTEGER, activity INTEGER, tz INTEGER, flags INTEGER, started TEXT, ended TEXT, cwd TEXT, branch TEXT, title TEXT,
    prompt TEXT, shown INTEGER, rules TEXT);
CREATE INDEX IF NOT EXISTS listing_tails ON listing(project, rules, name, ino, dev, size, mtime, activity, tz, flags);
"""
SCHEMA += LISTING_SCHEMA  # a table of its own: an older index gains it when next opened

FTS_SCHEMA = """
CREATE VIRTUAL TABLE IF NOT EXISTS texts_fts USING fts5(
    text, content='texts', content_rowid='id', tokenize="unicode61 remove_diacritics 2");
"""


def fts5_available(conn: sqlite3.Connection) -> bool:
    try:
        conn.execute("CREATE VIRTUAL TABLE temp.fts5_probe USING fts5(x)")
        conn.execute("DROP TABLE temp.fts5_probe")
        return True
    except sqlite3.OperationalError:
        return False


class Damaged(Exception):
    """The index cannot be used as it is (the message says why): it is set aside and made again."""


BUSY_S = 60.0  # how long opening the index retries while another process holds it


def _busy(exc: sqlite3.Error) -> bool:
    return isinstance(exc, sqlite3.OperationalError) and ("locked" in str(exc) or "busy" in str(exc))


def connect(
    state_root: str,
    *,
    fts: bool | None = None,
    create: bool = True,
    claude_root: str | os.PathLike[str] | None = None,
) -> sqlite3.Connection:
    """The index (of `claude_root`), made if missing; `fts=False` makes it without FTS5 (as
    where SQLite lacks it). An index that cannot be used (`problem`) is set aside and made
    again, once; opening retries while another process holds the database."""
    path = index_path(state_root, claude_root)
    if not create and not os.path.lexists(path):
        raise FileNotFoundError(path)
    ensure_dir(os.path.dirname(path), root=state_root)
    deadline = time.monotonic() + BUSY_S
    rebuilt = False
    while True:
        seen = _identity(path)
        try:
            return _open(path, fts)
        except Damaged as exc:
            if exc.args[-1:] == ("sqlite",) and _update_running(path) and time.monotonic() < deadline:
                time.sleep(0.1)  # "malformed" while another process writes: busy, not damaged
                continue
            if rebuilt:
                from session_kit.errors import KitError

                raise KitError(f"the index {path} cannot be made ({exc.args[0]}); delete it and try again") from None
            set_aside(path, str(exc.args[0]), seen)
            rebuilt = True
        except sqlite3.OperationalError as exc:
            if not _busy(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def use(
    state_root: str,
    work: Callable[[sqlite3.Connection], T],
    *,
    fts: bool | None = None,
    claude_root: str | os.PathLike[str] | None = None,
) -> T:
    """`work` done on the index, closed after. Damage found only while reading (a garbled page,
    a broken full-text index) sets the index aside and does `work` again on a new one; but
    not while another process holds the update lock (it is waited for: busy), nor when
    `PRAGMA integrity_check` finds the index whole (read again)."""
    path = index_path(state_root, claude_root)
    deadline = time.monotonic() + BUSY_S
    rebuilt, checked = False, 0
    while True:
        conn = connect(state_root, fts=fts, claude_root=claude_root)
        seen = _identity(path)
        try:
            return work(conn)
        except sqlite3.DatabaseError as exc:
            if rebuilt or _busy(exc):
                raise
            problem = str(exc)
        finally:
            conn.close()
        if _update_running(path) and time.monotonic() < deadline:
            time.sleep(0.1)  # "malformed" while another process writes: busy, not damaged
            continue
        if checked < 2 and _intact(path):
            checked += 1  # nothing wrong on a second look: read again
            continue
        set_aside(path, problem, seen)
        rebuilt = True


def _update_running(path: str) -> bool:
    """Another process holds the index's update lock (`writer`)."""
    try:
        with locked(path + ".update", timeout=0):
            return False
    except TimeoutError:
        return True


def _intact(path: str) -> bool:
    """`PRAGMA integrity_check` finds nothing wrong: what looked damaged is not set aside."""
    try:
        check = sqlite3.connect(path, timeout=30)
        try:
            return check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        finally:
            check.close()
    except sqlite3.Error:
        return False


def begin(conn: sqlite3.Connection) -> None:
    """`BEGIN IMMEDIATE`: a writer takes the write lock before it reads what it changes (a
    deferred transaction would fail, unretried, when another wrote meanwhile); retried while
    another process holds it, beyond SQLite's own wait."""
    deadline = time.monotonic() + BUSY_S
    while True:
        try:
            conn.execute("BEGIN IMMEDIATE")
            return
        except sqlite3.OperationalError as exc:
            if not _busy(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.05)


@contextmanager
def snapshot(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One read transaction for the block (re-entrant): every query in it sees one state of
    the index, whatever another process commits meanwhile (WAL), so a reader asking several
    questions (export's tables, usage's rows, a search's hits and what is behind) never mixes two."""
    began = not conn.in_transaction
    if began:
        conn.execute("BEGIN")
    try:
        yield conn
    finally:
        if began and conn.in_transaction:
            conn.execute("COMMIT")  # (reads only: nothing to roll back)


def writer(conn: sqlite3.Connection, *, timeout: float | None = None) -> locked:
    """The lock an update holds from start to end (`<index>.update.lock`), so that two
    processes updating at once take turns instead of interleaving their batches: the one
    waiting would otherwise starve between the other's commits, and then read it all again.
    `timeout` 0: taken only if free (TimeoutError otherwise); by default waited for an hour."""
    path = conn.execute("PRAGMA database_list").fetchone()[2]
    return locked(path + ".update", timeout=3600 if timeout is None else timeout)


def _identity(path: str) -> tuple[int, int] | None:
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _open(path: str, fts: bool | None) -> sqlite3.Connection:
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        kind = "a symlink" if stat.S_ISLNK(st.st_mode) else "a folder" if stat.S_ISDIR(st.st_mode) else "not a file"
        raise Damaged(f"{kind} in its place")
    if st is None:
        try:
            os.close(fileio.open_fd(path, flags=os.O_WRONLY | os.O_CREAT | os.O_EXCL | fileio.NOFOLLOW)[0])
        except FileExistsError:
            pass  # made by another process this instant
    conn = sqlite3.connect(path, timeout=30, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute(META)
        row = conn.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        if row is not None and row[0] != SCHEMA_VERSION:  # its tables may differ: never trusted
            raise Damaged(f"made by another version of the kit (schema {row[0]})")
        if row is None and set(_tables(conn)) - {"meta", *_expected()}:
            raise Damaged("another program's database")
        conn.executescript(SCHEMA)
        if row is None:
            use_fts = fts5_available(conn) if fts is None else (fts and fts5_available(conn))
            begin(conn)
            if conn.execute("SELECT value FROM meta WHERE key='schema'").fetchone() is None:
                if use_fts:
                    conn.execute(FTS_SCHEMA)
                conn.execute(
                    "INSERT INTO meta VALUES('schema', ?), ('fts', ?)", (SCHEMA_VERSION, "1" if use_fts else "0")
                )
            conn.execute("COMMIT")
        found = problem(conn)
        if found:
            raise Damaged(found)
    except sqlite3.DatabaseError as exc:
        conn.close()
        if _busy(exc):
            raise
        raise Damaged(str(exc), "sqlite") from None
    except BaseException:
        conn.close()
        raise
    return conn


def set_aside(path: str, problem: str, seen: tuple[int, int] | None) -> None:
    """Move the damaged index (and its WAL files) to `<path>.damaged`, replacing an older one,
    and say so once (`Rebuilt`). Nothing is moved when another process has already put a new
    index in its place (`seen`: the identity of what was found damaged)."""
    import warnings

    from session_kit.base.fileio import move
    from session_kit.errors import Rebuilt

    aside = path + ".damaged"
    with locked(path, timeout=BUSY_S):
        if _identity(path) != seen:
            return
        for suffix in ("", "-wal", "-shm"):
            _remove(aside + suffix)
            try:
                move(path + suffix, aside + suffix)
            except FileNotFoundError:
                pass
    warnings.warn(
        Rebuilt(
            f"the index {path} could not be used ({problem}); it was moved to {aside} and is rebuilt from the transcripts"
        ),
        stacklevel=3,
    )


def _remove(path: str) -> None:
    try:
        if os.path.isdir(path) and not os.path.islink(path):
            import shutil

            shutil.rmtree(path)
        else:
            os.unlink(path)
    except FileNotFoundError:
        pass


def _tables(conn: sqlite3.Connection) -> list[str]:
    return [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]


@functools.cache
def _expected() -> dict[str, tuple[str, ...]]:
    """The kit's tables and their columns, as SCHEMA makes them (the full-text table's own
    shadow tables included, by name)."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.executescript(SCHEMA)
        tables = {name: tuple(r[1] for r in conn.execute(f"PRAGMA table_info({name})")) for name in _tables(conn)}
    finally:
        conn.close()
    shadows = ("texts_fts", "texts_fts_data", "texts_fts_idx", "texts_fts_docsize", "texts_fts_config")
    return {**tables, **dict.fromkeys(shadows, ())}


def problem(conn: sqlite3.Connection) -> str | None:
    """What makes an open index unusable, cheaply found (no page is read twice): a table
    without the columns the kit writes, a full-text table missing, or one that indexes a
    different number of rows than `texts` holds (rows deleted under it). None when fine."""
    for table, columns in _expected().items():
        if columns:
            try:
                conn.execute(f"SELECT {', '.join(columns)} FROM {table} LIMIT 0")
            except sqlite3.OperationalError as exc:
                if _busy(exc):
                    raise
                return f"its table {table} is not the kit's ({exc})"
    if not has_fts(conn):
        return None
    if "texts_fts" not in _tables(conn):
        return "its full-text table texts_fts is missing"
    block = conn.execute("SELECT block FROM texts_fts_data WHERE id = 1").fetchone()
    indexed = _varint(block[0]) if block and block[0] else 0
    rows = conn.execute("SELECT count(*) FROM texts").fetchone()[0]
    if indexed != rows:
        return f"its full-text table indexes {indexed} texts, but {rows} are stored"
    return None


def _varint(data: bytes) -> int:
    """SQLite's varint at the start of `data` (FTS5's count of indexed rows)."""
    value = 0
    for i, byte in enumerate(data[:9]):
        if i == 8:
            return (value << 8) | byte
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value
    return value


def has_fts(conn: sqlite3.Connection) -> bool:
    row = conn.execute("SELECT value FROM meta WHERE key='fts'").fetchone()
    return bool(row and row[0] == "1")


def health(state_root: str, claude_root: str | os.PathLike[str] | None = None) -> dict[str, object]:
    """How the index is, for `doctor`, read-only (nothing is made or moved): `state` is `ok`,
    `missing` or `damaged` (with the `problem`; the next search or export rebuilds it)."""
    path = index_path(state_root, claude_root)
    report: dict[str, object] = {"path": path, "state": "ok", "problem": None, "bytes": 0}
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return {**report, "state": "missing"}
    except OSError as exc:
        return {**report, "state": "damaged", "problem": exc.strerror}
    report["bytes"] = st.st_size
    if not stat.S_ISREG(st.st_mode):
        kind = "a symlink" if stat.S_ISLNK(st.st_mode) else "a folder" if stat.S_ISDIR(st.st_mode) else "not a file"
        return {**report, "state": "damaged", "problem": f"{kind} in its place"}
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5, isolation_level=None)
    except sqlite3.Error as exc:
        return {**report, "state": "damaged", "problem": str(exc)}
    try:
        row = conn.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        if row is None or row[0] != SCHEMA_VERSION:
            found = "not the kit's index" if row is None else f"made by another version of the kit (schema {row[0]})"
        else:
            found = problem(conn)
        if found is None:
            checked = conn.execute("PRAGMA quick_check(1)").fetchone()[0]
            found = None if checked == "ok" else checked
    except sqlite3.Error as exc:
        found = "busy (another process is writing it)" if _busy(exc) else str(exc)
        if _busy(exc):
            return {**report, "problem": found}
    finally:
        conn.close()
    return {**report, "state": "ok" if found is None else "damaged", "problem": found}


_INT64 = (-(2**63), 2**63 - 1)


def sql_value(value: object) -> object:
    """A value SQLite can store: a lone surrogate (half an emoji a transcript escaped) becomes
    U+FFFD, as in everything the kit writes (`fileio.TEXT_ERRORS`); an integer past 64 bits
    (a hostile exit code or token count) becomes null."""
    if isinstance(value, str):
        if value.isascii():
            return value
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return value.encode("utf-8", TEXT_ERRORS).decode("utf-8")
        return value
    if isinstance(value, int) and not isinstance(value, bool) and not _INT64[0] <= value <= _INT64[1]:
        return None
    return value


def sql_row(values: tuple) -> tuple:
    return tuple(map(sql_value, values))
