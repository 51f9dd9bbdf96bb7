"""The client's project-directory encoding, with nothing but builtins.

Owns: turning a project path into the folder name the client uses under `projects/`. Kept
apart from `paths` so the hooks can use it without importing pathlib.
"""

from __future__ import annotations

import os

MAX_ENCODED_LENGTH = 200
_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def _utf16_units(text: str) -> list[int]:
    """The UTF-16 code units of `text` (a lone surrogate as itself), computed: the codec's
    module is one more import on every hook's path."""
    units = []
    for char in text:
        code = ord(char)
        if code < 0x10000:
            units.append(code)
        else:
            code -= 0x10000
            units += (0xD800 | code >> 10, 0xDC00 | code & 0x3FF)
    return units


def _java_string_hash(units: list[int]) -> int:
    h = 0
    for unit in units:
        h = (31 * h + unit) & 0xFFFFFFFF
    return h - 0x100000000 if h & 0x80000000 else h


def _base36(n: int) -> str:
    if n == 0:
        return "0"
    digits = []
    while n:
        n, r = divmod(n, 36)
        digits.append(_BASE36[r])
    return "".join(reversed(digits))


def encode_project_dir(path: str | os.PathLike[str]) -> str:
    """The directory name the client gives the project at `path`.

    Every UTF-16 code unit that is not an ASCII letter or digit becomes `-` (so an emoji,
    two units, gives `--`). A name over 200 units keeps its first 200, then `-` and the base-36
    absolute value of the Java string hash of the full path.
    """
    text = os.fspath(path)
    units = _utf16_units(text)
    encoded = "".join(chr(u) if (48 <= u <= 57 or 65 <= u <= 90 or 97 <= u <= 122) else "-" for u in units)
    if len(encoded) <= MAX_ENCODED_LENGTH:
        return encoded
    return f"{encoded[:MAX_ENCODED_LENGTH]}-{_base36(abs(_java_string_hash(units)))}"
