"""What `sessions` said of each file, kept in the index so the next listing reads only what changed.

Owns: the index's `listing` table (one row per main session file listed: its size, mtime in
ns and inode when it was read; the tail as the listing's first pass keeps it; the row's facts,
its texts as shown, i.e. redacted: cwd, branch, title, first prompt) and `ListingMemory`, the
`sessions.listing.Memory` over it; `latest_first`, the listing with its memory (what
`api.latest_first` is). A row is trusted only for a file of the same size, mtime and inode,
and only by the same rules: each row carries the fingerprint (`rules`) of the modules that
decide it (the redactor and its rule tables, the title, span and head-and-tail readers, the
overview and the listing), so a kit whose rules changed reads every file again. With
`--no-redact` nothing is read from it or written to it (its texts are redacted ones).

A cache: it is opened without the index's full checks (`db.connect`), only this table made if
missing; an SQLite error (a damaged index, a read-only state folder) leaves the listing to read
the files, as with no memory at all, and never fails it; a write that would wait on an index
update keeps nothing more. Other tables are not touched, nor is this one by the index's
updates. Rows of files gone stay until the index is made again (a few hundred bytes each).
Does not: decide anything a row says (`sessions.overview`, `transcript.glance`) or the order
(`sessions.listing`).
"""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from session_kit.errors import KitError
from session_kit.sessions.listing import Known, Listing
from session_kit.sessions.listing import latest_first as _latest_first
from session_kit.sessions.overview import Remembered

if TYPE_CHECKING:
    import sqlite3

    from session_kit.sessions.listing import Handed

# sqlite3 (~6 ms) is loaded once a memory is used: a listing of a few files never opens one.

# The modules whose rules decide a row (under src/session_kit): a change to any reads every
# file again. The row's own shape is `ROW`.
RULE_MODULES = (
    "redaction/engine.py",
    "redaction/table.py",
    "redaction/rules/formats.py",
    "redaction/rules/vendors.py",
    "redaction/rules/statements.py",
    "redaction/rules/keyfiles.py",
    "redaction/rules/contexts.py",
    "redaction/rules/access.py",
    "redaction/rules/keys.py",
    "redaction/rules/generic.py",
    "redaction/filters.py",
    "transcript/glance.py",
    "transcript/titles.py",
    "transcript/span.py",
    "transcript/entries.py",
    "transcript/reader.py",
    "base/vocabulary.py",
    "base/slash_commands.py",
    "sessions/overview.py",
    "sessions/listing.py",
    "index/listing.py",
)
ROW = "1"
INSERT = "INSERT OR REPLACE INTO listing VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
BUSY_MS = 250  # a listing waits this long at most for another writer (an index update), then keeps nothing


def rules() -> str:
    """The fingerprint of the rules a row was made by (see RULE_MODULES)."""
    import hashlib

    digest = hashlib.blake2b(ROW.encode(), digest_size=8)
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for name in RULE_MODULES:
        try:
            with open(os.path.join(package, name), "rb") as f:
                digest.update(f.read())
        except OSError:
            digest.update(b"-")
    return digest.hexdigest()


class ListingMemory:
    """`sessions.listing.Memory` over the index's `listing` table; opened on first use in each
    process (a listing's forked children open their own), given up on any SQLite error."""

    def __init__(self, state_root: str, claude_root: Path) -> None:
        self._state_root = state_root
        self._root = claude_root
        self._rules = rules()
        self._conn: sqlite3.Connection | None = None
        self._pid = 0
        self._broken = False
        self._keeping = True  # false once a write failed: what was kept is still used

    def _db(self) -> sqlite3.Connection | None:
        import sqlite3

        if self._broken:
            return None
        if self._conn is not None and self._pid == os.getpid():
            return self._conn
        self._conn = None  # a forked child never uses its parent's connection
        try:
            from session_kit.index import db

            path = db.index_path(self._state_root, self._root)
            if not os.path.lexists(path):  # no index yet: made whole, as every reader of it expects
                db.connect(self._state_root, claude_root=self._root).close()
            conn = sqlite3.connect(path, timeout=BUSY_MS / 1000, isolation_level=None)
            try:
                if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                    conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA synchronous=NORMAL")
                conn.execute("PRAGMA cache_size=-256")  # KiB: a listing reads each page once
                if conn.execute("SELECT 1 FROM sqlite_master WHERE name='listing'").fetchone() is None:
                    conn.executescript(db.LISTING_SCHEMA)
            except BaseException:
                conn.close()
                raise
        except (OSError, sqlite3.Error, ValueError, KitError):
            self._broken = True
            return None
        self._conn, self._pid = conn, os.getpid()
        return conn

    def _give_up(self) -> None:
        self._broken = True
        if self._conn is not None and self._pid == os.getpid():
            self._conn.close()
        self._conn = None

    def tails(self, project: Path) -> dict[str, Known]:
        import sqlite3

        conn = self._db()
        if conn is None:
            return {}
        try:
            cursor = conn.execute(
                "SELECT name, ino, dev, size, mtime, activity, tz, flags, rowid FROM listing "
                "WHERE project = ? AND rules = ?",
                (str(project), self._rules),
            )
            return {row[0]: row[1:] for row in cursor}
        except sqlite3.Error:
            self._give_up()
            return {}

    def rows(self, keys: list[int]) -> dict[int, Remembered]:
        import sqlite3

        conn = self._db()
        if conn is None:
            return {}
        try:
            marks = ",".join("?" * len(keys))
            cursor = conn.execute(
                "SELECT rowid, started, ended, cwd, branch, title, prompt, shown, rules FROM listing "
                f"WHERE rowid IN ({marks})",
                keys,
            )
            rules = self._rules
            return {row[0]: row[1:8] for row in cursor if row[8] == rules}
        except sqlite3.Error:
            self._give_up()
            return {}

    def remember(self, rows: list[Handed]) -> None:
        import sqlite3

        conn = self._db() if self._keeping else None
        if conn is None:
            return
        values = [
            (path, project, os.path.basename(path)[: -len(".jsonl")], *tail, *facts, self._rules)
            for path, project, tail, facts in sorted(rows, key=_path)
        ]
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                conn.executemany(INSERT, values)
            except UnicodeEncodeError:  # a name or text SQLite cannot hold (a lone surrogate): not kept
                for row in values:
                    try:
                        conn.execute(INSERT, row)
                    except UnicodeEncodeError:
                        pass
            conn.execute("COMMIT")
        except sqlite3.Error:  # busy (an index update holds it), full, read-only: keep nothing more
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            self._keeping = False


def _path(row: Handed) -> str:
    return row[0]


def latest_first(
    root: Path,
    *,
    project_path: str | os.PathLike[str] | None = None,
    all_projects: bool = False,
    since: datetime | None = None,
    until: datetime | None = None,
    limit: int | None = None,
    state_root: str | None = None,
) -> Listing:
    """`sessions.listing.latest_first` with the memory of the index of `root` under
    `state_root` (default: the kit's state folder); none while secrets are shown."""
    from session_kit.redaction.engine import redaction_enabled
    from session_kit.state.root import StateRootUnknown
    from session_kit.state.root import state_root as default_state_root

    memory = None
    if redaction_enabled():
        try:
            home = state_root or default_state_root()
        except StateRootUnknown:  # no state folder can be named: list without a memory
            home = None
        if home is not None:
            memory = ListingMemory(home, root)
    return _latest_first(
        root,
        project_path=project_path,
        all_projects=all_projects,
        since=since,
        until=until,
        limit=limit,
        memory=memory,
    )
