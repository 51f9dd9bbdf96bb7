"""One file's incremental, lossless copy in the archive, and the files that make up a session.

Owns: the archive's layout (`<state>/archive/files/<path under the Claude root>.gz`, and
beside each a manifest `….gz.json`: how many bytes of the original are in, how large the
`.gz` is, and the line follower's checkpoint: `transcript.follow`); copying only the bytes
appended since the last copy, as one more gzip member (a file replaced, cut shorter or
rewritten since is copied again whole); reading the original bytes back; rewriting a copy
in place at the same length (`rewrite`: secrets scrubbed); which files
belong to a session (its transcript, its `<id>/` folder of agent logs and meta files, its
2025-layout agent logs, its plan file) and walking everything under a Claude root.
Does not: parse transcripts (a session id or slug is looked up in the raw bytes), decide when
to run (hooks, `background`, the CLI), or put files back (`view`). Standard library (and the kit's
standard-library-only `state` and `transcript.follow`) only.

Crash safety: the manifest is replaced (rename) only after the member is written, and the
next copy first cuts the `.gz` back to the size the manifest records, so a copy killed
half-way is redone, never doubled. Folders 0700, files 0600; nothing is written through a
symlink inside the state folder.
"""

from __future__ import annotations

import os
import time
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from session_kit.state import fileio
from session_kit.state.root import check_no_symlink, ensure_dir
from session_kit.transcript.follow import Checkpoint, checkpoint, resume, unchanged

ARCHIVE = "archive"
FILES = "files"
GZ = ".gz"
MANIFEST = ".json"  # beside the member file: <name>.gz.json
MAX_MANIFEST = 1 << 20  # a manifest is a few hundred bytes
CHUNK = 1 << 20
# zlib level 1 (gzip -1): transcripts are repetitive JSON; higher levels cost 3-5x the time
# for ~15% less (measured on the benchmark root).
LEVEL = 1
HEAD_BYTES = 256 * 1024  # how far into a file its session id or slug is looked for
KINDS = (".jsonl", ".meta.json")


@dataclass(frozen=True, slots=True)
class Archived:
    """One archived file, as its manifest records it."""

    rel: str  # the path under the Claude root, with `/`
    session: str | None
    size: int  # bytes of the original in the archive
    gz_size: int
    archived_at: float
    source_mtime: float

    @property
    def project(self) -> str | None:
        parts = self.rel.split("/")
        return parts[1] if len(parts) > 2 and parts[0] == "projects" else None


def archive_dir(state_root: str) -> str:
    return os.path.join(state_root, ARCHIVE)


def files_dir(state_root: str) -> str:
    return os.path.join(state_root, ARCHIVE, FILES)


def member_path(state_root: str, rel: str) -> str:
    return os.path.join(files_dir(state_root), *rel.split("/")) + GZ


def _load_manifest(path: str) -> dict | None:
    try:
        value = fileio.read_json(path + MANIFEST, MAX_MANIFEST)
    except (OSError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def _save_manifest(path: str, manifest: dict) -> None:
    # Replaced by rename, not fsync'd: a kill -9 leaves the old manifest (the member is cut back
    # to it next time); 10,000 fsyncs would cost more than the copying itself.
    fileio.write_json(path + MANIFEST, manifest, sync=False)


def _checkpoint(manifest: dict | None) -> Checkpoint | None:
    """How far the archived copy goes; a manifest written before checkpoints were kept knows
    its offset and the file's inode only."""
    if not manifest:
        return None
    found = Checkpoint.from_text(manifest.get("checkpoint"))
    if found is None and type(manifest.get("offset")) is int and type(manifest.get("ino")) is int:
        found = Checkpoint(manifest["offset"], ino=manifest["ino"])
    return found


def archive_file(state_root: str, claude_root: str, path: str, *, session: str | None = None) -> int:
    """Bring the archived copy of `path` (a file under `claude_root`) up to date; returns the
    original bytes copied this time (0: nothing new). OSError when `path` cannot be read."""
    rel = os.path.relpath(path, claude_root).replace(os.sep, "/")
    if rel.startswith("../") or rel == "..":
        raise ValueError(f"{path} is not under {claude_root}")
    gz = member_path(state_root, rel)
    src, info = fileio.open_fd(path)
    try:
        old = _load_manifest(gz)
        if unchanged(_checkpoint(old), info):  # the common case: no lock, no read
            return 0
        ensure_dir(os.path.dirname(gz), root=state_root)
        check_no_symlink(state_root, gz)
        out = os.open(gz, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
        try:
            _lock(out)
            old = _load_manifest(gz)  # again, under the lock: another copy may have run
            return _copy(src, out, info, gz, old, rel, session)
        finally:
            os.close(out)
    finally:
        os.close(src)


def _lock(fd: int) -> None:
    try:
        import fcntl
    except ImportError:  # no flock: one archiver at a time is the caller's to ensure
        return
    fcntl.flock(fd, fcntl.LOCK_EX)


def _copy(src: int, out: int, info: os.stat_result, gz: str, old: dict | None, rel: str, session: str | None) -> int:
    size = info.st_size  # bytes appended while we copy wait for the next copy
    start, gz_size = 0, 0
    if old and isinstance(old.get("gz_size"), int):
        start = resume(src, info, _checkpoint(old))[0]  # 0: replaced or rewritten since
        gz_size = old["gz_size"] if start else 0
    if old and start == size and gz_size:
        _save_manifest(gz, {**old, "checkpoint": checkpoint(src, info, start).to_text(), "mtime": info.st_mtime})
        return 0
    if old and not start:  # replaced: forget the old copy first, so a kill now leaves none
        _save_manifest(gz, {**old, "offset": 0, "gz_size": 0, "checkpoint": None, "mtime": 0.0})
    os.ftruncate(out, gz_size)  # a member a killed copy left past the manifest goes
    os.lseek(out, gz_size, os.SEEK_SET)
    packer = zlib.compressobj(LEVEL, zlib.DEFLATED, 31)
    position = start
    while position < size:
        chunk = os.pread(src, min(CHUNK, size - position), position)
        if not chunk:
            break  # cut short while we read: what we have is what the file held
        position += len(chunk)
        _write_all(out, packer.compress(chunk))
    _write_all(out, packer.flush())
    manifest = {
        "v": 1,
        "rel": rel,
        "session": session if session is not None else (old or {}).get("session"),
        "offset": position,
        "gz_size": os.lseek(out, 0, os.SEEK_CUR),
        "checkpoint": checkpoint(src, info, position).to_text(),
        "mtime": info.st_mtime if position == size else 0.0,
        "archived": time.time(),
    }
    _save_manifest(gz, manifest)
    return position - start


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


# --- reading back ----------------------------------------------------------------------------


def archived(state_root: str, rel: str) -> Archived | None:
    manifest = _load_manifest(member_path(state_root, rel))
    return _entry(manifest) if manifest else None


def _entry(manifest: dict) -> Archived | None:
    try:
        return Archived(
            rel=str(manifest["rel"]),
            session=manifest.get("session"),
            size=int(manifest["offset"]),
            gz_size=int(manifest["gz_size"]),
            archived_at=float(manifest.get("archived", 0)),
            source_mtime=float(manifest.get("mtime") or 0),
        )
    except (KeyError, TypeError, ValueError):
        return None


def original_chunks(state_root: str, rel: str) -> Iterator[bytes]:
    """The original bytes of an archived file, as archived (members up to the manifest's size)."""
    gz = member_path(state_root, rel)
    entry = archived(state_root, rel)
    if entry is None:
        raise FileNotFoundError(f"{rel} is not in the archive")
    with open(gz, "rb") as f:
        remaining = entry.gz_size
        unpacker = zlib.decompressobj(31)
        while remaining > 0:
            data = f.read(min(CHUNK, remaining))
            if not data:
                raise OSError(f"{gz}: shorter than its manifest says")
            remaining -= len(data)
            while data:
                out = unpacker.decompress(data)
                if out:
                    yield out
                if unpacker.eof:  # the next gzip member starts in what is left
                    data = unpacker.unused_data
                    unpacker = zlib.decompressobj(31)
                else:
                    data = b""


def read_original(state_root: str, rel: str) -> bytes:
    return b"".join(original_chunks(state_root, rel))


def rewrite(state_root: str, rel: str, change: Callable[[bytes], bytes]) -> bool:
    """Replace the archived copy of `rel` with `change(its original bytes)`, which must keep
    their length (secrets scrubbed in place: the manifest's offsets and checkpoint stay true,
    and the next copy goes on from where the last stopped). False when nothing changed."""
    gz = member_path(state_root, rel)
    check_no_symlink(state_root, gz)
    fd = os.open(gz, os.O_RDWR | getattr(os, "O_NOFOLLOW", 0))
    try:
        _lock(fd)  # no copy into it meanwhile
        manifest = _load_manifest(gz)
        data = read_original(state_root, rel)
        new = change(data)
        if new == data or manifest is None:
            return False
        if len(new) != len(data):
            raise ValueError(f"{rel}: a rewrite must keep the archived length")
        packer = zlib.compressobj(LEVEL, zlib.DEFLATED, 31)
        packed = packer.compress(new) + packer.flush()
        fileio.atomic_write(gz, packed, sync=False)
        _save_manifest(gz, {**manifest, "gz_size": len(packed), "rewritten": time.time()})
        return True
    finally:
        os.close(fd)


def all_archived(state_root: str) -> Iterator[Archived]:
    base = files_dir(state_root)
    for folder, _dirs, names in os.walk(base):
        for name in names:
            if name.endswith(GZ + MANIFEST):
                manifest = _load_manifest(os.path.join(folder, name[: -len(MANIFEST)]))
                entry = _entry(manifest) if manifest else None
                if entry is not None:
                    yield entry


def archived_sessions(state_root: str) -> dict[str, list[Archived]]:
    """Archived files by session id (files of no session left out)."""
    found: dict[str, list[Archived]] = {}
    for entry in all_archived(state_root):
        if entry.session:
            found.setdefault(entry.session, []).append(entry)
    return found


def archived_session_files(state_root: str, session_id: str) -> list[Archived]:
    """The archived files of one session, found through the project folders' listings: its
    transcript, its `<id>/` folder and (from the manifests of the project's agent logs) its
    2025-layout agents."""
    base = os.path.join(files_dir(state_root), "projects")
    found = []
    try:
        projects = os.listdir(base)
    except OSError:
        return []
    for project in projects:
        folder = os.path.join(base, project)
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        if f"{session_id}.jsonl{GZ}{MANIFEST}" not in names and session_id not in names:
            continue
        found.extend(entry for entry in _entries_under(folder) if entry.session == session_id)
    if found:  # its plan file, archived with it by the hooks
        plans = os.path.join(files_dir(state_root), "plans")
        found.extend(entry for entry in _entries_under(plans) if entry.session == session_id)
    return found


def _entries_under(folder: str) -> Iterator[Archived]:
    for path, _dirs, names in os.walk(folder):
        for name in names:
            if name.endswith(GZ + MANIFEST):
                manifest = _load_manifest(os.path.join(path, name[: -len(MANIFEST)]))
                entry = _entry(manifest) if manifest else None
                if entry is not None:
                    yield entry


# --- what to archive ----------------------------------------------------------------------


def _read_head(path: str) -> bytes | None:
    """A regular file's first bytes; None for anything else (a FIFO would block a plain open)."""
    try:
        return fileio.read_small(path, HEAD_BYTES)
    except OSError:
        return None


def head_field(path: str, key: bytes) -> str | None:
    """The first `"key":"value"` string in a file's head, unparsed (ids and slugs hold no escapes)."""
    head = _read_head(path)
    if head is None:
        return None
    for pattern in (b'"' + key + b'":"', b'"' + key + b'": "'):
        at = head.find(pattern)
        if at >= 0:
            start = at + len(pattern)
            end = head.find(b'"', start)
            if end > start:
                return head[start:end].decode("utf-8", "replace")
    return None


def session_files(claude_root: str, transcript: str) -> list[tuple[str, str]]:
    """(path, session id) of the files that make up the session of `transcript`: the file,
    its `<id>/` folder (agent logs, meta files, workflow runs), the project's 2025-layout agent
    logs that name it, and its plan file (`plans/<slug>.md`)."""
    session = os.path.basename(transcript)[: -len(".jsonl")] if transcript.endswith(".jsonl") else None
    session = session or head_field(transcript, b"sessionId") or ""
    project = os.path.dirname(transcript)
    found = [(transcript, session)] if os.path.isfile(transcript) else []
    for folder, _dirs, names in os.walk(os.path.join(project, session)):
        found.extend((os.path.join(folder, n), session) for n in sorted(names) if n.endswith(KINDS))
    try:
        legacy = [n for n in os.listdir(project) if n.startswith("agent-") and n.endswith(".jsonl")]
    except OSError:
        legacy = []
    for name in sorted(legacy):
        path = os.path.join(project, name)
        if head_field(path, b"sessionId") == session:
            found.append((path, session))
    slug = head_field(transcript, b"slug")
    if slug and "/" not in slug and not slug.startswith("."):
        plan = os.path.join(claude_root, "plans", slug + ".md")
        if os.path.isfile(plan):
            found.append((plan, session))
    return found


def everything(claude_root: str) -> Iterator[tuple[str, str | None]]:
    """(path, session id) of every file worth archiving under a Claude root, project by
    project: transcripts, agent logs and meta files; then the plan files (no session)."""
    projects = os.path.join(claude_root, "projects")
    try:
        folders = sorted(e.path for e in os.scandir(projects) if e.is_dir(follow_symlinks=False))
    except OSError:
        folders = []
    for project in folders:
        for folder, dirs, names in os.walk(project):
            dirs.sort()
            relative = os.path.relpath(folder, project)
            owner = None if relative == os.curdir else relative.split(os.sep)[0]
            for name in sorted(names):
                if not name.endswith(KINDS):
                    continue
                path = os.path.join(folder, name)
                if owner is not None:
                    yield path, owner
                elif name.startswith("agent-"):
                    yield path, head_field(path, b"sessionId")
                else:
                    yield path, name[: -len(".jsonl")] if name.endswith(".jsonl") else None
    plans = os.path.join(claude_root, "plans")
    try:
        names = sorted(n for n in os.listdir(plans) if n.endswith(".md"))
    except OSError:
        names = []
    for name in names:
        yield os.path.join(plans, name), None


def archive_paths(
    state_root: str,
    claude_root: str,
    files: Iterator[tuple[str, str | None]] | list[tuple[str, str | None]],
    *,
    progress: Callable[[int, int], object] | None = None,
    errors: list[str] | None = None,
) -> tuple[int, int]:
    """Archive each file; returns (files copied into, original bytes copied). A file that
    cannot be read is named in `errors` and skipped."""
    ensure_dir(files_dir(state_root), root=state_root)
    touched = copied = 0
    for path, session in files:
        try:
            added = archive_file(state_root, claude_root, path, session=session)
        except (OSError, ValueError) as exc:
            if errors is not None:
                errors.append(f"{path}: {getattr(exc, 'strerror', None) or exc}")
            continue
        if added:
            touched += 1
            copied += added
        if progress is not None:
            progress(touched, copied)
    return touched, copied
