"""Bringing the index up to date, file by file, from the byte offset already indexed.

Owns: which files are indexed (every session's transcript and agent logs under a Claude root,
as `sessions.store` lists them); per file, reading the whole lines it gained since its
checkpoint, through the kit's one line follower (`transcript.follow`: a half-written last
line waits for the next update; a file replaced, cut shorter or rewritten is indexed again
from the start; the checkpoint is kept in `files.tail`); turning entries into rows:
the session's facts, the searchable texts (redacted first, `redaction.engine.redact`), tool calls
paired across updates, agents, each API message's usage (`rows`; a 2.0.x warmup log adds
only that). An update for usage alone (`texts=False`, as `usage` asks) reads a file the index
never saw for its usage and the session's facts only, marked so (`files.texts` = 0): no
texts, no calls, no redaction of texts; the next update that wants texts (search, export, a
full update) reads such a file again from the start for its texts and calls (the lines the
first read counted add no usage or facts twice) and marks it whole. A file already whole
stays whole: a usage update reads what it gained in full. Client noise is skipped on the raw bytes
(`transcript.rawtype`), never parsed. Files are indexed in transactions of a few dozen: a kill
leaves every file either indexed to its old offset or to its new one. A session whose files the client deleted
keeps its rows. Does not: search (`query`).
"""

from __future__ import annotations

import functools
import os
import sqlite3
import stat
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from session_kit.base import timestamps
from session_kit.base.follow import Checkpoint, Follow, unchanged
from session_kit.index import fresh
from session_kit.index.db import begin, has_fts, writer
from session_kit.index.files import IndexFile, archived_only, doubled_views, files_to_index

CHUNK = 8 << 20  # bytes read at once; a longer line is read whole
# Files indexed in one transaction: commits cost more than small files; a kill loses at most these.
BATCH_FILES = 64
BATCH_BYTES = 32 << 20


@dataclass(frozen=True, slots=True)
class UpdateResult:
    files: int  # files read (new bytes)
    bytes: int  # bytes read
    reindexed: int  # files indexed again from the start
    # With `within`: nothing was read (more was new than that, or another update is running),
    # and these are the files not indexed to their end, each with how many of its lines are.
    pending: tuple[tuple[IndexFile, int], ...] = ()
    running: bool = False  # another update was running (and is bringing the index up to date)


def update(
    conn: sqlite3.Connection,
    claude_root: Path,
    *,
    files: Iterable[IndexFile] | None = None,
    progress: Callable[[int], object] | None = None,
    state_root: str | None = None,
    texts: bool = True,
    within: int | None = None,
) -> UpdateResult:
    """Index what was added to every file since the last update; with `state_root`, also the
    archived sessions the index has never seen (deleted by the client before any update).
    `texts=False`: a file the index never saw is read for its usage alone (`usage`). One
    update at a time per index (`db.writer`); batches in `BEGIN IMMEDIATE` (`db.begin`).
    `within`: read nothing when more than that many bytes are new, or when another update
    is running (no wait), and say which files are behind (`UpdateResult.pending`)."""
    if not conn.in_transaction and conn.execute("PRAGMA database_list").fetchone()[2]:
        lock = writer(conn, timeout=0 if within is not None else None)
        try:
            lock.__enter__()
        except TimeoutError:  # another update is running: what it has not indexed yet
            behind = _update(conn, claude_root, files, progress, state_root, texts, -1)
            return UpdateResult(0, 0, 0, behind.pending, running=True)
        try:
            return _update(conn, claude_root, files, progress, state_root, texts, within)
        finally:
            lock.__exit__()
    return _update(conn, claude_root, files, progress, state_root, texts, within)


def _update(
    conn: sqlite3.Connection,
    claude_root: Path,
    files: Iterable[IndexFile] | None,
    progress: Callable[[int], object] | None,
    state_root: str | None,
    texts: bool,
    within: int | None = None,
) -> UpdateResult:
    fts = has_fts(conn)
    if state_root is not None and (within is None or within >= 0):
        _drop_doubled(conn, claude_root, state_root, fts)
    look = fresh.plan(conn, claude_root) if files is None else None
    if look is not None and look.full:  # every row is wanted: read them in one go
        known = {row[0]: row[1:] for row in conn.execute(f"SELECT path, {_ROW} FROM files")}
        lookup = known.get
        files = files_to_index(claude_root, lambda path: (known.get(path) or (None,) * 8)[5])
        if state_root is not None:
            files = _then_archived(files, claude_root, state_root, conn)
    else:
        lookup = functools.partial(_row, conn)
        if look is not None:
            files = look.files + usage_only(conn) if texts else look.files
    assert files is not None
    todo: Iterable[tuple[IndexFile, tuple | None, int]] = _behind(files, lookup, texts)
    if within is not None:
        todo = list(todo)
        if within < 0 or sum(new for _item, _row, new in todo) > within:
            return UpdateResult(0, 0, 0, tuple((item, row[8] if row else 0) for item, row, _new in todo))
    read = total = again = pending = 0
    for item, _seen, _new in todo:
        if not conn.in_transaction:
            begin(conn)
        try:
            added, redone = _index_file(conn, item, fts, texts)
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        read += added > 0
        total += added
        pending += added
        again += redone
        if pending >= BATCH_BYTES or read % BATCH_FILES == 0:
            conn.execute("COMMIT")  # every file in it indexed to its new offset, or none
            pending = 0
        if progress is not None:
            progress(read)
    if conn.in_transaction:
        conn.execute("COMMIT")
    if look is not None:
        fresh.save(conn, look)
    return UpdateResult(read, total, again)


def _behind(
    files: Iterable[IndexFile], lookup: Callable[[str], tuple | None], texts: bool
) -> Iterator[tuple[IndexFile, tuple | None, int]]:
    """The files with bytes the index has not read: each with its row and about how many."""
    for item in files:
        row = lookup(item.path)
        if row is not None and texts and not row[7]:
            row = None  # read for its usage alone: its texts are wanted now, whatever changed
        if row is not None and item.size is not None and (row[2], row[4]) == (item.size, item.mtime):
            continue  # unchanged since the last update, by the listing's own stat
        try:
            info = os.stat(item.path)
        except OSError:
            continue
        if not stat.S_ISREG(info.st_mode):
            continue
        if row is not None and unchanged(Checkpoint.from_text(row[6]), info):
            continue  # unchanged since the last update: one stat, no read
        yield item, row, info.st_size - (row[1] if row is not None and row[1] <= info.st_size else 0)


_ROW = "id, offset, size, ino, mtime, session, tail, texts, lines"


def _row(conn: sqlite3.Connection, path: str) -> tuple | None:
    try:
        return conn.execute(f"SELECT {_ROW} FROM files WHERE path=?", (path,)).fetchone()
    except UnicodeEncodeError:  # stored as valid UTF-8 (`rows.sql_value`): read again
        return None


def _then_archived(
    files: Iterable[IndexFile], claude_root: Path, state_root: str, conn: sqlite3.Connection
) -> Iterable[IndexFile]:
    seen = set()
    for item in files:
        seen.add(item.session)
        yield item
    indexed = {row[0] for row in conn.execute("SELECT id FROM sessions")} | seen
    paths = {row[0] for row in conn.execute("SELECT path FROM files")}
    yield from archived_only(claude_root, state_root, indexed, paths)


def usage_only(conn: sqlite3.Connection) -> list[IndexFile]:
    """The files read for their usage alone, whose texts an update still has to read (all of
    the Claude root's own: `usage` never reads the archive's view, so none has an `original`)."""
    return [
        IndexFile(path, session, agent, project)
        for path, session, agent, project in conn.execute(
            "SELECT path, session, agent, project FROM files WHERE texts = 0 ORDER BY id"
        )
    ]


def _index_file(conn: sqlite3.Connection, item: IndexFile, fts: bool, texts: bool) -> tuple[int, bool]:
    from session_kit.index.db import sql_value

    key = sql_value(item.path)  # the file is read by its own name; the database holds valid UTF-8
    row = conn.execute(
        "SELECT id, offset, ino, lines, last_message, tail, warmup, texts FROM files WHERE path=?", (key,)
    ).fetchone()
    # A row written before checkpoints were kept knows its offset and inode only.
    seen = (Checkpoint.from_text(row[5]) or Checkpoint(row[1], ino=row[2] or 0)) if row is not None else None
    try:
        follow = Follow(item.path, seen)
    except OSError:
        return 0, False
    with follow:
        return _index_held(conn, item, key, row, follow, fts, texts)


def _index_held(
    conn: sqlite3.Connection, item: IndexFile, key: str, row: tuple | None, f: Follow, fts: bool, texts: bool
) -> tuple[int, bool]:
    # The parsers load only here: an update that finds nothing new never pays for them.
    from session_kit.base.layout import meta_path
    from session_kit.base.rawtype import top_level_type
    from session_kit.base.vocabulary import NOISE_TYPE_BYTES, TITLE_TYPE_BYTES
    from session_kit.index.db import sql_row, sql_value
    from session_kit.index.rows import FileRows, SessionState
    from session_kit.redaction.engine import redact as redact_text
    from session_kit.sessions.store import _read_meta
    from session_kit.transcript.entries import Entry
    from session_kit.transcript.reader import ReadStats, parse_line

    noise = NOISE_TYPE_BYTES - TITLE_TYPE_BYTES  # never parsed; title lines are (a session's title)
    warmup = bool(row[6]) if row is not None else item.warmup
    if item.agent is not None and not warmup:
        from session_kit.index.agent_rows import log_row

        meta = _read_meta(Path(meta_path(item.path))) or {}
        log_row(conn, sql_value(item.session), sql_value(item.agent), key, meta, redact_text)
    counted = 0  # lines whose usage and facts an earlier, usage-only read already counted
    whole = texts
    if row is not None:
        file_id, _offset, _ino, lines, last_message, _tail, _warmup, had_texts = row
        if f.restarted:  # replaced, cut shorter or rewritten: what it gave the index goes
            _forget_file(conn, file_id, fts)
            lines, last_message = 0, None
        elif had_texts:
            whole = True  # a whole file stays whole: what it gained is read in full
        elif texts:  # read for its usage alone: its texts and calls, from the start
            counted, lines, f.offset = lines, 0, 0
    else:
        file_id = conn.execute(
            "INSERT INTO files(path, session, agent, project, offset, size, ino, mtime, warmup, lines)"
            " VALUES(?,?,?,?,0,0,NULL,0,?,0)",
            sql_row((key, item.session, item.agent, item.project, int(warmup))),
        ).lastrowid
        lines, last_message = 0, None
    state = SessionState.load(conn, item)
    rows = FileRows(
        conn,
        state,
        item,
        file_id,
        last_message,
        warmup=warmup,
        searchable=whole,
        counted=counted,
        from_start=f.offset == 0,
    )
    start = f.offset
    stats = ReadStats()
    for block in f.blocks(chunk=CHUNK, complete_tail=True):  # a last line never ended is read too
        for raw in block:
            lines += 1
            kind = top_level_type(raw) if raw else None
            if not raw.strip() or kind in noise:
                continue
            value = parse_line(raw, stats, lines)
            if value is not None:
                rows.add(Entry.from_raw(lines, value))
        rows.flush(fts)  # a chunk's rows at a time: memory stays bounded on a large file
    rows.finish()
    if counted and lines <= counted:
        pass  # nothing new since the usage-only read: the session's row is already right
    elif not warmup or conn.execute("SELECT 1 FROM sessions WHERE id=?", (sql_value(item.session),)).fetchone():
        state.save(conn, item, f.offset)  # a warmup log alone makes no session
    cp = f.checkpoint()
    conn.execute(
        "UPDATE files SET offset=?, size=?, ino=?, mtime=?, modified=?, lines=?, last_message=?, tail=?, texts=?"
        " WHERE id=?",
        (
            cp.offset,
            cp.size,
            cp.ino,
            timestamps.mtime(f.stat),
            timestamps.mtime_ns(f.stat),
            lines,
            sql_value(rows.last_message),
            cp.to_text(),
            int(whole or warmup),
            file_id,
        ),
    )
    return cp.offset - start, f.restarted


def _forget_file(conn: sqlite3.Connection, file_id: int, fts: bool) -> None:
    if fts:  # an external-content index is told what leaves it
        conn.execute(
            "INSERT INTO texts_fts(texts_fts, rowid, text) SELECT 'delete', id, text FROM texts WHERE file_id=?",
            (file_id,),
        )
    conn.execute("DELETE FROM texts WHERE file_id=?", (file_id,))
    conn.execute("DELETE FROM calls WHERE file_id=?", (file_id,))
    conn.execute("DELETE FROM messages WHERE file_id=?", (file_id,))
    conn.execute("DELETE FROM agent_results WHERE file_id=?", (file_id,))


def _drop_doubled(conn: sqlite3.Connection, claude_root: Path, state_root: str, fts: bool) -> None:
    """The archive's view of a file the client still has goes from the index (its rows, its
    file), and each of its sessions' totals is counted again: one session is indexed once."""
    doubled = doubled_views(conn, claude_root, state_root)
    if not doubled:
        return
    from session_kit.index.rows import SESSION_TOKENS

    begin(conn)
    try:
        for file_id, _session in doubled:
            _forget_file(conn, file_id, fts)
            conn.execute("DELETE FROM files WHERE id=?", (file_id,))
        for session in {session for _id, session in doubled}:
            totals = conn.execute(SESSION_TOKENS, {"session": session}).fetchone()
            conn.execute(
                "UPDATE sessions SET input_tokens=?, output_tokens=?, cache_read_tokens=?, cache_write_tokens=? "
                "WHERE id=?",
                (*totals, session),
            )
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
