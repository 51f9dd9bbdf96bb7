"""Where anchors are in a text, and where they are after some of it was replaced.

Owns: `lowered` (a text lower-cased index for index), `positions` (every occurrence of an
anchor, fast for a frequent one) and `moved` (positions carried past replaced spans). Pure
functions on strings, shared by the redactor's two engines (`engine`, `passes`).
"""

from __future__ import annotations

from bisect import bisect_left
from itertools import accumulate
from operator import add


def lowered(text: str) -> str:
    """`text` lower-cased, index for index (a few characters lower-case to two)."""
    low = text.lower()
    if len(low) == len(text):
        return low
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in text)


def moved(positions: list[int], edits: list[tuple[int, int, int]]) -> list[int]:
    """Anchor positions (sorted) in a text after `edits` replaced spans of it: those inside a
    replaced span are gone (the marker holds no anchor a rule wants), the others shift. The
    text is scanned for an anchor once, however many rules redact it."""
    first = bisect_left(positions, edits[0][0])
    out = positions[:first]
    shift = 0
    i = 0
    last = len(edits)
    for at, p in enumerate(positions[first:], first):
        while i < last and edits[i][1] <= p:
            shift += edits[i][2]
            i += 1
        if i == last:
            out.extend([q + shift for q in positions[at:]])
            return out
        if edits[i][0] > p:
            out.append(p + shift)
    return out


def positions(text: str, anchor: str) -> list[int]:
    """Where `anchor` occurs in `text`: one `find` per occurrence for the first few, then (a
    frequent anchor: `_`, `-`, `key` in code) the rest by splitting and summing the lengths in C
    rather than calling `find` once per occurrence."""
    out: list[int] = []
    i = text.find(anchor)
    while i >= 0:
        if len(out) == 16:
            parts = text[i:].split(anchor)
            size = len(anchor)
            out.extend(map(add, accumulate(map(len, parts[:-1])), range(i, i + size * (len(parts) - 1), size)))
            return out
        out.append(i)
        i = text.find(anchor, i + 1)
    return out
