"""What `session-kit sync` does: bring an index up to date and push it to the team database.

Owns: the two sources a push reads. This machine: its index (the one `search`, `usage` and
`export` read) brought up to date first, pushed as machine NAME with origin `machine:NAME`,
the files on disk now marked present (what `usage` counts). A CI run's transcripts (`--from
FOLDER --origin ci:OWNER/REPO#RUN`): the folder (a Claude root, a `projects/` folder, or one
project's folder, as an artifact holds them) indexed in a throw-away index, its paths named
relative to the folder (so pushing a second download of the same artifact adds nothing),
pushed with that origin, as the machine the origin names unless `--machine` says another.
Does not: decide what a push sends (`push`), or connect (`connection.team_database`).
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from session_kit.base.layout import count_named_as_sessions
from session_kit.claude.paths import projects_dir
from session_kit.errors import InvalidOptions, NotFound
from session_kit.team import connection
from session_kit.team.connection import team_database
from session_kit.team.push import PushResult, push

ORIGIN = re.compile(r"^[a-z][a-z0-9-]*:\S+$")  # `ci:OWNER/REPO#RUN`, `machine:NAME`


def push_history(
    claude_root: Path,
    state_root: str,
    url: str | None = None,
    *,
    machine: str | None = None,
    progress: Callable[[int, int], object] | None = None,
) -> PushResult:
    """This machine's index, brought up to date, pushed to the team database."""
    from session_kit.index import db
    from session_kit.index.files import files_to_index
    from session_kit.index.update import update

    address = connection.team_url(url, state_root)
    name = connection.machine_name(machine, state_root)
    user = connection.user_name()
    with team_database(address, write=True) as team:

        def work(conn: Any) -> PushResult:
            if projects_dir(claude_root).is_dir():
                update(conn, claude_root, state_root=state_root)
            known = dict(conn.execute("SELECT path, session FROM files"))
            listed = [f.path for f in files_to_index(claude_root, known.get)]
            with db.snapshot(conn):  # what is pushed: one state of the index
                return push(
                    conn, team, machine=name, origin=f"machine:{name}", user=user, present=listed, progress=progress
                )

        return replace(db.use(state_root, work, claude_root=claude_root), database=connection.where(address))


def push_folder(
    folder: Path,
    origin: str,
    url: str | None = None,
    *,
    state_root: str | None = None,
    machine: str | None = None,
    progress: Callable[[int, int], object] | None = None,
) -> PushResult:
    """The transcripts of a folder (a CI run's artifact), pushed with `origin`."""
    if not ORIGIN.match(origin):
        raise InvalidOptions("{} must be a kind and a name, as ci:OWNER/REPO#RUN", ["origin"], detail=f": {origin!r}")
    if not folder.is_dir():
        raise NotFound(f"{folder} is not a folder")
    address = connection.team_url(url, state_root)
    user = connection.user_name()
    with tempfile.TemporaryDirectory(prefix="session-kit-sync-") as scratch:
        root = _as_claude_root(folder, Path(scratch))
        base = str(folder if root == folder else root)

        def name_of(path: str) -> str:
            return os.path.relpath(path, base).replace(os.sep, "/")

        from session_kit.index import db
        from session_kit.index.update import update

        index = db.connect(os.path.join(scratch, "state"), claude_root=root)
        try:
            update(index, root)
            if not index.execute("SELECT 1 FROM files LIMIT 1").fetchone():
                raise NotFound(f"no Claude Code transcripts in {folder}")
            with team_database(address, write=True) as team, db.snapshot(index):
                result = push(
                    index, team, machine=machine or origin, origin=origin, user=user, name_of=name_of, progress=progress
                )
            return replace(result, database=connection.where(address))
        finally:
            index.close()


def _as_claude_root(folder: Path, scratch: Path) -> Path:
    """`folder` as a Claude root: itself when it is one; else one made in `scratch` whose
    `projects` is the folder (a folder of projects) or holds it (one project's transcripts)."""
    if projects_dir(folder).is_dir():
        return folder
    root = scratch / "root"
    projects = projects_dir(root)
    projects.parent.mkdir(parents=True)
    here = folder.resolve()
    if count_named_as_sessions(str(here)):
        projects.mkdir()
        (projects / here.name).symlink_to(here, target_is_directory=True)
    else:
        projects.symlink_to(here, target_is_directory=True)
    return root
