"""An archived session, written out again: where the kit's readers find it, or where the client does.

Owns: finding archived sessions by id or id prefix; writing a session's files into a
Claude-root-shaped folder: the kit's private view (`<root's archive>/view/`), from which every
command reads a session the client deleted, or one whose transcript the client rewrote (its
earlier generations' dropped entries first, then the file as it is now: `generations`); and
`restore`, which puts them back under the Claude root for `claude --resume` (existing files
are never overwritten; restored files get the current time, so the client's clean-up, which
goes by age, does not delete them again at its next start). Standard library only.
Does not: copy into the archive (`store`) or read transcripts.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from dataclasses import dataclass

from session_kit.archive import generations, layout, store
from session_kit.base import fileio
from session_kit.base.layout import TRANSCRIPT, is_jsonl, session_of_name, where_rel
from session_kit.state.root import ensure_dir


@dataclass(frozen=True, slots=True)
class Restored:
    session_id: str
    written: tuple[str, ...]  # paths written under the Claude root
    kept: tuple[str, ...]  # paths already there, left as they were
    transcript: str | None  # the session's transcript under the Claude root
    project_dir: str | None  # the project folder the client names for the session's cwd
    earlier_entries: int = 0  # entries of the transcript only earlier generations held


@dataclass(frozen=True, slots=True)
class Materialized:
    transcript: str  # the session's transcript in the view
    earlier_entries: int  # its lines that came from earlier generations (the client dropped them)
    deleted: bool  # the client's transcript is gone: all of it came from the archive


def archived_ids(base: str, prefix: str) -> list[str]:
    """Ids of archived sessions (those with an archived transcript) starting with `prefix`."""
    suffix = layout.GZ + layout.MANIFEST
    found = set()
    for _folder, listing in layout.project_listings(base):
        for name in listing:
            if name.endswith(suffix) and name.startswith(prefix):
                session = session_of_name(name[: -len(suffix)])
                if session is not None:
                    found.add(session)
    return sorted(found)


def is_transcript(entry: layout.Archived, session_id: str) -> bool:
    place = where_rel(entry.rel)
    return place is not None and place.kind == TRANSCRIPT and place.session == session_id


def _live(claude_root: str | None, entry: layout.Archived) -> str | None:
    if claude_root is None:
        return None
    path = os.path.join(claude_root, *entry.rel.split("/"))
    return path if os.path.isfile(path) and not os.path.islink(path) else None


def _pieces(base: str, entry: layout.Archived, live: str | None) -> tuple[list[str], int]:
    """What a file reads as: (the earlier part, if any, then the file now), and the earlier
    part's line count."""
    earlier = generations.earlier_part(base, entry) if is_jsonl(entry.rel) else None
    lines = 0
    if earlier:
        with fileio.open_regular(earlier) as f:
            lines = sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))
    return ([earlier] if earlier else []) + ([live] if live else []), lines


def _chunks(base: str, entry: layout.Archived, sources: list[str], live: str | None) -> Iterator[bytes]:
    for source in sources:
        with fileio.open_regular(source) as f:
            yield from iter(lambda: f.read(1 << 20), b"")
    if live is None:
        yield from generations.original_chunks(base, entry.rel)


def materialize(base: str, session_id: str, claude_root: str | None = None) -> Materialized | None:
    """The session's files in the kit's private view, brought up to the archive (and to the
    client's files that are still there); None when the archive has no transcript of it."""
    entries = store.archived_session_files(base, session_id)
    found = None
    view = layout.view_dir(base)
    for entry in entries:
        dest = os.path.join(view, *entry.rel.split("/"))
        live = _live(claude_root, entry)
        sources, earlier = _pieces(base, entry, live)
        size = sum(os.path.getsize(s) for s in sources) + (0 if live else entry.size)
        if is_transcript(entry, session_id):
            found = Materialized(dest, earlier, live is None)
        try:
            st = os.stat(dest)
            if st.st_size == size and all(os.stat(s).st_mtime <= st.st_mtime for s in sources):
                continue
        except OSError:
            pass
        ensure_dir(os.path.dirname(dest), root=base)
        fileio.write_chunks(dest, _chunks(base, entry, sources, live))
    return found


def for_live_session(
    state_root: str, claude_root: str, transcript: str, session_id: str, *, archive_new: bool = True
) -> Materialized | None:
    """For a session whose transcript the client still has: its view when the archive holds
    history the client's file dropped (with `archive_new`, the archive is first brought up to
    the file, so a rewrite the archive has not seen yet is kept too); None when it holds none."""
    base = layout.base_dir(state_root, claude_root)
    rel = os.path.relpath(transcript, claude_root).replace(os.sep, "/")
    entry = layout.archived(base, rel)
    if entry is None:
        return None
    from session_kit.base.follow import resume, unchanged

    try:
        fd, info = fileio.open_fd(transcript)
    except OSError:
        return None
    try:
        seen = layout.checkpoint_of(layout.load_manifest(layout.member_path(base, rel)))
        rewritten_since = not unchanged(seen, info) and resume(fd, info, seen) == (0, True)
    finally:
        os.close(fd)
    if rewritten_since and archive_new:
        store.archive_paths(base, claude_root, store.session_files(claude_root, transcript))
        entry = layout.archived(base, rel)
    if entry is None or not entry.rewritten:
        return None
    return materialize(base, session_id, claude_root)


def restore(base: str, claude_root: str, session_id: str) -> Restored | None:
    """Put an archived session back under the Claude root; None when nothing is archived.
    A rewritten transcript comes back whole: its earlier generations' dropped entries first."""
    entries = store.archived_session_files(base, session_id)
    if not entries:
        return None
    written, kept = [], []
    transcript = None
    earlier_entries = 0
    now = time.time()
    for entry in entries:
        dest = os.path.join(claude_root, *entry.rel.split("/"))
        if is_transcript(entry, session_id):
            transcript = dest
        if os.path.lexists(dest):
            kept.append(dest)
            continue
        sources, earlier = _pieces(base, entry, None)
        if is_transcript(entry, session_id):
            earlier_entries = earlier
        os.makedirs(os.path.dirname(dest), mode=0o700, exist_ok=True)
        fileio.write_chunks(dest, _chunks(base, entry, sources, None))
        os.utime(dest, (now, now))
        written.append(dest)
    project = os.path.dirname(transcript) if transcript else None
    return Restored(session_id, tuple(written), tuple(kept), transcript, project, earlier_entries)
