"""The kit's health: where the Claude root and the kit's state are, what they hold, what is
installed and whether it is current. What `doctor` prints.

Owns: putting the report together from the Claude root (`sessions.store`), the kit's state
root and hook log (`state`), and the install status (`install.installer`). Does not print.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from session_kit import __version__
from session_kit.files import open_regular
from session_kit.install import installer
from session_kit.sessions.store import list_project_dirs, list_sessions
from session_kit.state import root as state

ROOT_FROM_OPTION = "option"
ROOT_FROM_ENV = "CLAUDE_CONFIG_DIR"
ROOT_DEFAULT = "default"


def doctor_report(
    *, claude_root: Path, root_source: str, project: Path, state_root: str | None = None
) -> dict[str, Any]:
    """The report as a JSON-ready dict; `ok` is true when the kit is installed and current
    for the user or for `project`."""
    state_root = state_root or state.state_root()
    projects = list_project_dirs(claude_root)
    sessions = sum(len(list_sessions(p)) for p in projects)
    installed = installer.status(claude_root=claude_root, project=project, root=state_root)
    log_path = Path(state_root) / "logs" / "hooks.log"
    try:
        with open_regular(log_path) as log:  # a FIFO or device in its place must not hang us
            hook_log_lines = sum(1 for _ in log)
    except OSError:
        hook_log_lines = 0
    return {
        "kit_version": __version__,
        "python": sys.executable,
        "claude_root": str(claude_root),
        "claude_root_exists": claude_root.is_dir(),
        "claude_root_source": root_source,
        "projects": len(projects),
        "sessions": sessions,
        "state_root": state_root,
        "installed": installed,
        "launcher": str(Path(installer.bin_dir(state_root)) / "session-kit"),
        "hook_log": str(log_path),
        "hook_log_lines": hook_log_lines,
        "ok": any(item["current"] for item in installed) and not any(item["dangling"] for item in installed),
    }


def root_source(explicit: bool, env: dict[str, str] | None = None) -> str:
    """Where the Claude root came from: an explicit option, `$CLAUDE_CONFIG_DIR`, or the default."""
    env = os.environ if env is None else env
    if explicit:
        return ROOT_FROM_OPTION
    return ROOT_FROM_ENV if env.get("CLAUDE_CONFIG_DIR") else ROOT_DEFAULT
