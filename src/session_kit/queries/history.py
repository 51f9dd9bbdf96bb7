"""The archive as the commands see it: archiving everything, restoring, and its health.

Owns: `archive` over a whole Claude root (with progress, pruning by the user's retention,
which drops only that root's archived sessions, and `--verify`), `restore` of one session, the archive part of `doctor` (the client's effective
`cleanupPeriodDays`, the archive's size, what is not archived yet and what will age out
unarchived). Does not: search or export the index (`queries.indexed`), copy bytes or know the archive's layout (`archive.store`, `archive.view`),
know the index's tables (`index/`), or print.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from session_kit.archive import catalogue, layout, store, verify, view
from session_kit.archive.settings import archive_settings
from session_kit.claude.paths import projects_dir
from session_kit.claude.settings import SCOPE_LOCAL, SCOPE_PROJECT, SCOPE_USER, read_setting, settings_path
from session_kit.errors import KitError, NotFound
from session_kit.sessions.store import require_claude_root
from session_kit.state.ids import is_plain_id

CLEANUP_DEFAULT_DAYS = 30  # the client's default `cleanupPeriodDays`
WARN_MARGIN_DAYS = 7  # warn this long before a session ages out


@dataclass(frozen=True, slots=True)
class ArchiveRun:
    files: int  # files copied into (new or grown)
    bytes: int  # original bytes copied
    errors: tuple[str, ...]
    pruned: int  # archived sessions dropped by the retention settings

    def as_dict(self) -> dict[str, Any]:
        return {"files": self.files, "bytes": self.bytes, "errors": list(self.errors), "pruned": self.pruned}


def archive_all(
    claude_root: Path, state_root: str, *, progress: Callable[[int, int], object] | None = None, prune: bool = False
) -> ArchiveRun:
    """Archive every session file under the Claude root (only what was added since last time)."""
    require_claude_root(claude_root)
    errors: list[str] = []
    base = layout.base_dir(state_root, str(claude_root), create=True)
    files, copied = catalogue.archive_everything(base, str(claude_root), progress=progress, errors=errors)
    pruned = prune_archive(claude_root, state_root) if prune else 0
    return ArchiveRun(files, copied, tuple(errors), pruned)


def verify_archive(claude_root: Path, state_root: str) -> verify.Verified:
    """Every generation archived from this Claude root read back against its manifest's size
    and checksum, and every file of the root archived. Run after `archive_all`."""
    base = layout.base_dir(state_root, str(claude_root))
    root = str(claude_root) if projects_dir(claude_root).is_dir() else None
    return verify.verify(base, root)


def prune_archive(claude_root: Path, state_root: str) -> int:
    """Drop this Claude root's archived sessions the retention settings let go: only those the
    client no longer has, older than `keep_days`, then the oldest while the root's archive is
    over `max_mb`. Other roots' archives are never touched."""
    settings = archive_settings(state_root)
    if not settings.keep_days and not settings.max_mb:
        return 0
    base = layout.base_dir(state_root, str(claude_root))
    gone = []
    total = 0
    for session, entries in store.archived_sessions(base).items():
        total += sum(g.gz_size for e in entries for g in e.generations)
        if not any((claude_root / e.rel).exists() for e in entries):
            gone.append((max(e.archived_at for e in entries), session, entries))
    gone.sort()
    now = time.time()
    dropped = 0
    for archived_at, _session, entries in gone:
        old = settings.keep_days and now - archived_at > settings.keep_days * 86400
        big = settings.max_mb and total > settings.max_mb * 1024 * 1024
        if not (old or big):
            continue
        with layout.locked(base):  # no copy or scrub into a member being removed
            for entry in entries:
                member = layout.member_path(base, entry.rel)
                paths = [g.member for g in entry.generations if g.number]
                paths += [layout.earlier_path(base, entry.rel), member + layout.MANIFEST, member]
                for path in paths:  # the manifest first: a copy after it starts the file afresh
                    try:
                        os.unlink(path)
                    except FileNotFoundError:
                        pass
                total -= sum(g.gz_size for g in entry.generations)
        dropped += 1
    return dropped


def restore_session(session: str, claude_root: Path, state_root: str) -> view.Restored:
    """Put an archived session (id or unique prefix) back where `claude --resume` finds it."""
    if not is_plain_id(session):
        raise KitError(f"not a session id or prefix: {session!r}")
    base = layout.base_dir(state_root, str(claude_root))
    ids = view.archived_ids(base, session)
    if session in ids:
        ids = [session]
    if not ids:
        raise NotFound(
            f"no archived session matches {session!r} (run `session-kit archive` to archive what is on disk)"
        )
    if len(ids) > 1:
        from session_kit.errors import Ambiguous

        raise Ambiguous(f"{session!r} matches {len(ids)} archived sessions: {', '.join(ids[:10])}", ids)
    restored = view.restore(base, str(claude_root), ids[0])
    if restored is None:
        raise NotFound(f"no archived files of session {ids[0]}")
    return restored


def cleanup_period_days(claude_root: Path, project: Path) -> tuple[float, str]:
    """The client's effective `cleanupPeriodDays` and the file it came from ("default")."""
    for scope in (SCOPE_LOCAL, SCOPE_PROJECT, SCOPE_USER):
        path = settings_path(scope, claude_root, project)
        value = read_setting(path, "cleanupPeriodDays")
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value), str(path)
    return float(CLEANUP_DEFAULT_DAYS), "default"


def archive_status(claude_root: Path, state_root: str, project: Path) -> dict[str, Any]:
    """What `doctor` says of the archive."""
    days, source = cleanup_period_days(claude_root, project)
    settings = archive_settings(state_root)
    size = files = 0
    archived: dict[str, int] = {}
    base = layout.base_dir(state_root, str(claude_root))
    for entry in store.all_archived(base):
        size += sum(g.gz_size for g in entry.generations)
        files += 1
        archived[entry.rel] = entry.size
    pending = pending_bytes = at_risk = 0
    now = time.time()
    for path, _session in store.everything(str(claude_root), base):
        try:
            info = os.stat(path)
        except OSError:
            continue
        rel = os.path.relpath(path, claude_root).replace(os.sep, "/")
        missing = info.st_size - archived[rel] if rel in archived else max(info.st_size, 1)
        if missing > 0:
            pending += 1
            pending_bytes += missing
            if now - info.st_mtime > (days - WARN_MARGIN_DAYS) * 86400:
                at_risk += 1
    return {
        "dir": base,
        "enabled": settings.enabled,
        "bytes": size,
        "files": files,
        "not_archived_files": pending,
        "not_archived_bytes": pending_bytes,
        "aging_out_unarchived": at_risk,
        "cleanup_period_days": days,
        "cleanup_period_source": source,
    }


def session_cwd(transcript: str | os.PathLike[str]) -> str | None:
    """The folder a session ran in (its entries' `cwd`): where `claude --resume` finds it."""
    from session_kit.base.headfield import head_field

    return head_field(os.fspath(transcript), b"cwd")
