"""Reading the archive back: each generation's bytes, the union of a rewritten file's
generations, and checking every archived byte against its manifest.

Owns: a generation's original bytes (its gzip members up to the size the manifest records);
the earlier part of a rewritten transcript (`layout.earlier_path`: the lines of its earlier
generations that the newest one dropped, matched by the entry's `uuid`, or by the whole line
for a line without one; each once, oldest first), written when a generation is closed and
again by a reader that finds it missing; the union a reader sees (that earlier part, then the
file as it is now: the longest history); and `verify` (every generation decompresses to the
size and CRC-32 its manifest records, and every file under the Claude root is archived).
Does not: copy into the archive (`store`), know sessions (`view`) or parse anything but a
line's `uuid`. Standard library only.
"""

from __future__ import annotations

import json
import os
import zlib
from collections.abc import Iterator
from dataclasses import dataclass

from session_kit.archive import layout
from session_kit.archive.layout import Archived, Generation
from session_kit.base import fileio
from session_kit.state.root import ensure_dir

CHUNK = 1 << 20


def member_chunks(member: str, gz_size: int) -> Iterator[bytes]:
    """The original bytes in the gzip members of `member` up to `gz_size` (each member's own
    CRC checked by zlib)."""
    with open(member, "rb") as f:
        remaining = gz_size
        unpacker = zlib.decompressobj(31)
        while remaining > 0:
            data = f.read(min(CHUNK, remaining))
            if not data:
                raise OSError(f"{member}: shorter than its manifest says")
            remaining -= len(data)
            while data:
                try:
                    out = unpacker.decompress(data)
                except zlib.error as exc:  # damaged: an OSError like any unreadable file
                    raise OSError(f"{member}: damaged ({exc})") from None
                if out:
                    yield out
                if unpacker.eof:  # the next gzip member starts in what is left
                    data = unpacker.unused_data
                    unpacker = zlib.decompressobj(31)
                else:
                    data = b""


def original_chunks(base: str, rel: str, generation: Generation | None = None) -> Iterator[bytes]:
    """The original bytes of an archived file's newest generation (or of `generation`)."""
    if generation is None:
        entry = layout.archived(base, rel)
        if entry is None:
            raise FileNotFoundError(f"{rel} is not in the archive")
        generation = entry.generations[-1]
    return member_chunks(generation.member, generation.gz_size)


def read_original(base: str, rel: str, generation: Generation | None = None) -> bytes:
    return b"".join(original_chunks(base, rel, generation))


def _lines(chunks: Iterator[bytes]) -> Iterator[bytes]:
    """Every line with its newline (a last line without one gets one)."""
    rest = b""
    for chunk in chunks:
        data = rest + chunk
        start = 0
        while True:
            end = data.find(b"\n", start)
            if end < 0:
                break
            yield data[start : end + 1]
            start = end + 1
        rest = data[start:]
    if rest:
        yield rest + b"\n"


def _key(line: bytes) -> bytes:
    try:
        value = json.loads(line)
    except ValueError:
        value = None
    if isinstance(value, dict) and isinstance(value.get("uuid"), str) and value["uuid"]:
        return b"u" + value["uuid"].encode("utf-8", "surrogateescape")
    return b"l" + line.rstrip(b"\r\n")


def earlier_lines(base: str, entry: Archived) -> Iterator[bytes]:
    """The lines of the earlier generations that the newest one dropped."""
    newest = entry.generations[-1]
    kept = {_key(line) for line in _lines(member_chunks(newest.member, newest.gz_size)) if line.strip()}
    for generation in entry.generations[:-1]:
        for line in _lines(member_chunks(generation.member, generation.gz_size)):
            if not line.strip():
                continue
            key = _key(line)
            if key not in kept:
                kept.add(key)
                yield line


def write_earlier(base: str, rel: str) -> str | None:
    """Write the earlier part of a rewritten file; its path (None: the file was never rewritten)."""
    entry = layout.archived(base, rel)
    if entry is None or not entry.rewritten:
        return None
    path = layout.earlier_path(base, rel)
    ensure_dir(os.path.dirname(path), root=base)
    fileio.write_chunks(path, earlier_lines(base, entry))
    return path


def earlier_part(base: str, entry: Archived) -> str | None:
    """The earlier part's path, written again when a reader finds it missing or written
    against an older generation (a copy killed between its switch and its earlier part);
    None when the file was never rewritten."""
    if not entry.rewritten:
        return None
    path = layout.earlier_path(base, entry.rel)
    if entry.earlier == entry.generations[-1].number and os.path.isfile(path):
        return path
    return write_earlier(base, entry.rel)


# --- verify -------------------------------------------------------------------------------


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


def verify(base: str, claude_root: str | None) -> Verified:
    """Every archived generation read back against its manifest; with `claude_root`, every file
    worth archiving there is in the archive, its newest generation the file as it is."""
    from session_kit.archive.store import _checkpoint, everything
    from session_kit.base.follow import resume

    problems: list[str] = []
    files = generations = total = 0
    for entry in layout.entries_under(base, layout.files_dir(base)):
        files += 1
        for generation in entry.generations:
            generations += 1
            size, problem = check_generation(generation)
            total += size
            if problem:
                problems.append(f"{entry.rel}: generation {generation.number} {problem}")
    if claude_root is not None:
        for path, _session in everything(claude_root, base):
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
                if info.st_size and resume(fd, info, _checkpoint(manifest)) == (0, True):
                    problems.append(f"{rel}: changed since it was archived")
            finally:
                os.close(fd)
    return Verified(files, generations, total, tuple(problems))
