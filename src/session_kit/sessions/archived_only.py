"""Sessions only the kit's archive holds: the client deleted their transcripts (it does after
`cleanupPeriodDays`), the archive kept them.

Owns: which they are, of one project or of every one, latest written first, with what the
archive's manifests say of each (size, when the client last wrote it). Does not read them:
`show`, `view` and `restore` do, through `sessions.resolve`, which finds them in the archive.
"""

from __future__ import annotations

import os
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, NamedTuple

from session_kit.archive import layout
from session_kit.base.encoding import encode_project_dir
from session_kit.base.layout import PROJECTS, SESSION_SUFFIX, session_of_name
from session_kit.claude.paths import projects_dir
from session_kit.sessions.store import check_scope, find_project, session_files

_TRANSCRIPT_MANIFEST = SESSION_SUFFIX + layout.GZ + layout.MANIFEST


class ArchivedOnly(NamedTuple):
    """One session whose transcript only the archive has."""

    session_id: str
    project: str  # the client's project folder name
    size: int  # bytes of its newest archived generation
    last_written: datetime | None  # the transcript's mtime when it was last archived

    def as_dict(self) -> dict[str, Any]:
        when = self.last_written.strftime("%Y-%m-%dT%H:%M:%SZ") if self.last_written else None
        return {"id": self.session_id, "project": self.project, "size": self.size, "last_written": when}


def archived_only(
    root: Path, state_root: str, *, project_path: str | os.PathLike[str] | None = None, all_projects: bool = False
) -> list[ArchivedOnly]:
    """The archived sessions of the project of `project_path` (default: the current
    directory), or of every project, that have no transcript under the root any more."""
    check_scope(project_path, all_projects)
    wanted = None
    if not all_projects:
        where = project_path or os.getcwd()
        found = find_project(root, where)
        wanted = found.name if found is not None else encode_project_dir(os.path.abspath(where))
    base = layout.base_dir(state_root, str(root))
    sessions = []
    for folder, names in layout.project_listings(base):
        project = os.path.basename(folder)
        if wanted is not None and project != wanted:
            continue
        live = {sid for sid, _path, _st in session_files(projects_dir(root) / project, set())}
        for name in names:
            sid = (
                session_of_name(name[: -len(layout.GZ + layout.MANIFEST)])
                if name.endswith(_TRANSCRIPT_MANIFEST)
                else None
            )
            if sid is None or sid in live:
                continue
            entry = layout.archived(base, f"{PROJECTS}/{project}/{sid}{SESSION_SUFFIX}")
            if entry is None:
                continue
            mtime = datetime.fromtimestamp(entry.source_mtime, timezone.utc) if entry.source_mtime else None
            sessions.append(ArchivedOnly(sid, project, entry.size, mtime))
    oldest = datetime.min.replace(tzinfo=timezone.utc)
    sessions.sort(key=lambda s: (s.last_written or oldest, s.session_id), reverse=True)
    return sessions
