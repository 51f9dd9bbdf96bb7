"""The conversation lines of a transcript: every line read, client noise dropped unparsed.

Owns: reading a transcript file and dropping the lines whose top-level type is noise by the
one vocabulary (`vocabulary.NOISE_TYPES`), counting them, without parsing them: a line that
starts with its type (`vocabulary.TYPE_FIRST`: `{"type":"api-request",…`, most of the
client's bookkeeping) is told by that prefix, any other by `rawtype`, which finds the
top-level type in the raw bytes (the real client writes it after an attachment or message
object). Lines are looked at where they lie in the block read: a noise line is never copied.
Does not parse lines for the conversation (that is `convert`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass

from session_kit.base.rawtype import top_level_type
from session_kit.base.vocabulary import NOISE_TYPE_BYTES, TYPE_FIRST
from session_kit.transcript.reader import ReadStats, iter_line_spans


@dataclass(slots=True)
class NoiseTally:
    input_chars: int = 0  # bytes of every line read
    entries: int = 0  # noise lines dropped
    chars: int = 0  # their bytes


def conversation_lines(
    path: str | os.PathLike[str], stats: ReadStats, tally: NoiseTally
) -> Iterator[tuple[int, bytes]]:
    """`(line_no, raw)` for every line of the file that is not noise by its raw type; the
    counts are added to `stats` as lines are read, to `tally` when the generator ends or is
    closed."""
    noise, first = NOISE_TYPE_BYTES, TYPE_FIRST
    skip = len(first)
    input_chars = entries = chars = 0
    try:
        for line_no, block, begin, end in iter_line_spans(path, stats):
            size = end - begin
            input_chars += size
            if block.startswith(first, begin, end):
                # `{"type":"<name>"`: noise when the name is (a noise type's name holds no
                # quote, so the first quote ends it; any other line is told by `rawtype`).
                close = block.find(b'"', begin + skip, end)
                if block[begin + skip : close] in noise:
                    entries += 1
                    chars += size
                    continue
            raw_type = top_level_type(block, begin, end)
            if raw_type is not None and raw_type in noise:
                entries += 1
                chars += size
                continue
            yield line_no, block[begin:end]
    finally:
        tally.input_chars += input_chars
        tally.entries += entries
        tally.chars += chars
