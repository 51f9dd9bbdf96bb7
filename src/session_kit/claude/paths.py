"""Where Claude Code keeps things, as pure functions on strings and paths.

Owns: the Claude root (`CLAUDE_CONFIG_DIR` or `~/.claude`), the project directory of a path
under `projects/` (the encoding itself is in `encoding`), and the fixed places of sessions,
subagent logs, plans, the prompt history and shell snapshots inside the root (plans: or where the `plansDirectory` setting puts
them), as `pathlib` paths for the commands (the names are `base.layout`'s). Does not touch the
file system beyond reading the environment; listing what exists is `base.layout`'s job.
"""

from __future__ import annotations

import os
from pathlib import Path

from session_kit.base import layout
from session_kit.base.encoding import MAX_ENCODED_LENGTH, encode_project_dir

__all__ = ["MAX_ENCODED_LENGTH", "encode_project_dir"]  # re-exported: paths is where people look


def claude_root(override: str | os.PathLike[str] | None = None) -> Path:
    """The Claude root: an explicit override, else `$CLAUDE_CONFIG_DIR`, else `~/.claude`."""
    if override:
        return Path(override).expanduser()
    configured = os.environ.get("CLAUDE_CONFIG_DIR")
    if configured:
        return Path(configured).expanduser()
    return Path.home() / ".claude"


def projects_dir(root: Path) -> Path:
    return root / layout.PROJECTS


def project_dir(root: Path, project_path: str | os.PathLike[str]) -> Path:
    return projects_dir(root) / encode_project_dir(project_path)


def session_file(project: Path, session_id: str) -> Path:
    return project / (session_id + layout.SESSION_SUFFIX)


def history_file(root: Path) -> Path:
    """The person's prompts, one JSON line each, kept long after the transcripts are deleted:
    `display`, `pastedContents`, `timestamp` (ms), `project` (the folder), `sessionId`."""
    return root / "history.jsonl"


def shell_snapshots_dir(root: Path) -> Path:
    """The shell's environment the client captures for its Bash tool (`snapshot-*.sh`)."""
    return root / "shell-snapshots"


def plans_dir(root: Path, plans_directory: str | None = None, *, project: str | os.PathLike[str] | None = None) -> Path:
    """Plan files: the `plansDirectory` setting when given, else `<root>/plans`.

    A relative setting is taken from the project folder (the session's `cwd`), as the client
    does (observed with 2.1.328: `"plansDirectory": "myplans"` gave `<project>/myplans/`);
    without a project, from the Claude root.
    """
    if plans_directory:
        p = Path(plans_directory).expanduser()
        if p.is_absolute():
            return p
        return Path(project) / p if project else root / p
    return root / layout.PLANS
