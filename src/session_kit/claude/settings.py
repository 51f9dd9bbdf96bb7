"""Claude Code's settings files, read-only: which file each scope means, and what the kit reads.

Owns: the settings file and the slash-command folder of each scope (user: the Claude root;
project: `<project>/.claude/settings.json`; local: `<project>/.claude/settings.local.json`),
reading one as the client would (a missing or invalid file gives nothing), and the
`plansDirectory` setting with the folders that hold plan files. Changing settings is
`install`'s job.
"""

from __future__ import annotations

import json
from pathlib import Path

from session_kit.claude import paths
from session_kit.files import read_small

SCOPE_USER = "user"
SCOPE_PROJECT = "project"
SCOPE_LOCAL = "local"
SCOPES = (SCOPE_USER, SCOPE_PROJECT, SCOPE_LOCAL)
# A settings file is a few kB; reading stops here (a link to /dev/zero never ends).
MAX_SETTINGS_BYTES = 4 * 1024 * 1024


def settings_path(scope: str, claude_root: Path, project: Path) -> Path:
    """The settings file of `scope`; ValueError for an unknown scope."""
    if scope == SCOPE_USER:
        return claude_root / "settings.json"
    if scope == SCOPE_PROJECT:
        return project / ".claude" / "settings.json"
    if scope == SCOPE_LOCAL:
        return project / ".claude" / "settings.local.json"
    raise ValueError(f"unknown scope {scope!r} (expected one of {', '.join(SCOPES)})")


def commands_dir(scope: str, claude_root: Path, project: Path) -> Path:
    """Where slash-command files of `scope` live (the local scope shares the project's)."""
    return claude_root / "commands" if scope == SCOPE_USER else project / ".claude" / "commands"


def read_setting(path: Path, key: str) -> object:
    """`key` of the settings file at `path`, or None when the file is missing, invalid or
    lacks it (the client would not use it either)."""
    try:
        value = json.loads(read_small(path, MAX_SETTINGS_BYTES))
    except (OSError, ValueError, RecursionError):
        return None
    return value.get(key) if isinstance(value, dict) else None


def plans_directory_setting(root: Path, project: str | None) -> str | None:
    """`plansDirectory` from the project's local, then shared, then the user's settings."""
    scopes = (SCOPE_LOCAL, SCOPE_PROJECT, SCOPE_USER) if project else (SCOPE_USER,)
    for scope in scopes:
        setting = read_setting(settings_path(scope, root, Path(project or ".")), "plansDirectory")
        if isinstance(setting, str) and setting.strip():
            return setting
    return None


def plan_dirs(root: Path, project: str | None) -> list[Path]:
    """The configured plans folder, then the default one (a setting may have changed)."""
    configured = paths.plans_dir(root, plans_directory_setting(root, project), project=project)
    default = paths.plans_dir(root)
    return [configured] if configured == default else [configured, default]
