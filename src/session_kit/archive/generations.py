"""Reading the archive back: each generation's bytes and the union of a rewritten file's
generations.

Owns: a generation's original bytes (its members read by `members`); the earlier part of a
rewritten transcript (`layout.earlier_path`: the lines of its earlier generations that the
newest one dropped, matched by the entry's `uuid`, or by the whole line for a line without
one; each once, oldest first), written when a generation is closed and again by a reader
that finds it missing; the union a reader sees (that earlier part, then the file as it is
now: the longest history).
Does not: copy into the archive (`store`, which calls `write_earlier`, holding the archive's
lock, when it closes a generation; nothing here imports it), check the archive (`verify`), know sessions (`view`)
or parse anything but a line's `uuid`. Standard library only.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator

from session_kit.archive import layout
from session_kit.archive.layout import Archived, Generation
from session_kit.archive.members import member_chunks
from session_kit.base import fileio
from session_kit.state.root import ensure_dir


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
    with layout.locked(base):  # a copy or a scrub writes it too
        return write_earlier(base, entry.rel)
