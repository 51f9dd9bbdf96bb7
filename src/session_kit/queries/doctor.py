"""The kit's health: where the Claude root and the kit's state are, what they hold, what is
installed and whether it is current. What `doctor` prints.

Owns: putting the report together from the Claude root (`sessions.store`), the kit's state
root and hook log (`state`), the install status (`install.status`), whether the kit
also runs as a plugin (enabled in a settings file, or its `bin/` on PATH inside a session),
with a warning when both routes are active, which routes are active (`routes`: the settings
install, the plugin; a marketplace install is a plugin enabled in a settings file), the
archive's (`queries.history`) and the search index's health (`index.db.health`). Does not
print.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from session_kit import __version__
from session_kit.base.fileio import open_regular, read_small
from session_kit.claude.paths import projects_dir
from session_kit.claude.settings import SCOPES
from session_kit.errors import KitError
from session_kit.install import installer, kit_files, mcp_servers
from session_kit.install.status import status as install_status
from session_kit.queries.history import archive_status
from session_kit.sessions.store import list_project_dirs, list_sessions
from session_kit.state import root as state

ROOT_FROM_OPTION = "option"
ROOT_FROM_ENV = "CLAUDE_CONFIG_DIR"
ROOT_DEFAULT = "default"


PLUGIN_NAME = "session-kit"  # .claude-plugin/plugin.json's name
ROUTE_SETTINGS = "settings"  # the kit's hooks in a settings file (`./install.sh`, `session-kit install`)
ROUTE_PLUGIN = "plugin"  # `claude --plugin-dir`, or a marketplace install (enabled in a settings file)
TWO_ROUTES = (
    "the kit is both installed (hooks in {settings}) and active as a plugin: every hook runs twice "
    "and the model is introduced twice; keep one: `session-kit uninstall` or disable the plugin"
)


def _scope_settings(claude_root: Path, project: Path) -> Iterator[tuple[Path, dict[str, Any]]]:
    """Each scope's settings file that can be read, with what it holds."""
    for scope in SCOPES:
        path = installer.settings_path(scope, claude_root, project)
        try:
            settings, _ = installer.load_settings(path, settle=False)
        except KitError:
            continue
        yield path, settings


def plugin_routes(*, claude_root: Path, project: Path, env: Mapping[str, str]) -> list[str]:
    """Where the kit runs as a plugin: enabled in a settings file, or (inside a session) a
    plugin's `bin/` on PATH, which its SessionStart hook put there."""
    found = []
    for path, settings in _scope_settings(claude_root, project):
        enabled = settings.get("enabledPlugins")
        if isinstance(enabled, dict):
            found += [
                f"enabled in {path} ({name})"
                for name, on in enabled.items()
                if on is True and isinstance(name, str) and name.split("@")[0] == PLUGIN_NAME
            ]
    for folder in env.get("PATH", "").split(os.pathsep):
        if os.path.basename(folder.rstrip(os.sep)) != "bin":
            continue
        root = os.path.dirname(folder.rstrip(os.sep))
        try:  # a regular file, and small: a FIFO in its place must not hang doctor
            name = json.loads(read_small(os.path.join(root, ".claude-plugin", "plugin.json"), 64 * 1024)).get("name")
        except (OSError, ValueError, AttributeError):
            continue
        if name == PLUGIN_NAME:
            found.append(f"its bin/ is on PATH: {root}")
    return found


def plugin_guard(*, claude_root: Path, project: Path) -> list[str]:
    """The settings files that turn the plugin's secret guard on (its `guard_secrets` option,
    kept under `pluginConfigs.<plugin>.options`)."""
    found = []
    for path, settings in _scope_settings(claude_root, project):
        configs = settings.get("pluginConfigs")
        for name, config in configs.items() if isinstance(configs, dict) else ():
            options = config.get("options") if isinstance(config, dict) else None
            on = isinstance(options, dict) and options.get("guard_secrets") in (True, "true")
            if on and name.split("@")[0] == PLUGIN_NAME:
                found.append(str(path))
    return found


def doctor_report(
    *,
    claude_root: Path,
    root_source: str,
    project: Path,
    state_root: str | None = None,
    env: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The report as a JSON-ready dict; `ok` is true when the kit is installed and current
    for the user or for `project`, or runs as a plugin, and nothing of it dangles."""
    env = os.environ if env is None else env
    state_root = state_root or state.state_root()
    projects = list_project_dirs(claude_root)
    sessions = sum(len(list_sessions(p)) for p in projects)
    installed = install_status(claude_root=claude_root, project=project, root=state_root)
    log_path = Path(state_root) / "logs" / "hooks.log"
    try:
        with open_regular(log_path) as log:  # a FIFO or device in its place must not hang us
            hook_log_lines = sum(1 for _ in log)
    except OSError:
        hook_log_lines = 0
    plugin = plugin_routes(claude_root=claude_root, project=project, env=env)
    with_hooks = [item["settings_path"] for item in installed if item["hooks"]]
    warnings = [TWO_ROUTES.format(settings=", ".join(with_hooks))] if plugin and with_hooks else []
    routes = [name for name, active in ((ROUTE_SETTINGS, with_hooks), (ROUTE_PLUGIN, plugin)) if active]
    current = any(item["current"] for item in installed)
    guard = [f"hooks in {item['settings_path']}" for item in installed if item.get("guard_secrets")]
    if plugin:
        guard += [f"plugin option in {where}" for where in plugin_guard(claude_root=claude_root, project=project)]
    return {
        "kit_version": __version__,
        "python": sys.executable,
        "claude_root": str(claude_root),
        "claude_root_exists": claude_root.is_dir(),
        "is_claude_root": projects_dir(claude_root).is_dir(),
        "claude_root_source": root_source,
        "projects": len(projects),
        "sessions": sessions,
        "state_root": state_root,
        "installed": installed,
        "launcher": str(Path(kit_files.bin_dir(state_root)) / "session-kit"),
        "hook_log": str(log_path),
        "hook_log_lines": hook_log_lines,
        "archive": archive_status(claude_root, state_root, project),
        "index": index_health(claude_root, state_root),
        "plugin": plugin,
        "mcp_server": mcp_servers.status(claude_root=claude_root, root=state_root),
        "guard_secrets": guard,
        "budgets": budget_report(state_root, env),
        "routes": routes,
        "warnings": warnings,
        "ok": (current or bool(plugin)) and not any(item["dangling"] for item in installed),
    }


def root_source(explicit: bool, env: dict[str, str] | None = None) -> str:
    """Where the Claude root came from: an explicit option, `$CLAUDE_CONFIG_DIR`, or the default."""
    env = os.environ if env is None else env
    if explicit:
        return ROOT_FROM_OPTION
    return ROOT_FROM_ENV if env.get("CLAUDE_CONFIG_DIR") else ROOT_DEFAULT


def index_health(claude_root: Path, state_root: str) -> dict[str, Any]:
    """The search index of `claude_root`: `ok`, `missing` or `damaged` (and why); a damaged
    one is set aside and made again by the next `search` or `export`."""
    from session_kit.index.db import health

    return health(state_root, claude_root)


def budget_report(state_root: str, env: Mapping[str, str]) -> dict[str, Any]:
    """The budgets set now: per session (the base, before any session's `session-kit budget`),
    per subagent (the general one and by type), and each malformed value, which is left out."""
    from session_kit.state import budgets

    session = budgets.session_budget(state_root, env)
    general = budgets.agent_budget(state_root, env, None)
    section = budgets.config(state_root).get("agents")
    by_type = section.get("budget_by_type") if isinstance(section, dict) else None
    types = {}
    for name in by_type if isinstance(by_type, dict) else ():
        value = budgets.agent_budget(state_root, env, str(name))
        types[str(name)] = value
    return {
        "session": None if session is None else {"amount": session.amount, "unit": session.unit, "text": str(session)},
        "agent": general,
        "agent_by_type": types,
        "problems": budgets.problems(state_root, env),
    }
