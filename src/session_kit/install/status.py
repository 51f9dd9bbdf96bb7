"""What of the kit is installed where, for `doctor`: the kit's hooks in each scope's settings,
whether they are current, its slash commands, and what of it points at nothing.

Owns: reading that state. Does not change anything: installing and taking out is
`install.installer`'s.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from session_kit.claude.settings import SCOPE_USER, SCOPES, commands_dir
from session_kit.errors import KitError
from session_kit.install.installer import (
    GUARD_EVENT,
    expected_commands,
    expected_launcher,
    folder_users,
    load_receipts,
    load_settings,
    settings_path,
)
from session_kit.install.kit_files import bin_dir, hook_launcher_targets, is_kit_command
from session_kit.install.settings import hook_launcher, hook_paths, installed_commands
from session_kit.state import root as state


def status(*, claude_root: Path, project: Path, root: str | None = None) -> list[dict[str, Any]]:
    """What is installed where, and whether it is current (for `doctor`)."""
    root = root or state.state_root()
    expected = expected_commands(root)
    receipts = load_receipts(root)
    report = []
    for scope in SCOPES:
        path = settings_path(scope, claude_root, project)
        try:
            settings, _ = load_settings(path, settle=False)
            error = None
        except KitError as exc:
            settings, error = {}, exc.message
        found = installed_commands(settings)
        target = commands_dir(scope, claude_root, project)
        commands = sorted(p.stem for p in target.glob("*.md") if is_kit_command(p)) if target.is_dir() else []
        users = folder_users(receipts, target)  # the user and the local scope share the root's folder
        if str(path) not in users and (scope != SCOPE_USER or users):
            commands = []  # another install's
        if not found and not commands and error is None:
            continue
        guard = GUARD_EVENT in found
        wanted = expected_commands(root, guard_secrets=True) if guard else expected
        current = all(found.get(event) == [command] for event, command in wanted.items())
        current = current and _launcher_runs(found, expected_launcher())
        report.append(
            {
                "scope": scope,
                "settings_path": str(path),
                "hooks": found,
                "guard_secrets": guard,
                "current": current,
                "commands": commands,
                "dangling": dangling_entries(found, commands, root),
                "error": error,
            }
        )
    return report


def dangling_entries(hooks: dict[str, list[str]], commands: list[str], root: str) -> list[str]:
    """What of the kit is left pointing at nothing: hooks whose interpreter or hook script is
    gone (the package was removed before `session-kit uninstall`), and slash commands whose
    `!` lines call a `session-kit` that is neither on PATH nor the kit's launcher."""
    found = []
    for event, event_commands in sorted(hooks.items()):
        for command in event_commands:
            launcher = hook_launcher(command, os.environ.get("HOME"))
            paths = hook_launcher_targets(launcher) if launcher else hook_paths(command)
            if launcher and paths is None:
                found.append(f"hook {event}: its launcher {launcher} is missing")
                continue
            if paths is None:
                continue
            python, script = paths
            if not os.access(python, os.X_OK):
                found.append(f"hook {event}: interpreter {python} is missing")
            elif not os.path.isfile(script):
                found.append(f"hook {event}: kit module {script} is missing")
    if commands and not _session_kit_runs(root):
        names = ", ".join("/" + c for c in commands)
        found.append(f"slash commands {names} call `session-kit`, which is not on PATH and has no launcher")
    return found


def _launcher_runs(hooks: dict[str, list[str]], wanted: tuple[str, str]) -> bool:
    """Whether each hook launcher the commands run starts this installation's hook."""
    launchers = {hook_launcher(c, os.environ.get("HOME")) for commands in hooks.values() for c in commands}
    return all(hook_launcher_targets(path) == wanted for path in launchers if path)


def _session_kit_runs(root: str) -> bool:
    import shutil

    if shutil.which("session-kit"):
        return True
    launcher = os.path.join(bin_dir(root), "session-kit")
    try:
        with open(launcher, encoding="utf-8", errors="replace") as f:
            script = f.read(4096)
    except OSError:
        return False
    import shlex

    for line in script.splitlines():
        if line.startswith("exec "):
            words = shlex.split(line)
            return len(words) > 1 and os.access(words[1], os.X_OK)
    return False
