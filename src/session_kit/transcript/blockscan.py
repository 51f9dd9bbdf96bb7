"""Files read as blocks of whole lines, and the lines of a block that hold a needle: search's
byte-level reading.

Owns: reading a transcript in blocks of about `BLOCK` bytes, each completed to the end of its
last line (the first with the byte-order mark dropped, by `reader.skip_bom`), and finding in
a block, lowered, the lines that hold a lowered needle, with their line numbers counted only
where needed. A one-block file without a hit costs a read, a lower and a find, as for grep.
Knows nothing of what the lines mean.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from typing import Any

from session_kit.transcript.reader import skip_bom

BLOCK = 4 * 1024 * 1024


def first_block(f: Any) -> tuple[bytes, bool]:
    """The file's first block of whole lines, and whether it is the whole file.

    Asks for the file's size, not a whole block: a 4 MB buffer per small file costs more than
    reading it. One byte more tells whether the file grew since.
    """
    size = os.fstat(f.fileno()).st_size
    first = f.read(min(size + 1, BLOCK))
    whole = len(first) <= size and len(first) < BLOCK  # the usual case: one read holds it
    first = skip_bom(first)
    if not whole and not first.endswith(b"\n"):
        first += f.readline()
    return first, whole


def blocks(f: Any, first: bytes) -> Iterator[bytes]:
    """Blocks of whole lines: about BLOCK bytes each, completed to the end of their last line."""
    block = first
    while block:
        yield block
        block = f.read(BLOCK)
        if block and not block.endswith(b"\n"):
            block += f.readline()


def candidate_lines(blocks: Iterable[bytes], needle: bytes) -> Iterator[tuple[int, int, bytes]]:
    """(line_no, offset, raw line) of every line whose lowered bytes hold `needle`.

    Each block is lowered and searched whole; newlines are counted only where a line number
    is needed (up to a hit, or past a block when another follows), so a one-block file
    without a hit costs a read, a lower and a find, as it would for grep.
    """
    line_no = 0
    offset = 0  # of the block in the file
    previous: tuple[bytes, int] | None = None  # a block whose newlines after `int` are uncounted
    for block in blocks:
        if previous is not None:
            line_no += previous[0].count(b"\n", previous[1])
            offset += len(previous[0])
        lowered = block.lower()
        at = lowered.find(needle)
        counted = 0
        while at >= 0:
            start = block.rfind(b"\n", 0, at) + 1
            stop = block.find(b"\n", at)
            stop = len(block) if stop < 0 else stop + 1
            line_no += block.count(b"\n", counted, start)
            counted = start
            yield line_no + 1, offset + start, block[start:stop]
            at = lowered.find(needle, stop)
        previous = (block, counted)


def all_lines(blocks: Iterable[bytes]) -> Iterator[tuple[int, int, bytes]]:
    line_no = offset = 0
    for block in blocks:
        for raw in block.splitlines(keepends=True):
            line_no += 1
            yield line_no, offset, raw
            offset += len(raw)
