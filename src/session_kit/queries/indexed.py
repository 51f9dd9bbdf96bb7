"""The index as the commands ask it: a search, and an export, with the index brought up to date first.

Owns: `search_history` (the indexed search: what it found, and how many files its update
read) and `export_history`. A search never waits for a long update: when more than
`INDEX_NOW_BYTES` are new (a first search, a new Claude root, an index `usage` made), or
another update is running, the index is brought up to date in the background
(`index.background`) and the search answers from the index for what it holds and scans the
rest (`queries.search`: those files' lines past what is indexed), the scan's hits after the
index's. Light to import: a search loads the index, not the archive (only
a deleted session's hit looks at the archive's listing). Does not: know the index's tables
(`index/`), decide between the index and the scan (`queries.search_engine`), or print.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from session_kit.base.layout import transcript_path, where
from session_kit.claude.paths import projects_dir
from session_kit.errors import KitError

INDEX_NOW_BYTES = 16 << 20  # what a search indexes before it answers (~0.5 s); more is indexed in the background


@dataclass(frozen=True, slots=True)
class HistoryHits:
    """What an indexed search found: the best hits, how many in all, what the update read."""

    hits: tuple[Any, ...]  # index.query.IndexedHit
    total: int
    updated_files: int
    fts: bool
    kit_hits: int = 0  # of the kit's own echoes: in `total` and `hits` only when asked for
    scanned_files: int = 0  # files not indexed to their end yet, scanned instead (their new lines)

    def as_dict(self) -> dict[str, Any]:
        return {
            "total": self.total,
            "kit_hits": self.kit_hits,
            "updated_files": self.updated_files,
            "scanned_files": self.scanned_files,
            "fts": self.fts,
            "hits": [h.as_dict() for h in self.hits],
        }


def search_history(
    text: str,
    claude_root: Path,
    state_root: str,
    filters: Any = None,
    *,
    limit: int | None = 20,
    refresh: bool = True,
    fts: bool | None = None,
) -> HistoryHits:
    """Search the index, brought up to date first (only files that changed are read; when
    that is much, in the background, and those files are scanned meanwhile).
    `fts=False` makes a new index without FTS5 (as where SQLite lacks it)."""
    from session_kit.index import db
    from session_kit.index.query import Filters, search_index
    from session_kit.index.update import update, usage_only

    filters = filters or Filters()
    build = []  # whether the index is to be brought up to date in the background

    def work(conn: Any) -> HistoryHits:
        live = refresh and projects_dir(claude_root).is_dir()

        def bring_up(within: int) -> Any:
            if live:
                return update(conn, claude_root, state_root=state_root, within=within)
            # files read for their usage alone get their texts: a search never misses them
            return update(conn, claude_root, files=usage_only(conn), within=within)

        result = bring_up(INDEX_NOW_BYTES)
        if result.pending and not result.running:
            build.append(True)
        # What is behind and what the index holds, read in one snapshot: an update elsewhere
        # commits meanwhile, and a file both scanned and found in its new rows counted every
        # hit twice.
        with db.snapshot(conn):
            return answer(conn, replace(result, pending=bring_up(-1).pending) if result.pending else result)

    def answer(conn: Any, result: Any) -> HistoryHits:
        try:
            from session_kit.archive import layout

            archive = layout.base_dir(state_root, str(claude_root))
            hits, total, echoes = search_index(conn, text, filters, limit=limit, archive=archive)
        except ValueError as exc:
            raise KitError(str(exc)) from None
        if result.pending:
            found, kit = _scanned(result.pending, text, filters)
            echoes += len(kit)
            found += kit if filters.kit else []
            total += len(found)
            hits = (hits + found)[:limit] if limit is not None else hits + found
        return HistoryHits(tuple(hits), total, result.files, db.has_fts(conn), echoes, len(result.pending))

    found = db.use(state_root, work, fts=fts, claude_root=claude_root)
    if build:
        # Forked only once the index is closed here: a child forked while this process holds an
        # SQLite connection to the same file shares its locks' bookkeeping, and what the child
        # writes can be lost (SQLite: never carry an open connection across a fork).
        from session_kit.index.background import build_in_background
        from session_kit.state.root import log

        build_in_background(state_root, str(claude_root), log=lambda line: log(state_root, line))
    return found


def _scanned(pending: tuple, text: str, filters: Any) -> tuple[list[Any], list[Any]]:
    """The hits (and the kit's own echoes) of an exact scan of the lines not indexed yet, as
    index hits: the filters a scan can tell applied (a tool output's status it cannot: with
    `--errors` it gives none)."""
    from session_kit.index.query import IndexedHit, resume_command
    from session_kit.queries.history import session_cwd
    from session_kit.queries.search import Query, SearchTarget, search
    from session_kit.transcript.entries import format_timestamp

    if filters.errors_only:
        return [], []
    targets, done, items = [], {}, {}
    for item, lines in pending:
        if filters.project and item.project != filters.project:
            continue
        if filters.agent and not (item.agent or "").startswith(filters.agent):
            continue
        targets.append(SearchTarget(Path(item.path), item.session, item.agent))
        done[item.path], items[item.path] = lines, item
    found: list[Any] = []
    kit: list[Any] = []
    resumes: dict[str, tuple[str, str]] = {}
    for hit in search(targets, Query(text), tool=filters.tool):
        path = str(hit.path)
        stamp = format_timestamp(hit.timestamp)
        if hit.line <= done[path] or (filters.since and (stamp or "") < filters.since):
            continue
        if filters.until and (stamp is None or stamp >= filters.until):
            continue
        item = items[path]
        if hit.session_id not in resumes:
            transcript = _transcript_of(item)
            exists = Path(transcript).is_file()
            cwd = session_cwd(transcript) if exists else None
            resumes[hit.session_id] = (transcript, resume_command(hit.session_id, cwd, not exists))
        transcript, resume = resumes[hit.session_id]
        where, tool = hit.where, hit.tool
        (kit if hit.kit else found).append(
            IndexedHit(
                hit.session_id,
                hit.agent_id,
                item.project,
                transcript,
                hit.line,
                stamp,
                where,
                tool,
                None,
                hit.snippet,
                None,
                False,
                hit.kit,
                resume,
            )  # fmt: skip
        )
    return found, kit


def _transcript_of(item: Any) -> str:
    """The session's transcript: the file itself, or the one beside an agent log's session
    folder (`<id>/subagents/…`), or beside a 2025-layout agent log."""
    if item.agent is None:
        return item.original or item.path
    place = where(item.path)
    if place is None:  # not under a projects folder: beside it
        return transcript_path(os.path.dirname(item.path), item.session)
    return transcript_path(place.project_dir, item.session)


def export_history(
    claude_root: Path, state_root: str, folder: str, *, source: str, fmt: str = "jsonl"
) -> dict[str, int]:
    """The index, brought up to date, written as one file per table into `folder`."""
    from session_kit.index import db
    from session_kit.index.export import export_tables
    from session_kit.index.update import update

    def work(conn: Any) -> dict[str, int]:
        if projects_dir(claude_root).is_dir():
            update(conn, claude_root, state_root=state_root)
        try:
            with db.snapshot(conn):  # every table of one state of the index
                return export_tables(conn, folder, source=source, fmt=fmt)
        except (ImportError, ValueError) as exc:
            raise KitError(str(exc)) from None

    return db.use(state_root, work, claude_root=claude_root)
