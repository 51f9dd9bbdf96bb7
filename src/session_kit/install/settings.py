"""The kit's hook entries in Claude Code settings, as pure functions on parsed settings.

Owns: recognising the kit's own hook entries (by a marker at the end of the command),
adding them (replacing outdated ones, never touching anyone else's), and removing them so
that the settings are again what they were. `install_hooks` also returns the containers it
had to create (`hooks`, `hooks.<Event>`); given back to `uninstall_hooks`, they make
`uninstall(install(s)) == s` exact. Reads and writes no files (that is `installer`).
"""

from __future__ import annotations

import copy
import os
import shlex
from collections.abc import Collection, Mapping
from typing import Any

from session_kit.base.hook_events import ALL_HOOK_EVENTS, HOOK_EVENTS

MARKER = "# claude-session-kit"
HOOK_TIMEOUT_S = 30
EVENTS = HOOK_EVENTS  # the events the kit hooks, and the argument its hook script takes for each


class SettingsError(ValueError):
    """The settings have a shape the kit will not edit (it says which part)."""


def hook_command(launcher: str, event: str) -> str:
    """The shell command for one event: the kit's hook launcher (`launcher`, a shell word, from
    `shell_path`) with the event's argument, marked as ours.

    Kept short: the client names the command it ran in what it shows, and after `/compact` the
    model receives `PreCompact [<command>] completed successfully`. The launcher does nothing
    once the kit's interpreter or package is gone; `|| :` covers the launcher itself gone (its
    state folder deleted): the command then exits 0 instead of failing every prompt.
    """
    return f"{launcher} {ALL_HOOK_EVENTS[event]} || : {MARKER}"


def shell_path(path: str, home: str | None) -> str:
    """`path` as one shell word: `~/…` below `home` (the shell running the hook expands it,
    and the line the client shows stays short whatever the home is called)."""
    home = (home or "").rstrip("/")
    if home and os.path.isabs(home) and path.startswith(home + "/"):
        return "~/" + shlex.quote(path[len(home) + 1 :])
    return shlex.quote(path)


def hook_launcher(command: str, home: str | None) -> str | None:
    """The launcher a command of this version's shape runs (`~` expanded with `home`); None for
    another shape (the older inline form, read by `hook_paths`)."""
    try:
        words = shlex.split(command, comments=True)
    except ValueError:
        return None
    if len(words) != 4 or words[2:] != ["||", ":"] or words[1] not in ALL_HOOK_EVENTS.values():
        return None
    if words[0].startswith("~/") and home:
        return os.path.join(home, words[0][2:])
    return words[0]


def hook_paths(command: str) -> tuple[str, str] | None:
    """The interpreter and the hook script an older command of the kit runs inline (the
    guarded `if [ -x … ] … fi` form and the plain one before it); None for another shape."""
    try:
        words = shlex.split(command, comments=True)
        at = words.index("-I")
        return words[at - 1], words[at + 2]
    except (ValueError, IndexError):
        return None


def is_ours(hook: object) -> bool:
    return (
        isinstance(hook, Mapping) and isinstance(hook.get("command"), str) and hook["command"].rstrip().endswith(MARKER)
    )


def _groups(hooks: dict[str, Any], event: str) -> list[Any]:
    groups = hooks[event]
    if not isinstance(groups, list):
        raise SettingsError(f"settings key hooks.{event} is not a list")
    return groups


def _strip_ours(groups: list[Any]) -> bool:
    """Remove the kit's entries from matcher groups in place; drop groups left empty by it."""
    changed = False
    kept = []
    for group in groups:
        inner = group.get("hooks") if isinstance(group, Mapping) else None
        if isinstance(inner, list) and any(is_ours(h) for h in inner):
            rest = [h for h in inner if not is_ours(h)]
            changed = True
            if not rest:
                continue
            group = dict(group)
            group["hooks"] = rest
        kept.append(group)
    groups[:] = kept
    return changed


def installed_commands(settings: Mapping[str, Any]) -> dict[str, list[str]]:
    """The kit's hook commands found in the settings, by event."""
    found: dict[str, list[str]] = {}
    hooks = settings.get("hooks")
    if not isinstance(hooks, Mapping):
        return found
    for event, groups in hooks.items():
        if not isinstance(groups, list):
            continue
        for group in groups:
            inner = group.get("hooks") if isinstance(group, Mapping) else None
            for h in inner if isinstance(inner, list) else []:
                if is_ours(h):
                    found.setdefault(event, []).append(h["command"])
    return found


def install_hooks(settings: Mapping[str, Any], commands: Mapping[str, str]) -> tuple[dict[str, Any], list[str]]:
    """Settings with the kit's hooks for `commands` ({event: command}); and what was created.

    Installing twice gives the same settings as installing once.
    """
    if not isinstance(settings, Mapping):
        raise SettingsError("the settings file does not hold a JSON object")
    new = copy.deepcopy(dict(settings))
    created: list[str] = []
    if "hooks" not in new:
        new["hooks"] = {}
        created.append("hooks")
    hooks = new["hooks"]
    if not isinstance(hooks, dict):
        raise SettingsError("settings key hooks is not an object")
    for event, command in commands.items():
        if event not in hooks:
            hooks[event] = []
            created.append(f"hooks.{event}")
        groups = _groups(hooks, event)
        _strip_ours(groups)
        groups.append({"hooks": [{"type": "command", "command": command, "timeout": HOOK_TIMEOUT_S}]})
    # An event the kit no longer hooks keeps no stale entry of ours.
    for event in list(hooks):
        if event not in commands and isinstance(hooks[event], list):
            _strip_ours(hooks[event])
    return new, created


def uninstall_hooks(settings: Mapping[str, Any], created: Collection[str] | None = None) -> dict[str, Any]:
    """Settings without the kit's hooks.

    `created` (from `install_hooks`) names the containers to drop again; without it, a
    container is dropped when removing the kit's entries left it empty.
    """
    new = copy.deepcopy(dict(settings))
    hooks = new.get("hooks")
    if not isinstance(hooks, dict):
        return new
    any_changed = False
    for event in list(hooks):
        groups = hooks[event]
        if not isinstance(groups, list):
            continue
        changed = _strip_ours(groups)
        any_changed = any_changed or changed
        drop = f"hooks.{event}" in created if created is not None else changed
        if not groups and drop:
            del hooks[event]
    drop_hooks = "hooks" in created if created is not None else any_changed
    if not hooks and drop_hooks:
        del new["hooks"]
    return new
