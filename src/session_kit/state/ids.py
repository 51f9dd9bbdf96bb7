"""The one rule for ids the kit puts into paths and shell lines. Standard library only.

Owns: what a plain id is (a session id, an agent id, a slug, a file-name prefix): 1 to 128
of `[A-Za-z0-9._-]`, starting with a letter or a digit, with no `..`. Anything else (path
separators, NUL, spaces, a leading dot or dash, absurd length) could escape a folder or a
shell line, so it is refused. Does not know where ids come from.
"""

from __future__ import annotations

MAX_ID_LENGTH = 128
_ID_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")


class InvalidSessionId(ValueError):
    pass


def is_plain_id(value: object, *, max_length: int = MAX_ID_LENGTH) -> bool:
    """True when `value` is a plain id of at most `max_length` characters."""
    return (
        isinstance(value, str)
        and 0 < len(value) <= max_length
        and value[0].isascii()
        and value[0].isalnum()
        and set(value) <= _ID_CHARS
        and ".." not in value
    )


def check_session_id(value: object) -> str:
    """The id itself when it is plain; else InvalidSessionId saying what is wrong."""
    if not isinstance(value, str) or not value:
        raise InvalidSessionId("missing session id")
    if len(value) > MAX_ID_LENGTH:
        raise InvalidSessionId(f"session id longer than {MAX_ID_LENGTH} characters")
    if not is_plain_id(value):
        raise InvalidSessionId(f"not a plain session id: {value[:80]!r}")
    return value
