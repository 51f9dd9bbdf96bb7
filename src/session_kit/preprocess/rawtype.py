"""An entry's top-level `type`, read from the raw bytes of its line without parsing it.

Owns: deciding cheaply whether a transcript line is client noise, so that the ~80% of a
session's bytes that are noise are never JSON-parsed. Answers only when the answer is certain
and says "unsure" (None) otherwise; the caller then parses the line. Knows nothing about what
the types mean (that is `entries.NOISE_TYPES`).

Why it is exact: in JSON, a `"` inside a string is always escaped, so the bytes `{"type":"` or
`,"type":"` can only be the key `type` of some object, followed by its string value. What is
left is the nesting depth of that object, because nested objects have `type` keys too (an
attachment's `{"type":"skill_listing"}`, a content block's `{"type":"text"}`). The depth is
counted over the short stretch between the key and one end of the line, with strings skipped:
the real client writes the top-level `type` early (user entries, `{"type":…` noise) or late
(after an attachment or a message object), so one of the two stretches is short.
"""

from __future__ import annotations

import re

# How far from either end of a line the top-level `type` key is looked for.
WINDOW = 4096
_FIRST = b'{"type":"'
_KEY = b'"type":"'
# One JSON string (quotes included), written so the regex engine does not backtrack.
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')


def _bracket_balance(line: bytes, start: int, end: int) -> tuple[int, bool]:
    """(opened minus closed brackets in `line[start:end]`, whether that is certain).

    Certain when the stretch holds at most one bracket: none can sit inside a string.
    """
    opened = line.count(b"{", start, end) + line.count(b"[", start, end)
    closed = line.count(b"}", start, end) + line.count(b"]", start, end)
    return opened - closed, opened + closed <= 1


def _depth_change(line: bytes, start: int, end: int) -> int | None:
    """Opened minus closed brackets in `line[start:end]`, a stretch that starts outside any
    string, with strings skipped; None when a string runs past its end."""
    fragment = _STRING.sub(b"", line[start:end])
    if b'"' in fragment:
        return None
    return fragment.count(b"{") + fragment.count(b"[") - fragment.count(b"}") - fragment.count(b"]")


def _value_at(line: bytes, start: int) -> tuple[bytes, int] | None:
    """The plain (escape-free) string value that starts at `start`, and the index after it."""
    end = line.find(b'"', start)
    if end < 0:
        return None
    value = line[start:end]
    if b"\\" in value:
        return None
    return value, end + 1


def _content_end(line: bytes, start: int) -> int:
    end = len(line)
    while end > start and line[end - 1] in b" \t\r\n":
        end -= 1
    return end


def top_level_type(line: bytes) -> bytes | None:
    """The `type` of the JSON object on this line, or None when it cannot be told for sure.

    `line` is one raw line (a trailing newline is fine). None is not "no type": it means
    "parse the line to know".
    """
    if line.startswith(_FIRST):
        found = _value_at(line, 9)
        return found[0] if found else None
    # The first `"type":"` key near the start: top level when one bracket precedes it.
    first = line.find(_KEY, 0, WINDOW)
    head_found = None
    if first > 0 and line[first - 1] in b"{,":
        head_found = _value_at(line, first + 8)
        if head_found is not None:
            balance, certain = _bracket_balance(line, 0, first)
            if certain:
                return head_found[0] if balance == 1 else None if balance < 1 else _tail_type(line, first)
    tail = _tail_type(line, first)
    if tail is not None:
        return tail
    # Slow but exact: count the brackets before the first key with strings skipped.
    if head_found is not None and _depth_change(line, 0, first) == 1:
        return head_found[0]
    return None


def _tail_type(line: bytes, first: int) -> bytes | None:
    """The last `"type":"` key near the end, when only the closing brace follows at its level."""
    last = line.rfind(_KEY, max(0, len(line) - WINDOW))
    if last <= 0 or last == first or line[last - 1] not in b"{,":
        return None
    found = _value_at(line, last + 8)
    if found is None:
        return None
    value, after = found
    end = _content_end(line, after)
    balance, certain = _bracket_balance(line, after, end)
    if not certain:
        balance = _depth_change(line, after, end)
    return value if balance == -1 else None
