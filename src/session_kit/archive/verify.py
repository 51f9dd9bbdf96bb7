"""Checking every archived byte against its manifest (`archive --verify`).

Owns: `verify`: every generation decompresses to the size and CRC-32 its manifest records,
and, given the Claude root, every file worth archiving there is archived and unchanged since.
Does not: copy (`store`), read a generation for a reader (`generations`) or repair anything:
it reports. Standard library only.
"""

from __future__ import annotations

import os
import zlib
from dataclasses import dataclass

from session_kit.archive import layout, store
from session_kit.archive.layout import Generation
from session_kit.archive.members import member_chunks
from session_kit.base import fileio
from session_kit.base.follow import resume


@dataclass(frozen=True, slots=True)
class Verified:
    files: int  # archived files checked
    generations: int
    bytes: int  # original bytes read back
    problems: tuple[str, ...]  # one line each; none: every byte is there

    def as_dict(self) -> dict:
        return {
            "files": self.files,
            "generations": self.generations,
            "bytes": self.bytes,
            "problems": list(self.problems),
        }


def check_generation(generation: Generation) -> tuple[int, str | None]:
    """(bytes read back, what is wrong or None)."""
    size = crc = 0
    try:
        for chunk in member_chunks(generation.member, generation.gz_size):
            size += len(chunk)
            crc = zlib.crc32(chunk, crc)
    except OSError as exc:
        return size, f"cannot be read back ({exc})"
    if size != generation.size:
        return size, f"holds {size} bytes, its manifest says {generation.size}"
    if generation.crc is not None and crc != generation.crc:
        return size, "its checksum does not match its manifest"
    return size, None


def _check(entry: layout.Archived, generations: int, total: int, problems: list[str]) -> tuple[int, int]:
    for generation in entry.generations:
        generations += 1
        size, problem = check_generation(generation)
        total += size
        if problem:
            problems.append(f"{entry.rel}: generation {generation.number} {problem}")
    return generations, total


def verify(base: str, claude_root: str | None) -> Verified:
    """Every archived generation read back against its manifest; with `claude_root`, every file
    worth archiving there is in the archive, its newest generation the file as it is."""
    problems: list[str] = []
    files = generations = total = 0
    for listed in layout.entries_under(base, layout.files_dir(base)):
        with layout.locked(base, shared=True):  # the manifest and its members as one writer left them
            entry = layout.archived(base, listed.rel)
            if entry is None:
                continue  # dropped since the listing
            files += 1
            generations, total = _check(entry, generations, total, problems)
    if claude_root is not None:
        for path, _session in store.everything(claude_root, base):
            rel = os.path.relpath(path, claude_root).replace(os.sep, "/")
            manifest = layout.load_manifest(layout.member_path(base, rel))
            if manifest is None:
                problems.append(f"{rel}: not archived")
                continue
            try:
                fd, info = fileio.open_fd(path)
            except OSError:
                continue  # gone since the listing: the archive keeps what it had
            try:
                if info.st_size and resume(fd, info, layout.checkpoint_of(manifest)) == (0, True):
                    problems.append(f"{rel}: changed since it was archived")
            finally:
                os.close(fd)
    return Verified(files, generations, total, tuple(problems))
