"""What an update looks at: every file, or only those that may have changed since the last look.

Owns: the record of the last look (`meta.fresh`: the projects folder it was of, the journal's
inode and how far it was read, each project folder's mtime, and when every file was last
looked at), and from it the files an update checks (`plan`). Where the hooks keep a journal
(`journal`: a hook wrote to it since the index was made), only these are looked at: the
files of each session the journal names since the last look, of each project folder whose
mtime changed (a session or an agent log was made in it) or is new, and of each file written
to in the last `ACTIVE_S` (a session running now, whose hooks have not fired yet); every file
is looked at again when there is no journal (no hook keeps the index: each file's stat is the
only way to know), when the journal was made again, when a journal line names a path outside
the projects folder's layout, and at least every `FULL_CHECK_S` (a session written by a client
without the hooks). Standard library only. Does not: read transcripts or write rows (`update`).
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from dataclasses import dataclass

from session_kit.base import layout
from session_kit.index.files import IndexFile, files_in_project, session_files
from session_kit.index.journal import journal_path, read_since, start_over
from session_kit.state.ids import is_plain_id

FULL_CHECK_S = 3600.0  # every file is looked at again at least this often
ACTIVE_S = 600.0  # a file written to this recently is looked at by every update
KEY = "fresh"
ROOT_KEY = "projects_dir"  # the record's: the projects folder it is of


@dataclass(frozen=True, slots=True)
class Plan:
    files: list[IndexFile] | None  # None: every file, from a full listing
    record: str | None  # what `meta.fresh` holds once the update has read them (None: as it is)

    @property
    def full(self) -> bool:
        return self.files is None


def plan(conn: sqlite3.Connection, claude_root: str | os.PathLike[str]) -> Plan:
    """The files the next update has to look at (None: all of them), and the record to keep
    once it has (`save`)."""
    database = conn.execute("PRAGMA database_list").fetchone()[2]
    if not database:
        return Plan(None, None)
    journal = journal_path(database)
    root = os.path.abspath(claude_root)
    projects = layout.projects_dir(root)
    dirs = layout.project_mtimes(root)  # before anything is listed: what is made meanwhile is seen next time
    now = time.time()
    saved = _load(conn)
    if saved is not None and saved.get(ROOT_KEY) == projects and 0 <= now - saved.get("checked", 0) < FULL_CHECK_S:
        since = read_since(journal, saved["journal"])
        files = None if since is None else _changed(conn, root, dirs, saved["dirs"], since[0], now)
        if since is not None and files is not None:
            record = {**saved, "journal": since[1], "dirs": dirs}
            return Plan(files, None if record == saved else json.dumps(record))
    where = start_over(journal)
    if where is None:
        return Plan(None, None)
    return Plan(None, json.dumps({ROOT_KEY: projects, "journal": where, "dirs": dirs, "checked": now}))


def save(conn: sqlite3.Connection, found: Plan) -> None:
    """Keep the record of a look an update finished (in one statement: a write of its own)."""
    if found.record is not None:
        conn.execute("INSERT OR REPLACE INTO meta VALUES(?, ?)", (KEY, found.record))


def forget(conn: sqlite3.Connection) -> None:
    """The next update looks at every file."""
    conn.execute("DELETE FROM meta WHERE key=?", (KEY,))


def _load(conn: sqlite3.Connection) -> dict | None:
    row = conn.execute("SELECT value FROM meta WHERE key=?", (KEY,)).fetchone()
    try:
        saved = json.loads(row[0]) if row else None
        if not (isinstance(saved["journal"], str) and isinstance(saved["dirs"], dict)):
            return None
    except (ValueError, TypeError, KeyError):
        return None
    return saved


def _changed(
    conn: sqlite3.Connection, root: str, dirs: dict[str, int], seen: dict[str, int], paths: list[str], now: float
) -> list[IndexFile] | None:
    """The files of the sessions journaled, of the project folders changed or new, and those
    written to lately; None when a journaled path is not in the projects folder's layout."""
    found: dict[str, IndexFile] = {}

    def session_of(path: str) -> str | None:
        row = conn.execute("SELECT session FROM files WHERE path=?", (path,)).fetchone()
        return row[0] if row else None

    for name, mtime in dirs.items():
        if seen.get(name) != mtime:
            folder = os.path.join(layout.projects_dir(root), name)
            if os.path.isdir(folder):
                found.update((f.path, f) for f in files_in_project(folder, session_of))
    for path in paths:
        where = session_of_path(root, path)
        if where is None:
            return None
        folder, session = where
        found.update((f.path, f) for f in session_files(folder, session))
        for row in conn.execute(
            "SELECT path, session, agent, project FROM files WHERE session=? AND agent IS NOT NULL", (session,)
        ):
            if os.path.dirname(row[0]) == folder:  # a 2025-layout agent log beside the sessions
                found.setdefault(row[0], IndexFile(*row))
    inside = layout.projects_dir(root) + os.sep
    for row in conn.execute(
        "SELECT path, session, agent, project FROM files WHERE modified > ?", (int((now - ACTIVE_S) * 1e9),)
    ):
        if row[0].startswith(inside):
            found.setdefault(row[0], IndexFile(*row))
    return list(found.values())


def session_of_path(claude_root: str, path: str) -> tuple[str, str] | None:
    """(project folder, session id) of a transcript, or of a file in a session's folder,
    under `claude_root` (`base.layout.where`); None for anything else (a 2025 agent log
    names its session only in its head)."""
    place = layout.where(path, claude_root)
    if place is None or place.session is None or not path.endswith(layout.SESSION_SUFFIX):
        return None
    if place.kind != layout.TRANSCRIPT and not is_plain_id(place.session):
        return None
    return place.project_dir, place.session
