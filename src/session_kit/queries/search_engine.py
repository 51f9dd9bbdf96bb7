"""Which engine answers a search, and over which sessions.

Owns: the choice between the index (`queries.indexed.search_history`: words, ranked, with
filters) and the exact scan (`queries.search`: any substring, every transcript read), what
only the index allows (its filters), the checks of a query and of its scope, and what each
engine looks at: the scan's files, the index's project. Does not: search, know the index's
tables, or print.
"""

from __future__ import annotations

import os
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from session_kit.errors import KitError
from session_kit.redaction.engine import redaction_enabled
from session_kit.sessions.store import check_scope, projects_in_scope, require_claude_root, sessions_in_scope

if TYPE_CHECKING:
    from collections.abc import Callable

    from session_kit.queries.search import SearchHit, SearchTarget

INDEX = "index"
SCAN = "scan"
INDEX_ONLY = "--errors, --since, --until and --agent need the index (drop --scan and --no-redact)"


def search_engine(
    query: str,
    *,
    scan: bool = False,
    project_path: str | os.PathLike[str] | None = None,
    all_projects: bool = False,
    errors_only: bool = False,
    since: str | date | datetime | None = None,
    until: str | date | datetime | None = None,
    agent: str | None = None,
) -> str:
    """`INDEX` or `SCAN`: the scan when asked for, when secrets are shown (the index holds only
    redacted text) or when the query has no word (the index holds words). A KitError for both a
    project and every one, an empty query, or the index's filters on the scan."""
    check_scope(project_path, all_projects)
    if not query.strip():
        raise KitError("empty query")
    if scan or not redaction_enabled() or not any(c.isalnum() for c in query):
        if errors_only or since or until or agent:
            raise KitError(INDEX_ONLY)
        return SCAN
    return INDEX


def scan_targets(
    root: Path, *, project_path: str | os.PathLike[str] | None = None, all_projects: bool = False
) -> list[SearchTarget]:
    """The files the scan reads: the scope's sessions, each with its agents' logs, then the
    agent logs of the scope's projects whose session file is gone."""
    from session_kit.queries.search import session_targets  # the scan's reader: only the scan loads it

    refs = sessions_in_scope(root, project_path=project_path, all_projects=all_projects)
    projects = projects_in_scope(root, project_path=project_path, all_projects=all_projects)
    return list(session_targets(refs, orphans_of=projects))


def index_project(
    root: Path, *, project_path: str | os.PathLike[str] | None = None, all_projects: bool = False
) -> str | None:
    """The project folder's name the index's search keeps to (None: every project); NotFound or
    NoSessionsHere, as the listing says, when the folder has no project under `root`."""
    check_scope(project_path, all_projects)
    require_claude_root(root)
    if all_projects:
        return None
    projects = projects_in_scope(root, project_path=project_path)
    if not projects:
        sessions_in_scope(root, project_path=project_path)  # raises, saying why as the listing does
    return projects[0].name if projects else None


def iso_moment(value: str | None) -> str | None:
    """A search's since or until (a date or an ISO time) as the index compares it: ISO text,
    naive times as written; ValueError for anything else."""
    if value is None:
        return None
    parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    return parsed.strftime("%Y-%m-%dT%H:%M:%S") if parsed.tzinfo is None else parsed.isoformat()


def scan_hits(
    targets: list[SearchTarget],
    text: str,
    *,
    tool: str | None = None,
    limit: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[list[SearchHit], list[SearchHit]]:
    """The scan's hits, and apart from them the kit's own echoes (`transcript.kit_echoes`),
    up to `limit` hits (the echoes found by then come too)."""
    from session_kit.queries.search import Query, search  # the scan's reader: only the scan loads it

    hits: list[SearchHit] = []
    echoes: list[SearchHit] = []
    for hit in search(targets, Query(text), tool=tool, progress=progress, limit=limit):
        (echoes if hit.kit else hits).append(hit)
        if limit is not None and len(hits) >= limit:
            break
    return hits, echoes
