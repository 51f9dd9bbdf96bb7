"""What the last full run left archived, so a run with nothing new stats files and opens none.

Owns: `<base>/catalogue.json` (`layout.CATALOGUE`): for each file a run left up to date, what
its manifest's checkpoint says of it (inode, device, size, mtime in ns) and its session; and
for each folder of the archive holding such manifests, that folder's mtime when the catalogue
was written. `archive_everything`: `store.archive_paths` over `store.everything`, asking the
catalogue first.

A file is passed over, unopened, only when both hold:
- its `stat` equals the entry: the test `follow.unchanged` makes against the manifest's own
  checkpoint, so the guarantee is the one `archive_file` gives: a change to the file's inode,
  device, size or mtime (a rewrite in place at the same size with its mtime set back to any
  other time included) is always seen; one that keeps all four exactly as they were is not,
  with or without the catalogue;
- the archive folder holding its manifest still has the mtime recorded: a manifest written
  there since (a hook's copy, another run, a scrub) or removed (`--prune`, by hand) is
  replaced or unlinked in that folder, which changes its mtime, and the manifests of that
  folder are then read as before.
Anything else (no catalogue, a damaged one, a file not in it) goes through `archive_file` as
if there were none. Manifests stay the truth: the catalogue is written after them, and a
killed run leaves the previous one, whose folders' mtimes no longer match where it changed
anything. Standard library only.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from session_kit.archive import layout, store
from session_kit.base import fileio
from session_kit.base.follow import stamp
from session_kit.base.timestamps import mtime_ns
from session_kit.state.root import ensure_dir

VERSION = 1
MAX_BYTES = 256 << 20  # ~150 bytes a file: far more files than any Claude root holds

Entry = tuple[int, int, int, int, "str | None"]  # inode, device, size, mtime (ns), session


class Catalogue:
    """The catalogue as read (`load`), the folders found unchanged, and the next one."""

    def __init__(self, base: str, files: dict[str, list], folders: dict[str, int]) -> None:
        self.base = base
        self.files = files
        self.folders = folders
        self._fresh: dict[str, bool] = {}
        self.next: dict[str, Entry] = {}

    @classmethod
    def load(cls, base: str) -> Catalogue:
        try:
            value = fileio.read_json(os.path.join(base, layout.CATALOGUE), MAX_BYTES)
        except (OSError, ValueError):
            value = None
        if not isinstance(value, dict) or value.get("v") != VERSION:
            return cls(base, {}, {})
        files, folders = value.get("files"), value.get("folders")
        return cls(base, files if isinstance(files, dict) else {}, folders if isinstance(folders, dict) else {})

    def _folder_fresh(self, folder: str) -> bool:
        fresh = self._fresh.get(folder)
        if fresh is None:
            try:
                mtime = mtime_ns(os.stat(os.path.join(layout.files_dir(self.base), folder)))
            except OSError:
                mtime = None
            fresh = self._fresh[folder] = mtime is not None and self.folders.get(folder) == mtime
        return fresh

    def unchanged(self, rel: str, st: os.stat_result) -> Entry | None:
        """The entry of `rel` when the file and its manifest are as the catalogue says."""
        entry = self.files.get(rel)
        if (
            type(entry) is list
            and len(entry) == 5
            and tuple(entry[:4]) == stamp(st)
            and self._folder_fresh(rel.rpartition("/")[0])
        ):
            return entry[0], entry[1], entry[2], entry[3], entry[4]
        return None

    def note(self, rel: str) -> None:
        """Keep what the manifest of `rel`, just brought up to date, says (when whole)."""
        manifest = layout.load_manifest(layout.member_path(self.base, rel))
        found = layout.checkpoint_of(manifest)
        if found is not None and found.ino and found.offset == found.size and manifest is not None:
            session = manifest.get("session")
            self.next[rel] = (
                found.ino,
                found.dev,
                found.size,
                found.mtime_ns,
                session if isinstance(session, str) else None,
            )

    def save(self) -> None:
        """Write the next catalogue when it differs from the one read (folders' mtimes taken now)."""
        if (
            self.next.keys() == self.files.keys()
            and all(list(entry) == self.files[rel] for rel, entry in self.next.items())
            and all(self._fresh.get(rel.rpartition("/")[0]) for rel in self.next)
        ):
            return
        folders: dict[str, int] = {}
        files_dir = layout.files_dir(self.base)
        for rel in self.next:
            folder = rel.rpartition("/")[0]
            if folder not in folders:
                try:
                    folders[folder] = mtime_ns(os.stat(os.path.join(files_dir, folder)))
                except OSError:
                    continue
        files = {rel: list(entry) for rel, entry in self.next.items() if rel.rpartition("/")[0] in folders}
        try:
            fileio.write_json(
                os.path.join(self.base, layout.CATALOGUE),
                {"v": VERSION, "folders": folders, "files": files},
                sync=False,
            )
        except OSError:
            pass  # the next run reads the manifests, as without a catalogue


def archive_everything(
    base: str,
    claude_root: str,
    *,
    progress: Callable[[int, int], object] | None = None,
    errors: list[str] | None = None,
) -> tuple[int, int]:
    """`store.archive_paths` of `store.everything`: (files copied into, original bytes copied),
    the files the catalogue knows unchanged passed over without being opened."""
    ensure_dir(layout.files_dir(base), root=base)
    catalogue = Catalogue.load(base)
    stats: dict[str, os.stat_result | None] = {}

    prefix = os.path.join(claude_root, "")

    def rel_of(path: str) -> str:  # `everything` joins its paths onto `claude_root`
        rel = path[len(prefix) :] if path.startswith(prefix) else os.path.relpath(path, claude_root)
        return rel.replace(os.sep, "/") if os.sep != "/" else rel

    def stat_of(path: str) -> os.stat_result | None:
        if path in stats:
            return stats.pop(path)
        try:
            return os.stat(path)
        except (OSError, ValueError):
            return None

    def known(path: str) -> str | None:
        st = stat_of(path)
        stats[path] = st
        entry = catalogue.unchanged(rel_of(path), st) if st is not None else None
        return (entry[4] or "") if entry is not None else None

    touched = copied = 0
    made: set[str] = set()
    for path, session in store.everything(claude_root, base, known):
        rel = rel_of(path)
        st = stat_of(path)
        entry = catalogue.unchanged(rel, st) if st is not None else None
        if entry is not None and (session is None or entry[4] == session):
            catalogue.next[rel] = entry
            continue
        try:
            added = store.archive_file(base, claude_root, path, session=session, made=made)
        except (OSError, ValueError) as exc:
            if errors is not None:
                errors.append(f"{path}: {getattr(exc, 'strerror', None) or exc}")
            continue
        catalogue.note(rel)
        if added:
            touched += 1
            copied += added
        if progress is not None:
            progress(touched, copied)
    catalogue.save()
    return touched, copied
