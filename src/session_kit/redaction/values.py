"""A JSON-like value's strings taken out to be redacted together, and put back.

Owns: `collect` (the strings of a value, in order, and its skeleton; a string under a
secret's name, `"password": …`, replaced whole), `fill` (the skeleton with the strings put
back) and `is_secret_name`. Used by `engine.shown_value`; does not redact.
"""

from __future__ import annotations

from collections.abc import Iterator

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def is_secret_name(name: str) -> bool:
    """A parameter or field name whose value is a secret as a whole (`password`, `api_key`…)."""
    low = name.lower().replace("-", "_")
    return low in _SECRET_FIELDS or low.endswith(("password", "passwd", "_secret", "_token", "api_key", "apikey"))


_SECRET_FIELDS = frozenset(
    {"password", "passwd", "secret", "token", "api_key", "apikey", "access_token", "private_key"}
)


class _Text:
    """Where a string of a value was, in the value's skeleton."""

    __slots__ = ()


_TEXT = _Text()


def collect(value: Any, texts: list[str]) -> Any:
    if isinstance(value, str):
        texts.append(value)
        return _TEXT
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if isinstance(item, str) and item and isinstance(key, str) and is_secret_name(key):
                out[key] = f"[REDACTED:{'password' if 'passw' in key.lower() else 'secret'}]"
            else:
                out[key] = collect(item, texts)
        return out
    if isinstance(value, (list, tuple)):
        return [collect(item, texts) for item in value]
    return value


def fill(skeleton: Any, texts: Iterator[str]) -> Any:
    if skeleton is _TEXT:
        return next(texts)
    if isinstance(skeleton, dict):
        return {key: fill(item, texts) for key, item in skeleton.items()}
    if isinstance(skeleton, list):
        return [fill(item, texts) for item in skeleton]
    return skeleton
