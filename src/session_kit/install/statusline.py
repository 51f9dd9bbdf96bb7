"""The kit's status line in a settings file: pure functions on the settings' dict.

Owns: the `statusLine` entry the kit writes (the fast script `usage/statusline_main.py`, run
with this machine's interpreter, marked as the kit's like its hooks), putting it in (never over
a status line of the person's own unless forced; the displaced one is returned to be kept)
and taking it out again. Does not: read or write the file (`install.installer`).
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from session_kit.errors import InvalidOptions
from session_kit.install.settings import MARKER

KEY = "statusLine"
SCRIPT = Path(__file__).resolve().parent.parent / "usage" / "statusline_main.py"


def statusline_entry(python: str) -> dict[str, Any]:
    """The kit's `statusLine`: its fast script, isolated mode, marked as the kit's."""
    command = f"{shlex.quote(python)} -I -S {shlex.quote(str(SCRIPT))} {MARKER}"
    return {"type": "command", "command": command, "padding": 0}


def is_kits(value: object) -> bool:
    return isinstance(value, Mapping) and str(value.get("command", "")).rstrip().endswith(MARKER)


def with_statusline(
    settings: Mapping[str, Any], entry: dict[str, Any], *, force: bool
) -> tuple[dict[str, Any], Any | None]:
    """Settings holding the kit's status line, and the person's own it displaced (None when
    none). A status line of the person's is refused (InvalidOptions, exit 2) unless `force`."""
    current = settings.get(KEY)
    if current is not None and not is_kits(current) and not force:
        command = current.get("command") if isinstance(current, Mapping) else current
        raise InvalidOptions(
            "your settings already set a status line; the kit's was not added ({} replaces yours, and "
            "uninstall puts yours back)",
            ("force",),
            detail=f": {str(command)[:100]}",
        )
    displaced = current if current is not None and not is_kits(current) else None
    return {**settings, KEY: entry}, displaced


def without_statusline(settings: Mapping[str, Any], displaced: Any | None = None) -> dict[str, Any]:
    """Settings without the kit's status line; the person's `displaced` one put back."""
    if not is_kits(settings.get(KEY)):
        return dict(settings)
    rest = {k: v for k, v in settings.items() if k != KEY}
    return {**rest, KEY: displaced} if displaced is not None else rest
