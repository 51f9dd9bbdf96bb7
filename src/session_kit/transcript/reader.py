"""Streaming JSON Lines: a transcript file's bytes into lines and objects, one policy for bad input.

Owns: turning a `.jsonl` file (or its head) into line spans and JSON objects, one line
at a time, never holding more than one line in memory, applying the one byte-order-mark
policy (`follow.skip_bom`, which every byte-level reader of the kit applies: `glance` for
heads and tails, `blockscan` for search, `conversation.noise` over these spans). Blank lines, malformed JSON,
non-object values, invalid UTF-8, a byte-order mark, overlong lines and a half-written last
line (the client may still be writing the file) are survived and counted in `ReadStats`; only
regular files are opened (`fileio.open_regular`: a FIFO would block, `/dev/zero` never end). Does not interpret the
objects; that is `entries`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from typing import Any

from session_kit.base.fileio import open_regular
from session_kit.base.follow import BOM as BOM  # the one BOM policy, named for the readers above
from session_kit.base.follow import skip_bom as skip_bom

# A line longer than this is skipped (and counted), not parsed: it bounds memory per line.
DEFAULT_MAX_LINE_BYTES = 256 * 1024 * 1024
# Files are read in blocks and cut into lines with `bytes.find` (a line is a span of a block,
# so a caller can look at it before copying it out). Lines of real transcripts run to tens of
# kB. 256 kB: in a fresh process, 1 MB blocks cost ~2x more in page faults (every block is a
# new mapping) than the reading itself (measured on a 60 MB session: ~18 ms vs ~36 ms).
READ_BLOCK = 256 * 1024
# Decoding ourselves and calling raw_decode skips json.loads' encoding sniffing per line.
_raw_decode = json.JSONDecoder().raw_decode

# Lines are parsed by the standard library until this process has parsed SWITCH_BYTES of
# them, then by msgspec: exact like the standard library (integers of any size, floats
# correctly rounded) and about twice as fast on transcript lines (measured: the conversation
# lines of a 60 MB session, 30 ms against 14 ms; of a real client's, 139 ms against 59 ms
# under load). Importing it costs ~10-20 ms, more than a small command parses in all: so only
# work that reads megabytes (preprocess, the index, a search, `show` of a big session) pays
# it. What msgspec refuses (NaN, lone surrogates, numbers out of a float's range, invalid
# UTF-8) the standard library decides, so both give the same values and the same errors.
SWITCH_BYTES = 4 * 1024 * 1024
_parsed = 0
_switch_at: float = SWITCH_BYTES
_fast = None  # msgspec's decode, once switched
_FAST_ERRORS: tuple[type[BaseException], ...] = ()


def loads_line(data: bytes) -> object:
    """Parse one stripped line; ValueError (UnicodeDecodeError included) when it is not JSON."""
    global _parsed
    if _fast is not None:
        try:
            return _fast(data)
        except _FAST_ERRORS:
            pass  # the standard library decides (and raises what it raises)
    else:
        _parsed += len(data)
        if _parsed > _switch_at:
            _switch()
    return loads_glanced(data)


def loads_glanced(data: bytes) -> object:
    """`loads_line` by the standard library alone, for the few lines of a file's head and tail
    that a listing of thousands of files parses: over a whole history they add up to the
    megabytes that would switch to msgspec, which gains nothing there (a few lines a file)
    and costs its import (20-40 ms, 3.7 MB, measured on `sessions --all` of 10,000 sessions)."""
    text = data.decode("utf-8")
    value, end = _raw_decode(text)
    if end != len(text):
        raise ValueError("extra data after the JSON value")
    return value


def expect_to_parse(size: int) -> None:
    """A reader about to parse `size` bytes (a big transcript's conversation lines): when that
    is SWITCH_BYTES or more, msgspec parses from the first line instead of after the switch."""
    if _fast is None and size >= _switch_at:
        _switch()


def _switch() -> None:
    """From now on, msgspec first (where it is installed)."""
    global _fast, _FAST_ERRORS, _switch_at
    try:
        import msgspec
    except ImportError:  # pragma: no cover - a dependency; the standard library goes on alone
        _switch_at = float("inf")
        return
    _FAST_ERRORS = (msgspec.DecodeError, UnicodeDecodeError, RecursionError)
    _fast = msgspec.json.Decoder().decode


class ReadStats:
    """What a read met. Mutable: it fills in while the stream is consumed. A plain class, not
    a dataclass: `dataclasses` (with `inspect` under it) would be the only reason a command on
    a small session loads it."""

    __slots__ = (
        "lines",
        "records",
        "blank",
        "malformed",
        "not_object",
        "invalid_utf8",
        "oversized",
        "partial_tail",
        "repeated",  # entries dropped as repeats of an earlier one (same uuid): `entries.read_entries`
        "malformed_lines",
    )

    def __init__(
        self,
        lines: int = 0,
        records: int = 0,
        blank: int = 0,
        malformed: int = 0,
        not_object: int = 0,
        invalid_utf8: int = 0,
        oversized: int = 0,
        partial_tail: bool = False,
        repeated: int = 0,
        malformed_lines: list[int] | None = None,
    ) -> None:
        self.lines = lines
        self.records = records
        self.blank = blank
        self.malformed = malformed
        self.not_object = not_object
        self.invalid_utf8 = invalid_utf8
        self.oversized = oversized
        self.partial_tail = partial_tail
        self.repeated = repeated
        self.malformed_lines = [] if malformed_lines is None else malformed_lines

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self.__slots__)

    __hash__ = None  # type: ignore[assignment]  # mutable, as the dataclass was

    def __repr__(self) -> str:
        return f"ReadStats({', '.join(f'{name}={getattr(self, name)!r}' for name in self.__slots__)})"

    @property
    def skipped(self) -> int:
        return self.malformed + self.not_object + self.oversized + int(self.partial_tail)

    def as_dict(self) -> dict[str, Any]:
        return {
            "lines": self.lines,
            "records": self.records,
            "blank": self.blank,
            "malformed": self.malformed,
            "not_object": self.not_object,
            "invalid_utf8": self.invalid_utf8,
            "oversized": self.oversized,
            "partial_tail": self.partial_tail,
            "repeated": self.repeated,
            "skipped": self.skipped,
        }

    def describe(self) -> str | None:
        """One line for humans, or None when nothing was skipped."""
        parts = []
        if self.malformed:
            parts.append(f"{self.malformed} malformed")
        if self.not_object:
            parts.append(f"{self.not_object} not an object")
        if self.oversized:
            parts.append(f"{self.oversized} oversized")
        if self.partial_tail:
            parts.append("a half-written last line")
        if self.invalid_utf8:
            parts.append(f"{self.invalid_utf8} with invalid UTF-8 (repaired)")
        if self.repeated:
            parts.append(f"{self.repeated} repeated (read once)")
        return ", ".join(parts) if parts else None


def parse_line(raw: bytes, stats: ReadStats, line_no: int) -> dict | None:
    """One line to a JSON object, or None (counted in `stats`).

    Only the last line of a file can lack its newline; when it does not parse, it is the
    half-written line of a file still being written, not a malformed one.
    """
    stripped = raw.strip()
    if not stripped:
        stats.blank += 1
        return None
    try:
        value = loads_line(stripped)
    except UnicodeDecodeError:
        stats.invalid_utf8 += 1
        try:
            value = json.loads(stripped.decode("utf-8", "replace"))
        except (ValueError, RecursionError):
            value = _BAD
    except ValueError:
        value = _BAD
    except RecursionError:  # absurdly deep nesting
        value = _BAD
    if value is _BAD:
        if not raw.endswith(b"\n"):
            stats.partial_tail = True
        else:
            stats.malformed += 1
            if len(stats.malformed_lines) < 100:
                stats.malformed_lines.append(line_no)
        return None
    if not isinstance(value, dict):
        stats.not_object += 1
        return None
    stats.records += 1
    return value


_BAD = object()


def iter_line_spans(
    path: str | os.PathLike[str],
    stats: ReadStats | None = None,
    *,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
    start: int = 0,
    block_size: int = READ_BLOCK,
    block_at: list[int] | None = None,
) -> Iterator[tuple[int, bytes, int, int]]:
    """Yield `(line_no, buffer, begin, end)` for each line of the file, streaming: the line is
    `buffer[begin:end]`, its newline included (the last line may lack one).

    The buffer is a block of the file, shared by the lines in it. Lines over `max_line_bytes`
    are skipped and counted as oversized, without being held. `block_at` (a one-item list),
    when given, holds the file offset of `buffer[0]` at each line yielded: the line starts at
    `block_at[0] + begin`, where `records_at` reads it again.
    """
    where = block_at if block_at is not None else [0]
    read = start
    stats = stats if stats is not None else ReadStats()
    line_no = 0
    # Regular files only: a FIFO named like a transcript would block, /dev/zero never end.
    with open_regular(path, buffering=0) as f:
        if start:
            f.seek(start)
        carry = b""  # the beginning of a line the previous block cut off
        skipping = False  # inside an oversized line: drop everything up to its newline
        first = start == 0
        while True:
            # A line longer than a block doubles the read, so joining its pieces stays linear.
            block = f.read(max(block_size, len(carry)))
            if not block:
                break
            read += len(block)
            if first:
                first = False
                block = skip_bom(block)
            pos = 0
            if skipping:
                newline = block.find(b"\n")
                if newline < 0:
                    continue
                skipping = False
                pos = newline + 1
            elif carry:
                block = carry + block
                carry = b""
            where[0] = read - len(block)  # a BOM skipped shortened the block, not what was read
            find = block.find
            while True:
                newline = find(b"\n", pos)
                if newline < 0:
                    break
                line_no += 1
                stats.lines += 1
                if newline + 1 - pos > max_line_bytes:
                    stats.oversized += 1
                else:
                    yield line_no, block, pos, newline + 1
                pos = newline + 1
            if len(block) - pos >= max_line_bytes:  # no newline within the limit: oversized
                line_no += 1
                stats.lines += 1
                stats.oversized += 1
                skipping = True
            elif pos < len(block):
                carry = block[pos:]
        if carry:  # the last line, without its newline
            line_no += 1
            stats.lines += 1
            where[0] = read - len(carry)
            yield line_no, carry, 0, len(carry)


def iter_raw_lines(
    path: str | os.PathLike[str],
    stats: ReadStats | None = None,
    *,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
    start: int = 0,
) -> Iterator[tuple[int, bytes]]:
    """Yield `(line_no, raw_bytes)` for each line of the file, streaming (newline included).

    Lines over `max_line_bytes` are skipped and counted as oversized, without being held.
    """
    for line_no, buffer, begin, end in iter_line_spans(path, stats, max_line_bytes=max_line_bytes, start=start):
        yield line_no, buffer[begin:end]


def iter_records(
    path: str | os.PathLike[str],
    stats: ReadStats | None = None,
    *,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
) -> Iterator[tuple[int, dict]]:
    """Yield `(line_no, object)` for every line that holds a JSON object."""
    stats = stats if stats is not None else ReadStats()
    for line_no, raw in iter_raw_lines(path, stats, max_line_bytes=max_line_bytes):
        value = parse_line(raw, stats, line_no)
        if value is not None:
            yield line_no, value


def records_at(
    path: str | os.PathLike[str],
    offsets: Iterable[int],
    stats: ReadStats | None = None,
    *,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
) -> Iterator[dict | None]:
    """The JSON object of the line starting at each of `offsets` (as `iter_line_spans`'s
    `block_at` gave them), in that order, the file opened once; None for a line that holds
    none now (the file was rewritten since)."""
    stats = stats if stats is not None else ReadStats()
    with open_regular(path) as f:
        for offset in offsets:
            f.seek(offset)
            raw = f.readline(max_line_bytes + 1)
            yield parse_line(raw, stats, 0) if len(raw) <= max_line_bytes else None


def read_head(path: str | os.PathLike[str], max_bytes: int) -> list[dict]:
    """The JSON objects among the complete lines of the first `max_bytes` of the file."""
    with open_regular(path) as f:
        data = f.read(max_bytes)
        at_eof = len(data) < max_bytes
    data = skip_bom(data)
    lines = data.split(b"\n")
    if not at_eof:
        lines.pop()  # cut off mid-line by max_bytes
    return _parse_many(lines)


def _parse_many(lines: list[bytes]) -> list[dict]:
    out = []
    for raw in lines:
        raw = raw.strip()
        if not raw:
            continue
        try:
            value = loads_line(raw)
        except (ValueError, RecursionError):
            continue
        if isinstance(value, dict):
            out.append(value)
    return out
