"""A field read from a file's head, as the client writes it: the one head-field reader.
Standard library only (the status line and the hooks' children use it).

Owns: the first non-empty `"key":"value"` string among a file's first bytes (`head_field`: a
session id, a cwd, a slug, a client version), found by byte search, never by parsing a line,
in growing reads up to a bound; the same in bytes already read (`field_in`: the archive's
copies); the bytes a field is written as (`field_needles`, with and without a space). A value
cut by the end of what was read is never taken; a FIFO is never waited on. Does not: know
where files are (`base.layout`) or read whole entries (`transcript.reader`).
"""

from __future__ import annotations

from session_kit.base import fastjson
from session_kit.base.fileio import open_regular

HEAD_FIELD_BYTES = 256 * 1024  # how far into a file its session id or cwd is looked for
_HEAD_STEP = 8 * 1024


def field_needles(key: bytes, value: bytes) -> tuple[bytes, bytes]:
    """`"key":"value"` as the client writes it, with and without a space."""
    return b'"' + key + b'":"' + value + b'"', b'"' + key + b'": "' + value + b'"'


def field_in(data: bytes, key: bytes) -> str | None:
    """The first non-empty top-level-looking string `"key": "value"` in `data`, decoded; a
    value cut by the end of `data` is not one."""
    needle = b'"' + key + b'"'
    at = data.find(needle)
    while at >= 0:
        start = at + len(needle)
        while data[start : start + 1] in (b" ", b"\t"):
            start += 1
        if data[start : start + 1] == b":":
            start += 1
            while data[start : start + 1] in (b" ", b"\t"):
                start += 1
            if data[start : start + 1] == b'"':
                value = _string_at(data, start + 1)
                if value:
                    return value
        at = data.find(needle, at + 1)
    return None


def _string_at(data: bytes, start: int) -> str | None:
    end = start
    while True:
        end = data.find(b'"', end)
        if end < 0 or data[start:end].find(b"\n") >= 0:
            return None
        backslashes = 0
        while data[end - 1 - backslashes : end - backslashes] == b"\\":
            backslashes += 1
        if not backslashes % 2:
            break
        end += 1
    raw = data[start:end]
    if b"\\" not in raw:
        return raw.decode("utf-8", "replace")
    try:
        value = fastjson.loads(b'"' + raw + b'"')
    except ValueError:
        return None
    return value if isinstance(value, str) else None


def head_field(path: str, key: bytes, *, limit: int = HEAD_FIELD_BYTES) -> str | None:
    """The first non-empty `"key":"value"` string among a file's first `limit` bytes, read
    in growing steps and never parsed (a session id, a cwd, a slug, a version); None for a
    file that cannot be read or is not a regular one (a FIFO is never waited on)."""
    try:
        f = open_regular(path)
    except (OSError, ValueError):
        return None
    with f:
        data = b""
        step = _HEAD_STEP
        while len(data) < limit:
            chunk = f.read(min(step, limit - len(data)))
            if not chunk:
                break
            data += chunk
            value = field_in(data, key)
            if value is not None:
                return value
            step *= 2
    return None
