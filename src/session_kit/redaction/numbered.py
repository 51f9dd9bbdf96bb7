"""A file read with the Read tool: each line carries its number and an arrow (`     1→text`).

Owns: taking the numbers out for matching (`strip`: the text without them, and where each kept
character was) and putting a secret's span back where the numbered text writes it
(`original_span`), so a private key spread over numbered lines is matched whole while every
line keeps its number in what is shown (`replace`: each line's part of a span replaced, the
first by the marker). Pure functions on strings; does not decide what a secret is.
"""

from __future__ import annotations

import re
from collections.abc import Callable

# A line's number and arrow, at the start of the text, of a line, or of a text joined with NUL.
_NUMBER = re.compile(r"(?:^|(?<=[\n\x00]))[ \t]*\d{1,7}→")
_AFTER_BREAK = re.compile(r"\n[ \t]*\d{1,7}→")  # the same after a line break (a text is given one)


def strip(text: str) -> tuple[str, Callable[[], list[tuple[int, int]]]] | None:
    """`text` without its lines' numbers (one substitution, in C), and how to get the cuts
    (asked only when a secret was found in it): (where in the stripped text, how many
    characters were taken out before it in all); None when fewer than two lines are numbered."""
    if "→" not in text:
        return None
    count = 0
    texts = text.split("\x00")
    for at, part in enumerate(texts):  # each text after a line break: a search for `\n` is fast
        if "→" in part:
            stripped, found = _AFTER_BREAK.subn("\n", "\n" + part)
            texts[at] = stripped[1:]
            count += found
    if count < 2:
        return None
    return "\x00".join(texts), lambda: cuts(text)


def cuts(text: str) -> list[tuple[int, int]]:
    """Where `strip` took each number out of `text`: (where in the stripped text, how many
    characters were taken out before it in all)."""
    out: list[tuple[int, int]] = []
    removed = 0
    for match in _NUMBER.finditer(text):
        size = match.end() - match.start()
        out.append((match.start() - removed, removed + size))
        removed += size
    return out


def _shift(cuts: list[tuple[int, int]], at: int, *, end: bool) -> int:
    """Where stripped position `at` is in the numbered text (an end stays before the next number)."""
    removed = 0
    for where, total in cuts:
        if where < at or (where == at and not end):
            removed = total
        else:
            break
    return at + removed


def original_span(cuts: list[tuple[int, int]], start: int, end: int) -> tuple[int, int]:
    return _shift(cuts, start, end=False), _shift(cuts, end, end=True)


def replace(text: str, spans: list[tuple[int, int, str]]) -> str:
    """The numbered `text` with each span (in its own positions, sorted) replaced by its marker,
    every line's number kept: the span's part on its first line becomes the marker, its parts
    on the lines after it are emptied."""
    pieces: list[str] = []
    done = 0
    for start, end, marker in spans:
        if start < done:
            continue
        pieces.append(text[done:start])
        pieces.append(marker)
        for number in _NUMBER.finditer(text, start, end):
            if number.start() > start:
                pieces.append(text[number.start() - 1 : number.end()] if text[number.start() - 1] == "\n" else "")
        done = end
    pieces.append(text[done:])
    return "".join(pieces)
