"""An entry's top-level `type`, read from the raw bytes of its line without parsing it.

Owns: deciding cheaply whether a transcript line is client noise, so that the ~80% of a
session's bytes that are noise are never JSON-parsed. Answers only when the answer is certain
and says "unsure" (None) otherwise; the caller then parses the line. Knows nothing about what
the types mean (that is `vocabulary`: its `NOISE_TYPE_BYTES` are what the readers skip).

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


def _value_at(line: bytes, start: int, end: int) -> tuple[bytes, int] | None:
    """The plain (escape-free) string value that starts at `start`, and the index after it."""
    close = line.find(b'"', start, end)
    if close < 0:
        return None
    value = line[start:close]
    if b"\\" in value:
        return None
    return value, close + 1


def _content_end(line: bytes, start: int, end: int) -> int:
    while end > start and line[end - 1] in b" \t\r\n":
        end -= 1
    return end


def top_level_type(line: bytes, begin: int = 0, end: int | None = None) -> bytes | None:
    """The `type` of the JSON object on this line, or None when it cannot be told for sure.

    The line is `line[begin:end]` (a trailing newline is fine), so a line can be looked at
    where it lies in a block that was read. None is not "no type": it means "parse the line
    to know".
    """
    if end is None:
        end = len(line)
    if line.startswith(_FIRST, begin, end):
        found = _value_at(line, begin + 9, end)
        return found[0] if found else None
    # The first `"type":"` key near the start: top level when one bracket precedes it.
    first = line.find(_KEY, begin, min(end, begin + WINDOW))
    head_found = None
    if first > begin and line[first - 1] in b"{,":
        head_found = _value_at(line, first + 8, end)
        if head_found is not None:
            balance, certain = _bracket_balance(line, begin, first)
            if certain:
                return head_found[0] if balance == 1 else None if balance < 1 else _tail_type(line, begin, end, first)
    tail = _tail_type(line, begin, end, first)
    if tail is not None:
        return tail
    # Slow but exact: count the brackets before the first key with strings skipped.
    if head_found is not None and _depth_change(line, begin, first) == 1:
        return head_found[0]
    return None


def _tail_type(line: bytes, begin: int, end: int, first: int) -> bytes | None:
    """The last `"type":"` key near the end, when only the closing brace follows at its level."""
    last = line.rfind(_KEY, max(begin, end - WINDOW), end)
    if last <= begin or last == first or line[last - 1] not in b"{,":
        return None
    found = _value_at(line, last + 8, end)
    if found is None:
        return None
    value, after = found
    stop = _content_end(line, after, end)
    balance, certain = _bracket_balance(line, after, stop)
    if not certain:
        balance = _depth_change(line, after, stop)
    return value if balance == -1 else None
