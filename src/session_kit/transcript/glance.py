"""A transcript's head and tail, read cheaply: what a listing of many sessions needs.

Owns: the start time, the first request, cwd, branch and title lines from the head of a
file, the last time and title lines from its tail, a current client's title lines repeated
through the file (`titles_within`: its first 128 KB, and read back from the end to the
latest), (the start, end and title by the one
rules of `span` and `titles`, applied to what the head and tail hold), locating lines with
byte searches and parsing only the few that can matter (the client's noise, most of a file's
bytes, is passed over unparsed); the first value of a top-level-looking string field of a
line without parsing it; complete lines from a file's head. Knows no disk layout: it is
given a path or an open descriptor.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any, NamedTuple

from session_kit.base import fastjson
from session_kit.base.fileio import open_fd, open_regular
from session_kit.base.vocabulary import TYPE_AI_TITLE, TYPE_CUSTOM_TITLE, TYPE_SUMMARY
from session_kit.transcript.entries import Entry, request_text
from session_kit.transcript.reader import loads_glanced, skip_bom
from session_kit.transcript.span import SPAN_KINDS, Span, span_time
from session_kit.transcript.titles import TitleLine, choose_title, title_line

HEAD_STEP = 8 * 1024
HEAD_LIMIT = 1024 * 1024  # how far into a file the first prompt is looked for
TAIL_STEPS = (8 * 1024, 32 * 1024, 128 * 1024, 2 * 1024 * 1024)  # tail reads, until a conversation time shows


class Glance(NamedTuple):
    """What the head and tail of a transcript say. `start` and `end` are the earliest and the
    latest conversation time read (`span.Span`), both None when no line read had one."""

    start: datetime | None
    first_prompt: Entry | None
    cwd: str | None
    branch: str | None
    end: datetime | None
    title: str | None = None
    prompt_text: str | None = None  # the first prompt as the person typed it (`request_text`)


class Tail(NamedTuple):
    """What a transcript's tail says: its last time, and whether a title line may be in it
    (a current client's `custom-title` / `ai-title`, appended as the session goes on, or a
    `summary` written at the end of a 2025 file)."""

    end: datetime | None
    titled: bool


def tail_facts(fd: int, size: int) -> Tail:
    """The open file's `Tail` (what ordering many sessions by their last time needs)."""
    end, tail = tail_end(fd, size)
    # b'-title"' is the mark of each of _LATE_TITLES; a 2025 file's `summary` can end it too
    return Tail(end, size > HEAD_STEP and (b'-title"' in tail or b'"summary"' in tail))


def glance(path: str | os.PathLike[str], size: int, *, tail: Tail | None = None) -> Glance:
    """The facts of the file's head and tail; all None when it cannot be read. `tail`: what
    `tail_facts` said of this file already (its tail is then read again only for a title)."""
    start = end = prompt = cwd = branch = text = None
    titles: list[TitleLine] = []
    try:
        # Raw descriptor reads: for thousands of files, a buffered file object per file costs
        # more than the few kilobytes read from each.
        fd = open_fd(path)[0]
    except OSError:  # removed, unreadable or not a regular file since it was listed
        return Glance(None, None, None, None, None)
    try:
        start, prompt, cwd, branch, text = head_facts(FdReader(fd), titles)
        late: list[TitleLine] = []
        if tail is not None and not tail.titled:
            end = tail.end
        else:
            end, data = tail_end(fd, size)
            if size > HEAD_STEP:
                late = title_lines(data, cut=size > len(data))
        if size > HEAD_STEP:  # a small file's head was its tail: its titles are in already
            titles.extend(late or titles_within(fd, size))
        title = choose_title(titles, lambda uuid: file_holds(fd, *uuid_marks(uuid))) if titles else None
    except OSError:
        title = None
    finally:
        os.close(fd)
    span = Span().including(start).including(end)  # a file need not be written in time order
    return Glance(span.start, prompt, cwd, branch, span.end, title, text)


# Current clients repeat `ai-title` / `custom-title` lines through a file: the first 60-72 KB
# from its start, the latest 30 KB or more from its end. A file whose first TITLE_PROBE bytes
# hold none has none (a file without titles costs one read); one that does is read back from
# its end, in growing blocks, to the block holding the latest title line.
TITLE_PROBE = 128 * 1024
BACK_STEPS = (64 * 1024, 256 * 1024, 1024 * 1024)
_LINE_REACH = 16 * 1024  # past a block's end: a title line cut by it is read whole


def titles_within(fd: int, size: int) -> list[TitleLine]:
    """The title lines of a current client's file beyond its tail, in file order: those of
    its first `TITLE_PROBE` bytes (a `/rename` early on), then the latest block, read back
    from the end, that holds one. Empty when the probe holds none."""
    probe = os.pread(fd, TITLE_PROBE, 0)
    if b'-title"' not in probe:  # the mark of each of _LATE_TITLES
        return []
    found = title_lines(probe, types=_LATE_TITLES)
    hi = size
    for step in _back_steps():
        if hi <= len(probe):
            break
        lo = max(len(probe), hi - step)
        block = os.pread(fd, hi - lo + _LINE_REACH, lo)
        later = title_lines(block, cut=True, types=_LATE_TITLES)
        if later:
            return found + later
        hi = lo
    return found


def _back_steps() -> Iterator[int]:
    yield from BACK_STEPS
    while True:
        yield BACK_STEPS[-1]


def uuid_marks(uuid: str) -> tuple[bytes, ...]:
    """The bytes of an entry's `uuid` field holding `uuid`, written with or without a space
    (a title line's own `leafUuid` field, or a `parentUuid`, does not match)."""
    # A lone surrogate can only be in the file as its JSON escape, which backslashreplace writes.
    value = fastjson.dumps(uuid).encode("utf-8", "backslashreplace")
    return (b'"uuid":' + value, b'"uuid": ' + value)


def tail_end(fd: int, size: int) -> tuple[datetime | None, bytes]:
    """The time of the last timestamped line of the open file of `size` bytes, and the tail
    read to find it (reads grow until a time shows)."""
    end = None
    tail = b""
    for step in TAIL_STEPS:
        tail = os.pread(fd, step, max(0, size - step))
        end = last_timestamp(tail, cut=size > step)
        if end is not None or size <= step:
            break
    return end, tail


# Title lines: `summary` ones are stacked at the head of 1.0.x–2.0.x files; current clients
# append `custom-title` / `ai-title` ones as the session goes on.
# (The type's value is looked for, then the line parsed: JSON may have spaces after the colon.)
_TITLE_MARKS = tuple(b'"%s"' % t.encode() for t in (TYPE_SUMMARY, TYPE_CUSTOM_TITLE, TYPE_AI_TITLE))
_LATE_TITLES = _TITLE_MARKS[1:]


def title_lines(data: bytes, *, cut: bool = False, types: Iterable[bytes] = _TITLE_MARKS) -> list[TitleLine]:
    """The title lines among the complete lines of `data`, in file order."""
    lo = data.find(b"\n") + 1 if cut else 0
    found: list[tuple[int, TitleLine]] = []
    for mark in types:
        pos = data.find(mark, lo)
        while pos >= 0:
            start, stop = _line_at(data, pos, lo, len(data))
            try:
                value = loads_glanced(data[start:stop].strip())
            except (ValueError, RecursionError):
                value = None
            line = title_line(Entry.from_raw(0, value)) if isinstance(value, dict) else None
            if line is not None and all(start != at for at, _ in found):
                found.append((start, line))
            pos = data.find(mark, stop)
    return [line for _, line in sorted(found, key=lambda f: f[0])]


# Blocks of a byte search. Read, not mapped: a mapped file's pages count in the process's
# resident memory as they are touched (a search of a 60 MB session took a command's peak
# from ~15 MB to ~75 MB), and reading 1 MB blocks costs about the same as faulting them in.
SEARCH_BLOCK = 1024 * 1024


def file_holds(fd: int, *needles: bytes) -> bool:
    """Whether the open file's bytes hold one of `needles` (one pass in blocks, memory bounded)."""
    overlap = max(map(len, needles)) - 1
    size = max(SEARCH_BLOCK, 2 * (overlap + 1))  # a match then spans two blocks at most
    at = 0
    carry = b""
    try:
        while True:
            block = os.pread(fd, size, at)
            if not block:
                return False
            # A match across two blocks starts in the previous block's last `overlap` bytes.
            seam = carry + block[:overlap] if carry else b""
            if any(block.find(needle) >= 0 or seam.find(needle) >= 0 for needle in needles):
                return True
            at += len(block)
            carry = block[-overlap:] if overlap else b""
    except OSError:  # unreadable since it was opened
        return False


def head_lines(path: Path, *, limit: int = HEAD_LIMIT) -> Iterable[bytes]:
    """Complete lines from the start of a file, read in growing steps up to `limit` bytes."""
    try:
        f = open_regular(path)
    except OSError:  # unreadable, or not a regular file (a FIFO would block)
        return
    with f:
        yield from lines_from(f, limit)


def lines_from(f: Any, limit: int) -> Iterable[bytes]:
    buffer = b""
    read = 0
    step = HEAD_STEP
    while read < limit:
        chunk = f.read(step)
        if not chunk:
            if buffer.strip():
                yield buffer  # last line without newline
            return
        if read == 0:
            chunk = skip_bom(chunk)
        read += len(chunk)
        buffer += chunk
        *lines, buffer = buffer.split(b"\n")
        yield from lines
        step = min(step * 2, 256 * 1024)


_FIELD_CACHE: dict[bytes, re.Pattern[bytes]] = {}


def quick_field(raw: bytes, key: bytes) -> str | None:
    """A top-level-looking string field of a line, without parsing the line (first match)."""
    pattern = _FIELD_CACHE.get(key)
    if pattern is None:
        pattern = _FIELD_CACHE[key] = re.compile(rb'"' + re.escape(key) + rb'"\s*:\s*"((?:[^"\\]|\\.)*)"')
    match = pattern.search(raw)
    if not match:
        return None
    try:
        return fastjson.loads(b'"' + match.group(1) + b'"')
    except ValueError:
        return None


_USER_TYPE = re.compile(rb'"type"\s*:\s*"user"')


class FdReader:
    """`read(n)` over a raw file descriptor, from its start."""

    __slots__ = ("fd", "offset")

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.offset = 0

    def read(self, n: int) -> bytes:
        data = os.pread(self.fd, n, self.offset)
        self.offset += len(data)
        return data


def _line_at(data: bytes, pos: int, lo: int, hi: int) -> tuple[int, int]:
    """Start and end of the line of `data[lo:hi]` that holds `pos`."""
    start = max(data.rfind(b"\n", lo, pos) + 1, lo)
    end = data.find(b"\n", pos, hi)
    return start, hi if end < 0 else end


def head_facts(
    f: Any, titles: list[TitleLine] | None = None
) -> tuple[datetime | None, Entry | None, str | None, str | None, str | None]:
    """(start time, first user prompt, cwd, branch, that prompt's `request_text`) from the
    head of an open file; the title lines met on the way are added to `titles`.

    Lines are located with byte searches, not split apart, and only those that can matter
    are parsed: the first with a timestamp, then those that look like user entries. The
    client's noise entries, most of a file's bytes, are passed over unparsed.
    """
    start: datetime | None = None
    cwd = branch = None
    parsed: dict[int, Entry] = {}  # the lines the search for the start parsed: never parsed twice
    data = b""
    scanned = 0  # complete lines before this offset have been looked at
    step = HEAD_STEP
    while True:
        chunk = f.read(step)
        if not data:
            chunk = skip_bom(chunk)
        data += chunk
        at_eof = len(chunk) < step
        complete = len(data) if at_eof else data.rfind(b"\n") + 1
        if start is None:
            start = first_timestamp(data, scanned, complete, parsed)
        if titles is not None and (
            data.find(b'"summary"', scanned, complete) >= 0 or data.find(b"-title", scanned, complete) >= 0
        ):
            titles.extend(title_lines(data[scanned:complete]))
        pos = scanned
        while True:
            match = _USER_TYPE.search(data, pos, complete)
            if match is None:
                break
            line_start, line_end = _line_at(data, match.start(), scanned, complete)
            pos = line_end
            entry = parsed.get(line_start)
            if entry is None:
                try:
                    value = loads_glanced(data[line_start:line_end].strip())
                except (ValueError, RecursionError):
                    continue
                if not isinstance(value, dict):
                    continue
                entry = Entry.from_raw(0, value)
            start = start or span_time(entry)
            cwd = cwd or entry.cwd
            branch = branch or entry.git_branch
            text = request_text(entry)
            if text is not None:  # a prompt the person typed (`Entry.is_user_prompt`)
                return start, entry, cwd or entry.cwd, branch or entry.git_branch, text
        scanned = complete
        if at_eof or len(data) >= HEAD_LIMIT:
            return start, None, cwd, branch, None
        step = min(step * 2, 256 * 1024)


# Lines that may give the span a time name one of its kinds (the kinds are the types of the same
# names), found by byte searches: the client's bookkeeping lines, most of a file, are passed
# over without being split apart or parsed.
_TYPE_MARK = b'"type":"'  # as the client writes it
_SPAN_NAMES = tuple(kind.encode() + b'"' for kind in sorted(SPAN_KINDS))
_SPAN_TYPE = re.compile(rb'"type"\s*:\s*"(?:' + b"|".join(re.escape(k.encode()) for k in sorted(SPAN_KINDS)) + rb')"')


def _marks(data: bytes, lo: int, hi: int, *, last_first: bool = False) -> Iterator[int]:
    """Where `data[lo:hi]` names a kind whose time counts, in order."""
    at = data.rfind(_TYPE_MARK, lo, hi)
    if at < 0:  # no line as the client writes them: JSON with spaces (or no types at all)
        found = [match.start() for match in _SPAN_TYPE.finditer(data, lo, hi)]
        yield from reversed(found) if last_first else found
        return
    step = len(_TYPE_MARK)
    if last_first:
        while at >= 0:
            if data.startswith(_SPAN_NAMES, at + step):
                yield at
            at = data.rfind(_TYPE_MARK, lo, at)
        return
    at = data.find(_TYPE_MARK, lo, hi)
    while at >= 0:
        if data.startswith(_SPAN_NAMES, at + step):
            yield at
        at = data.find(_TYPE_MARK, at + step, hi)


def first_timestamp(data: bytes, lo: int, hi: int, parsed: dict[int, Entry] | None = None) -> datetime | None:
    """The time of the first line of `data[lo:hi]` (complete lines) that gives the span one;
    the lines parsed on the way are left in `parsed`, by where they start in `data`."""
    tried = lo  # the lines before this were tried
    for pos in _marks(data, lo, hi):
        if pos < tried:
            continue
        line_start, line_end = _line_at(data, pos, lo, hi)
        tried = line_end
        entry = line_entry(data[line_start:line_end])
        if entry is None:
            continue
        if parsed is not None:
            parsed[line_start] = entry
        stamp = span_time(entry)
        if stamp is not None:
            return stamp
    return None


def last_timestamp(tail: bytes, *, cut: bool) -> datetime | None:
    """The time of the last line of a file's tail that gives the span one (`line_timestamp`)."""
    lo = tail.find(b"\n") + 1 if cut else 0  # a cut tail starts inside a line: skip it
    if cut and lo == 0:
        return None
    hi = len(tail)
    untried = hi  # the lines from here on were tried
    for pos in _marks(tail, lo, hi, last_first=True):
        if pos >= untried:
            continue
        line_start, line_end = _line_at(tail, pos, lo, hi)
        untried = line_start
        stamp = line_timestamp(tail[line_start:line_end])
        if stamp is not None:
            return stamp
    return None


def line_timestamp(raw: bytes) -> datetime | None:
    """The time the line gives its session's span (`span.span_time`), if any.

    The line is parsed: a regex cannot tell the entry's own type and time from ones nested
    inside it (file-history snapshots and attachments carry their own).
    """
    entry = line_entry(raw)
    return span_time(entry) if entry is not None else None


def line_entry(raw: bytes) -> Entry | None:
    """The entry of a line that may give the span a time (one naming a `timestamp`), parsed;
    None for any other line, or one that is not a JSON object."""
    if b'"timestamp"' not in raw:
        return None
    try:
        value = loads_glanced(raw.strip())
    except (ValueError, RecursionError):
        return None
    return Entry.from_raw(0, value) if isinstance(value, dict) else None
