"""The one rule for "the current session". Standard library only (the hooks use it).

Owns: which session a command means when the user names none. In order:
1. the environment: `SESSION_CONTEXT="session_id=<id>"` (the kit's hooks export it to the
   Bash tool and to slash commands' `!` lines), else `CLAUDE_CODE_SESSION_ID` (set by current
   clients in Bash tool calls and hooks);
2. the project's pointer: `current-session-id`, which the SessionStart hook writes for the
   project (or its nearest recorded parent folder).
Callers that can also list transcripts (`sessions.resolve`) fall back to the project's newest
session after that. Does not check that the session exists.
"""

from __future__ import annotations

import os

from session_kit.base.encoding import encode_project_dir
from session_kit.base.fileio import read_small
from session_kit.state import root as layout

# Annotations only: `collections.abc` costs the hooks ~2 ms to import (and `typing` more).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

MAX_POINTER_BYTES = 4096  # a session id and a newline
SOURCE_ENV = "environment"
SOURCE_POINTER = "pointer"


def project_key_for(path: str) -> str:
    """The key a project's sessions are grouped under: the client's own folder name for it."""
    return encode_project_dir(os.path.abspath(path))


def session_id_from_env(env: Mapping[str, str] | None = None) -> str | None:
    """`SESSION_CONTEXT="session_id=<id>"`, else `CLAUDE_CODE_SESSION_ID`; None when neither."""
    env = os.environ if env is None else env
    context = env.get("SESSION_CONTEXT", "")
    for part in context.replace(",", " ").replace(";", " ").split():
        if part.startswith("session_id="):
            value = part[len("session_id=") :].strip().strip("\"'")
            if value:
                return value
    value = env.get("CLAUDE_CODE_SESSION_ID", "").strip()
    return value or None


def read_pointer(root: str, project_path: str) -> str | None:
    """The current session id recorded for `project_path` or its nearest recorded parent."""
    here = os.path.abspath(project_path)
    while True:
        value = _pointed(layout.pointer_path(root, project_key_for(here)))
        if value:
            return value
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def current_session_id(
    *, env: Mapping[str, str] | None = None, state_root: str | None = None, project_path: str | None = None
) -> tuple[str, str] | None:
    """`(session id, where it came from)` by the rule above, or None.

    The pointer is looked up only with a `state_root`; `project_path` defaults to
    `$CLAUDE_PROJECT_DIR`, else the current directory.
    """
    env = os.environ if env is None else env
    from_env = session_id_from_env(env)
    if from_env:
        return from_env, SOURCE_ENV
    if state_root is None:
        return None
    where = project_path or env.get("CLAUDE_PROJECT_DIR") or os.getcwd()
    pointed = read_pointer(state_root, where)
    return (pointed, SOURCE_POINTER) if pointed else None


def every_current_session_id(root: str, env: Mapping[str, str] | None = None) -> set[str]:
    """Every session some rule calls current: the environment's and every project pointer's
    (cleaning must never remove one of them)."""
    ids = set()
    from_env = session_id_from_env(env)
    if from_env:
        ids.add(from_env)
    base = layout.projects_root(root)
    try:
        keys = os.listdir(base)
    except OSError:
        keys = []
    for key in keys:
        value = _pointed(layout.pointer_path(root, key))
        if value:
            ids.add(value)
    return ids


def _pointed(pointer: str) -> str | None:
    """The session id a pointer file holds; None when it is missing, unreadable or empty."""
    try:
        return read_small(pointer, MAX_POINTER_BYTES).decode("utf-8").strip() or None
    except (OSError, ValueError):
        return None
