"""The install's receipts: what the kit wrote where, kept in the state root's `install/` folder
so uninstall can take back exactly that.

Owns: reading one receipts file (a JSON object; a missing, unreadable or malformed one is no
receipts) and writing it (0600 through `fileio`; none left when empty, where asked). Each
installer keeps its own file (`receipts.json` for settings, `mcp-servers.json` for the client's
config). Does not decide what a receipt holds.
"""

from __future__ import annotations

import os
from typing import Any

from session_kit.base import fileio
from session_kit.state import root as state

MAX_BYTES = 16 << 20  # a few kB: one entry per file the kit changed


def path_of(root: str, name: str) -> str:
    return os.path.join(root, "install", name)


def load(root: str, name: str) -> dict[str, Any]:
    try:
        value = fileio.read_json(path_of(root, name), MAX_BYTES)
    except (OSError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def store(root: str, name: str, receipts: dict[str, Any], *, drop_empty: bool = False) -> None:
    if drop_empty and not receipts:
        try:
            os.unlink(path_of(root, name))
        except FileNotFoundError:
            pass
        return
    state.ensure_dir(os.path.join(root, "install"), root=root)
    fileio.write_json(path_of(root, name), receipts, indent=1, sort_keys=True)
