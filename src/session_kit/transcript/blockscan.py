"""Files read as blocks of whole lines, and the lines of a block that hold a needle: search's
byte-level reading.

Owns: reading a transcript (from its descriptor) in blocks of about `BLOCK` bytes, each completed to the end of its
last line (the first with the byte-order mark dropped, by `reader.skip_bom`), and finding in
a block, lowered, the lines that hold a lowered needle, with their line numbers counted only
where needed. A one-block file without a hit costs a read, a lower and a find, as for grep.
Knows nothing of what the lines mean.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from typing import Any, BinaryIO

from session_kit.transcript.reader import skip_bom

BLOCK = 1024 * 1024


def first_block(fd: int, size: int) -> tuple[bytes, BinaryIO | None]:
    """The file's first block of whole lines, and the file open for the rest when there is
    more (None: the block is the whole file, the usual case). `size`: the file's size when
    it was opened.

    Reads from the descriptor itself, as many bytes as the file has and one more (to tell
    whether it grew since): no buffered file object, no 4 MB buffer per small file, and one
    `read` call. Over the 10,000 sessions of the benchmark (11,000 files, 600 MB) reading
    took 0.26 s this way, 0.41 s through `open` and `BufferedReader.read`. Only a file
    larger than a block gets a file object, for the rest and for completing the last line.
    """
    want = min(size + 1, BLOCK)
    first = os.read(fd, want)
    while len(first) < min(size, want):  # a short read (a signal): what fstat promised is there
        more = os.read(fd, want - len(first))
        if not more:
            break
        first += more
    if len(first) <= size and len(first) < BLOCK:
        return skip_bom(first), None
    rest = os.fdopen(fd, "rb", closefd=False)
    first = skip_bom(first)
    if not first.endswith(b"\n"):
        first += rest.readline()
    return first, rest


def blocks(f: Any, first: bytes) -> Iterator[bytes]:
    """Blocks of whole lines: about BLOCK bytes each, completed to the end of their last line."""
    block = first
    while block:
        yield block
        block = f.read(BLOCK)
        if block and not block.endswith(b"\n"):
            block += f.readline()


def newlines_between(fd: int, start: int, stop: int) -> int:
    """The newlines in the bytes `start` to `stop` of the file, read again in blocks."""
    found = 0
    while start < stop:
        piece = os.pread(fd, min(BLOCK, stop - start), start)
        if not piece:
            break
        found += piece.count(b"\n")
        start += len(piece)
    return found


def candidate_lines(
    blocks: Iterable[bytes], needle: bytes, *, newlines_in: Callable[[int, int], int] | None = None
) -> Iterator[tuple[int, int, bytes]]:
    """(line_no, offset, raw line) of every line whose lowered bytes hold `needle`.

    Each block is lowered and searched whole; newlines are counted only where a line number
    is needed, so a one-block file without a hit costs a read, a lower and a find, as it
    would for grep. `newlines_in(start, stop)`: the newlines between two offsets, read again
    from the file; with it the blocks before a hit are counted only when a hit comes (a big
    file without one is never counted: 0.07-0.13 s of the 130 MB of such files in the
    benchmark's 10,000 sessions), without it as the blocks pass.
    """
    line_no = 0  # newlines before `counted_to`
    counted_to = 0  # offset in the file up to which newlines are counted
    offset = 0  # of the block in the file
    previous = b""  # the block before, whose newlines from `counted_to` on are not counted yet
    for block in blocks:
        if newlines_in is None and previous:  # another block follows: count the one before
            line_no += previous.count(b"\n", counted_to - (offset - len(previous)))
            counted_to = offset
        previous = block
        lowered = block.lower()
        at = lowered.find(needle)
        while at >= 0:
            start = block.rfind(b"\n", 0, at) + 1
            stop = block.find(b"\n", at)
            stop = len(block) if stop < 0 else stop + 1
            if counted_to < offset:  # blocks passed without a hit
                line_no += newlines_in(counted_to, offset) if newlines_in is not None else 0
                counted_to = offset
            line_no += block.count(b"\n", counted_to - offset, start)
            counted_to = offset + start
            yield line_no + 1, counted_to, block[start:stop]
            at = lowered.find(needle, stop)
        offset += len(block)


def all_lines(blocks: Iterable[bytes]) -> Iterator[tuple[int, int, bytes]]:
    line_no = offset = 0
    for block in blocks:
        for raw in block.splitlines(keepends=True):
            line_no += 1
            yield line_no, offset, raw
            offset += len(raw)
