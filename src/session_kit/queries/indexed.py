"""The index as the commands ask it: a search, and an export, with the index brought up to date first.

Owns: `search_history` (the indexed search: what it found, and how many files its update
read) and `export_history`. Light to import: a search loads the index, not the archive (only
a deleted session's hit looks at the archive's listing). Does not: know the index's tables
(`index/`), decide between the index and the scan (`queries.search_engine`), or print.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from session_kit.errors import KitError


@dataclass(frozen=True, slots=True)
class HistoryHits:
    """What an indexed search found: the best hits, how many in all, what the update read."""

    hits: tuple[Any, ...]  # index.query.IndexedHit
    total: int
    updated_files: int
    fts: bool
    kit_hits: int = 0  # of the kit's own echoes: in `total` and `hits` only when asked for

    def as_dict(self) -> dict[str, Any]:
        return {
            "total": self.total,
            "kit_hits": self.kit_hits,
            "updated_files": self.updated_files,
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
    """Search the index, brought up to date first (only files that changed are read).
    `fts=False` makes a new index without FTS5 (as where SQLite lacks it)."""
    from session_kit.index import db
    from session_kit.index.query import Filters, search_index

    def work(conn: Any) -> HistoryHits:
        updated = 0
        if refresh and (claude_root / "projects").is_dir():
            from session_kit.index.update import update

            updated = update(conn, claude_root, state_root=state_root).files
        else:  # files read for their usage alone get their texts: a search never misses them
            from session_kit.index.update import update, usage_only

            updated = update(conn, claude_root, files=usage_only(conn)).files
        try:
            from session_kit.archive import layout

            archive = layout.base_dir(state_root, str(claude_root))
            hits, total, echoes = search_index(conn, text, filters or Filters(), limit=limit, archive=archive)
        except ValueError as exc:
            raise KitError(str(exc)) from None
        return HistoryHits(tuple(hits), total, updated, db.has_fts(conn), echoes)

    return db.use(state_root, work, fts=fts, claude_root=claude_root)


def export_history(
    claude_root: Path, state_root: str, folder: str, *, source: str, fmt: str = "jsonl"
) -> dict[str, int]:
    """The index, brought up to date, written as one file per table into `folder`."""
    from session_kit.index import db
    from session_kit.index.export import export_tables
    from session_kit.index.update import update

    def work(conn: Any) -> dict[str, int]:
        if (claude_root / "projects").is_dir():
            update(conn, claude_root, state_root=state_root)
        try:
            return export_tables(conn, folder, source=source, fmt=fmt)
        except (ImportError, ValueError) as exc:
            raise KitError(str(exc)) from None

    return db.use(state_root, work, claude_root=claude_root)
