"""The kit's own files outside settings: the slash-command files it copies into a Claude
root (marked, so only files the kit wrote are ever overwritten or removed), its private
bin folder (a `session-kit` launcher the hooks put on the Bash tool's PATH) and the hook
launcher the hook commands in settings run.

Owns: the marker, which command files the kit ships, copying and removing them, the
launchers, and the commands' names in their texts (written as the plugin calls them,
`/session-kit:NAME`; the copies installed into a Claude root name them bare, `/NAME`, as
that route calls them). Does not own: which folder a scope means (`claude.settings.commands_dir`) or
when they are installed (`install.installer`).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from session_kit.base import fileio
from session_kit.base.fileio import read_small
from session_kit.state import root as state

COMMAND_MARKER = "# claude-session-kit: installed copy; `session-kit uninstall` removes it"
COMMANDS_SOURCE = Path(__file__).resolve().parent.parent / "commands"


def bin_dir(root: str) -> str:
    return os.path.join(root, "bin")


def write_launcher(root: str, python: str) -> str:
    """`<state>/bin/session-kit`: runs this installation's CLI; the only file in that folder."""
    import shlex

    folder = state.ensure_dir(bin_dir(root), root=root)
    path = os.path.join(folder, "session-kit")
    script = f'#!/bin/sh\n# claude-session-kit launcher\nexec {shlex.quote(python)} -m session_kit "$@"\n'
    fileio.atomic_write(path, script.encode(), mode=0o755)
    return path


HOOK_LAUNCHER_MARK = "# claude-session-kit hook launcher"


def hook_launcher_path(root: str) -> str:
    """`<state>/hook`: what the kit's hook commands run; outside `bin/`, so not on the Bash
    tool's PATH, and short, since the client shows the commands it runs."""
    return os.path.join(root, "hook")


def write_hook_launcher(root: str, python: str, script: str) -> str:
    """The hook launcher: starts `python -I -S script EVENT` by `exec` (no process of its own
    left: one shell start more than running the interpreter inline); exits 0 doing nothing
    once the interpreter or the script is gone (the package removed before `uninstall`)."""
    import shlex

    path = hook_launcher_path(state.ensure_dir(root))
    text = (
        f"#!/bin/sh\n{HOOK_LAUNCHER_MARK}: `session-kit install` wrote it, `session-kit uninstall` removes it.\n"
        f"py={shlex.quote(python)} run={shlex.quote(script)}\n"
        '[ -x "$py" ] && [ -f "$run" ] || exit 0\n'
        f"SESSION_KIT_BIN_DIR={shlex.quote(bin_dir(root))}\n"
        "export SESSION_KIT_BIN_DIR\n"
        'exec "$py" -I -S "$run" "$@"\n'
    )
    fileio.atomic_write(path, text.encode(), mode=0o755)
    return path


def hook_launcher_targets(path: str) -> tuple[str, str] | None:
    """The interpreter and the hook script a hook launcher runs; None when it is gone or not one."""
    import shlex

    try:
        text = read_small(Path(path), 4096).decode("utf-8", "replace")
    except OSError:
        return None
    if HOOK_LAUNCHER_MARK not in text:
        return None
    for line in text.splitlines():
        if line.startswith("py="):
            try:
                values = dict(word.split("=", 1) for word in shlex.split(line))
            except ValueError:
                return None
            if "py" in values and "run" in values:
                return values["py"], values["run"]
    return None


def kit_command_files() -> list[Path]:
    try:
        return sorted(p for p in COMMANDS_SOURCE.iterdir() if p.suffix == ".md")
    except FileNotFoundError:
        return []


PLUGIN_NAME = "session-kit"  # .claude-plugin/plugin.json: the plugin's commands are /session-kit:NAME


def _bare_names(text: str) -> str:
    """The text with the kit's commands named as an installed copy is called: `/NAME`."""
    names = "|".join(re.escape(p.stem) for p in kit_command_files())
    if not names:
        return text
    return re.sub(rf"/{re.escape(PLUGIN_NAME)}:({names})(?![\w-])", r"/\1", text)


def _marked(text: str) -> str:
    text = _bare_names(text)
    lines = text.splitlines(keepends=True)
    if lines and lines[0].strip() == "---":
        return lines[0] + COMMAND_MARKER + "\n" + "".join(lines[1:])
    return f"---\n{COMMAND_MARKER}\n---\n{text}"


def is_kit_command(path: Path) -> bool:
    try:
        head = read_small(path, 4096).decode("utf-8", "replace")
    except OSError:  # unreadable, or a FIFO or device named like a command
        return False
    return COMMAND_MARKER in head


def install_command_files(target: Path, *, dry_run: bool) -> tuple[list[str], list[str], list[str]]:
    """The kit's commands copied into `target`: (those in place after it, those skipped since
    a file of the user's has the name, those written: new or changed; a dry run writes none)."""
    installed, skipped, written = [], [], []
    for source in kit_command_files():
        dest = target / source.name
        if dest.exists() and not is_kit_command(dest):
            skipped.append(source.stem)
            continue
        installed.append(source.stem)
        data = _marked(source.read_text(encoding="utf-8")).encode("utf-8")
        if _holds(dest, data):
            continue
        written.append(source.stem)
        if not dry_run:
            target.mkdir(parents=True, exist_ok=True)
            fileio.atomic_write(str(dest), data, mode=0o644)
    return installed, skipped, written


def _holds(path: Path, data: bytes) -> bool:
    try:
        return read_small(path, len(data) + 1) == data
    except OSError:
        return False


def remove_command_files(target: Path, *, dry_run: bool) -> list[str]:
    removed = []
    try:
        candidates = sorted(target.glob("*.md"))
    except OSError:
        return removed
    for path in candidates:
        if is_kit_command(path):
            removed.append(path.stem)
            if not dry_run:
                path.unlink(missing_ok=True)
    return removed
