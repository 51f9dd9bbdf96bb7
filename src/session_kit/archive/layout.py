"""Where the archive keeps one Claude root's files, and what a manifest records.

Owns: the archive's folders: one per Claude root, side by side
(`<state>/archive/roots/<key>/`, `key` readable from the root's path plus its CRC-32, and
`root.txt` inside naming the root), each holding `files/` (the copies), `view/` (sessions
written out for the readers, a cache), `earlier/` (per rewritten file, the entries its
earlier generations hold that the newest dropped) and `catalogue.json` (what the last full
run left archived: `catalogue`); moving an archive made before archives were
keyed by root (`<state>/archive/files/`) under the first root that opens the archive; a file's
member paths (generation 0: `<rel>.gz`, generation n: `<rel>.gz.<n>`, so no two files' names
meet) and its manifest (`<rel>.gz.json`): the generations closed by a rewrite (`gens`: each
one's member, original size, gzip size and CRC-32) and the open one (`gen`, `offset`,
`gz_size`, `crc`, the follower's `checkpoint`), and which generation the earlier part was
written against (`earlier`); how far a manifest says the copy goes (`checkpoint_of`); the
archive's one lock (`locked`: `<key>/archive.lock`, a file never replaced, which every writer
holds while it changes a member, a manifest or an earlier part, and a reader that checks
members against their manifest holds shared).
Does not: copy bytes (`store`), read them back (`members`, `generations`). Standard library only.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from session_kit.base import fileio
from session_kit.base.follow import Checkpoint
from session_kit.base.layout import PROJECTS, where_rel
from session_kit.state.root import archive_root, ensure_dir

ROOTS = "roots"
FILES = "files"
VIEW = "view"
EARLIER = "earlier"
ROOT_NAME = "root.txt"
CATALOGUE = "catalogue.json"
LOCK = "archive.lock"
GZ = ".gz"
MANIFEST = ".json"  # beside the member file: <name>.gz.json
MAX_MANIFEST = 1 << 20  # a manifest is a few hundred bytes (and 150 more per generation)
VERSION = 2


@dataclass(frozen=True, slots=True)
class Generation:
    """One generation of an archived file: what one version of it held, whole."""

    number: int
    member: str  # the member file's path
    size: int  # bytes of the original
    gz_size: int
    crc: int | None  # CRC-32 of the original bytes (None: archived before checksums were kept)


@dataclass(frozen=True, slots=True)
class Archived:
    """One archived file, as its manifest records it (`size`, `gz_size`: its newest generation)."""

    rel: str  # the path under the Claude root, with `/`
    session: str | None
    size: int
    gz_size: int
    archived_at: float
    source_mtime: float
    generations: tuple[Generation, ...] = ()  # oldest first; the last is the open one
    earlier: int = -1  # the generation the earlier part was last written against

    @property
    def project(self) -> str | None:
        place = where_rel(self.rel)
        return place.project if place is not None else None

    @property
    def rewritten(self) -> bool:
        """The client rewrote or replaced the file at least once since it was first archived."""
        return len(self.generations) > 1


def archive_dir(state_root: str) -> str:
    return archive_root(state_root)


def root_key(claude_root: str) -> str:
    path = os.path.abspath(claude_root)
    readable = "".join(c if c.isalnum() else "-" for c in path)[-40:].strip("-") or "root"
    return f"{readable}-{zlib.crc32(path.encode('utf-8', 'surrogateescape')):08x}"


def base_dir(state_root: str, claude_root: str, *, create: bool = False) -> str:
    """The archive of one Claude root. An archive from before archives were keyed by root is
    moved here by the first root that asks (it was, almost always, the one root in use)."""
    base = os.path.join(archive_dir(state_root), ROOTS, root_key(claude_root))
    legacy = os.path.join(archive_dir(state_root), FILES)
    if os.path.isdir(legacy) and not os.path.lexists(os.path.join(base, FILES)):
        ensure_dir(base, root=state_root)
        try:
            fileio.replace(legacy, os.path.join(base, FILES))  # a folder: never removed on a failure
        except OSError:
            pass  # another process moved it first
        import shutil  # here: a read command never pays for it (it loads bz2 and lzma)

        shutil.rmtree(os.path.join(archive_dir(state_root), VIEW), ignore_errors=True)  # a cache
        create = True
    if create:
        ensure_dir(os.path.join(base, FILES), root=state_root)
        name = os.path.join(base, ROOT_NAME)
        if not os.path.exists(name):
            fileio.atomic_write(
                name, os.path.abspath(claude_root).encode("utf-8", "surrogateescape") + b"\n", sync=False
            )
    return base


def all_bases(state_root: str) -> list[tuple[str, str | None]]:
    """(archive folder, the Claude root it is of) of every root archived."""
    folder = os.path.join(archive_dir(state_root), ROOTS)
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    found = []
    for name in names:
        base = os.path.join(folder, name)
        try:
            root = fileio.read_small(os.path.join(base, ROOT_NAME), 1 << 16).decode("utf-8", "surrogateescape").strip()
        except OSError:
            root = None
        found.append((base, root or None))
    return found


@contextmanager
def locked(base: str, *, shared: bool = False) -> Iterator[None]:
    """Hold the archive's lock. It is a file of its own that nothing replaces or removes: a lock
    on a member was lost when a rewrite replaced that member (a copy waiting on it appended to
    the orphaned file). Whoever holds it loads the manifest and opens the members only once it
    holds it. Not re-entrant: a holder never asks for it again. Without `fcntl`, or when a
    reader cannot create the file, nothing is locked."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    path = os.path.join(base, LOCK)
    try:
        fd = fileio.open_fd(path, flags=os.O_RDWR | os.O_CREAT | fileio.NOFOLLOW)[0]
    except OSError:
        if not shared:
            raise
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_SH if shared else fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # the lock goes with the descriptor


def files_dir(base: str) -> str:
    return os.path.join(base, FILES)


def view_dir(base: str) -> str:
    return os.path.join(base, VIEW)


def earlier_path(base: str, rel: str) -> str:
    return os.path.join(base, EARLIER, *rel.split("/"))


def member_path(base: str, rel: str, generation: int = 0) -> str:
    path = os.path.join(files_dir(base), *rel.split("/")) + GZ
    return path if not generation else f"{path}.{generation}"


def load_manifest(member: str) -> dict | None:
    try:
        value = fileio.read_json(member + MANIFEST, MAX_MANIFEST)
    except (OSError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def save_manifest(member: str, manifest: dict) -> None:
    # Replaced by rename, not fsync'd: a kill -9 leaves the old manifest (the member is cut back
    # to it next time); 10,000 fsyncs would cost more than the copying itself.
    fileio.write_json(member + MANIFEST, manifest, sync=False)


def checkpoint_of(manifest: dict | None) -> Checkpoint | None:
    """How far the archived copy goes; a manifest written before checkpoints were kept knows
    its offset and the file's inode only."""
    if not manifest:
        return None
    found = Checkpoint.from_text(manifest.get("checkpoint"))
    if found is None and type(manifest.get("offset")) is int and type(manifest.get("ino")) is int:
        found = Checkpoint(manifest["offset"], ino=manifest["ino"])
    return found


def entry_of(base: str, manifest: dict) -> Archived | None:
    try:
        rel = str(manifest["rel"])
        generations = [
            Generation(
                int(g["gen"]), member_path(base, rel, int(g["gen"])), int(g["size"]), int(g["gz_size"]), g.get("crc")
            )
            for g in manifest.get("gens") or ()
        ]
        number = int(manifest.get("gen") or 0)
        crc = manifest.get("crc")
        generations.append(
            Generation(
                number,
                member_path(base, rel, number),
                int(manifest["offset"]),
                int(manifest["gz_size"]),
                crc if isinstance(crc, int) else None,
            )
        )
        return Archived(
            rel=rel,
            session=manifest.get("session"),
            size=int(manifest["offset"]),
            gz_size=int(manifest["gz_size"]),
            archived_at=float(manifest.get("archived", 0)),
            source_mtime=float(manifest.get("mtime") or 0),
            generations=tuple(generations),
            earlier=manifest["earlier"] if type(manifest.get("earlier")) is int else -1,
        )
    except (KeyError, TypeError, ValueError):
        return None


def archived(base: str, rel: str) -> Archived | None:
    manifest = load_manifest(member_path(base, rel))
    return entry_of(base, manifest) if manifest else None


def entries_under(base: str, folder: str) -> list[Archived]:
    found = []
    for path, dirs, names in os.walk(folder):
        dirs.sort()
        for name in sorted(names):
            if name.endswith(GZ + MANIFEST):
                manifest = load_manifest(os.path.join(path, name[: -len(MANIFEST)]))
                entry = entry_of(base, manifest) if manifest else None
                if entry is not None:
                    found.append(entry)
    return found


def project_listings(base: str):
    """(folder, the names in it) of each archived project folder (`files/projects/<project>/`)."""
    projects = os.path.join(files_dir(base), PROJECTS)
    try:
        names = os.listdir(projects)
    except OSError:
        return
    for project in names:
        folder = os.path.join(projects, project)
        try:
            yield folder, os.listdir(folder)
        except OSError:
            continue


def earlier_parts(base: str):
    """(rel, path) of each rewritten file's earlier part (`earlier/`), in a stable order."""
    earlier = os.path.join(base, EARLIER)
    for folder, dirs, names in os.walk(earlier):
        dirs.sort()
        for name in sorted(names):
            path = os.path.join(folder, name)
            yield os.path.relpath(path, earlier).replace(os.sep, "/"), path
