"""Installing the kit into Claude Code and taking it out again: the file side.

Owns: which settings file a scope means, loading it (an invalid file is refused and left
byte for byte as it was; a blank one is read again until it has settled, since an editor
saving in place truncates before it writes), saving it (lock, atomic replace only if the
file is still what was read, else the change is redone on top of the new file; read again
after the replace and redone if someone saved over it; a backup in the kit's state root of
what the replace displaced, never of a blank file; through a symlink to its target; numbers
keep their text; same mode), temp files of killed installs (in its own folders too), the
receipt of what an install created, the slash-command files copied into the Claude root
(only files the kit marked are ever overwritten or removed; their folder goes again when the
install made it), the kit's private bin folder (a `session-kit` launcher the hooks put on the
Bash tool's PATH), and tidying the state root when the last install goes. What
changes inside the settings is decided by the pure functions of `settings`.
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from session_kit.base import fileio
from session_kit.base.hook_events import OPT_IN_EVENTS
from session_kit.claude.settings import SCOPE_PROJECT, commands_dir
from session_kit.claude.settings import settings_path as scope_settings_path
from session_kit.errors import BadFile, InvalidOptions, KitError
from session_kit.install import receipts as receipts_file
from session_kit.install.kit_files import (
    bin_dir,
    hook_launcher_path,
    install_command_files,
    kit_command_files,
    remove_command_files,
    write_hook_launcher,
    write_launcher,
)
from session_kit.install.settings import (
    EVENTS,
    SettingsError,
    hook_command,
    install_hooks,
    installed_commands,
    shell_path,
    uninstall_hooks,
)
from session_kit.install.settings_file import (
    Replaced,
    SettingsRead,
    dump_settings,
    mode_of,
    parse_settings,
    read_settings_file,
    remove_if_unchanged,
    remove_stale_temp_files,
    replace_if_unchanged,
    write_target,
)
from session_kit.install.statusline import KEY as STATUSLINE_KEY
from session_kit.install.statusline import is_kits, statusline_entry, with_statusline, without_statusline
from session_kit.state import root as state

PACKAGE_DIR = Path(__file__).resolve().parent.parent
HOOK_SCRIPT = PACKAGE_DIR / "hooks" / "run.py"
MAX_BACKUPS = 10
MAX_ATTEMPTS = 100  # read-modify-write rounds against editors saving the file meanwhile


@dataclass(frozen=True)
class InstallResult:
    scope: str
    settings_path: Path
    dry_run: bool
    changed: bool
    before: dict[str, Any]
    after: dict[str, Any]
    backup: Path | None = None
    commands_installed: list[str] = field(default_factory=list)
    commands_skipped: list[str] = field(default_factory=list)  # the user's own files of that name
    commands_removed: list[str] = field(default_factory=list)
    commands_dir: Path | None = None  # where the slash commands go (or went)
    commands_written: list[str] = field(default_factory=list)  # new or changed by this install

    @property
    def statusline(self) -> bool:
        """Whether the settings now hold the kit's status line."""
        return is_kits(self.after.get(STATUSLINE_KEY))

    @property
    def statusline_change(self) -> str | None:
        """ "added" or "removed" when this run changes the kit's status line; else None."""
        was, now = is_kits(self.before.get(STATUSLINE_KEY)), self.statusline
        return None if was == now else ("added" if now else "removed")

    @property
    def guard_secrets(self) -> bool:
        """Whether the settings now hold the secret guard (`hooks.guard`)."""
        return GUARD_EVENT in installed_commands(self.after)

    def hook_changes(self) -> dict[str, list[str]]:
        """The events whose kit hook this run adds, updates (a new command) or removes."""
        before, after = installed_commands(self.before), installed_commands(self.after)
        return {
            "added": sorted(set(after) - set(before)),
            "updated": sorted(e for e in set(after) & set(before) if after[e] != before[e]),
            "removed": sorted(set(before) - set(after)),
        }

    def as_dict(self) -> dict[str, Any]:
        return {
            "scope": self.scope,
            "settings_path": str(self.settings_path),
            "dry_run": self.dry_run,
            "changed": self.changed,
            "backup": str(self.backup) if self.backup else None,
            "hooks": installed_commands(self.after),
            "guard_secrets": self.guard_secrets,
            "statusline": self.statusline,
            "commands_installed": self.commands_installed,
            "commands_skipped": self.commands_skipped,
            "commands_removed": self.commands_removed,
            "commands_dir": str(self.commands_dir) if self.commands_dir else None,
            "commands_written": self.commands_written,
        }


def load_settings(path: Path, *, settle: bool = True) -> tuple[dict[str, Any], bytes | None]:
    """The parsed settings and the file's bytes (None when there is no file)."""
    return _parsed(path, read_settings_file(path, settle=settle).raw)


def _parsed(path: Path, raw: bytes | None) -> tuple[dict[str, Any], bytes | None]:
    if raw is None:
        return {}, None
    try:
        value = parse_settings(raw)
    except (ValueError, RecursionError) as exc:
        raise BadFile(f"{path} is not valid JSON ({exc}); it was left as it was", path=str(path)) from None
    if not isinstance(value, dict):
        raise BadFile(f"{path} does not hold a JSON object; it was left as it was", path=str(path))
    return value, raw


def _key(path: Path) -> str:
    return hashlib.sha256(str(path.absolute()).encode()).hexdigest()[:16]


def _backup(root: str, path: Path, original: bytes) -> Path:
    folder = Path(state.ensure_dir(os.path.join(root, "install", "backups"), root=root))
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime())
    target = folder / f"{_key(path)}-{path.name}.{stamp}.{os.getpid()}"
    fileio.atomic_write(str(target), original)
    older = sorted(folder.glob(f"{_key(path)}-{path.name}.*[0-9]"))
    for stale in older[:-MAX_BACKUPS]:
        stale.unlink(missing_ok=True)
    return target


def _keep_original(root: str, path: Path, original: bytes) -> Path:
    """The settings as they were before the kit's first install; never pruned."""
    folder = Path(state.ensure_dir(os.path.join(root, "install", "backups"), root=root))
    target = folder / f"{_key(path)}-{path.name}.original"
    fileio.atomic_write(str(target), original)
    return target


# --- receipts ---------------------------------------------------------------------------------


def _receipts_path(root: str) -> str:
    return receipts_file.path_of(root, "receipts.json")


def load_receipts(root: str) -> dict[str, Any]:
    return receipts_file.load(root, "receipts.json")


def _store_receipts(root: str, kept: dict[str, Any]) -> None:
    receipts_file.store(root, "receipts.json", kept)


def settings_path(scope: str, claude_root: Path, project: Path) -> Path:
    try:
        return scope_settings_path(scope, claude_root, project)
    except ValueError as exc:
        raise KitError(str(exc)) from None


# --- install / uninstall ----------------------------------------------------------------------


GUARD_EVENT = "PostToolUse"  # the secret guard's event (`events.OPT_IN_EVENTS`)


def expected_commands(root: str, *, guard_secrets: bool = False) -> dict[str, str]:
    """The kit's hook command for each event it hooks; the secret guard's only when asked."""
    events = [*EVENTS, *(OPT_IN_EVENTS if guard_secrets else ())]
    launcher = shell_path(hook_launcher_path(root), os.environ.get("HOME"))
    return {event: hook_command(launcher, event) for event in events}


def expected_launcher() -> tuple[str, str]:
    """What this installation's hook launcher runs: its interpreter and hook script."""
    return sys.executable, str(HOOK_SCRIPT)


def _lock(root: str, path: Path) -> state.locked:
    """The kit's lock (0600, `state.locked`) around changing one settings file."""
    folder = state.ensure_dir(os.path.join(root, "locks"), root=root)
    return state.locked(os.path.join(folder, f"settings-{_key(path)}"), timeout=30)


def _read_for_change(path: Path, receipt: dict[str, Any] | None, root: str) -> tuple[SettingsRead, dict[str, Any]]:
    """The settings file, read to be changed: refused (BadFile) when it cannot be parsed, and
    when it is blank though the kit's hooks were put in it (an editor that failed mid-save,
    or a transient read): writing the kit's hooks alone would drop everything else."""
    seen = read_settings_file(path)
    settings, _ = _parsed(path, seen.raw)
    if seen.raw is not None and not seen.raw.strip() and receipt is not None:
        latest = sorted(Path(root, "install", "backups").glob(f"{_key(path)}-{path.name}.*[0-9]"))
        where = f" (the latest backup is {latest[-1]})" if latest else ""
        raise BadFile(
            f"{path} is empty, but held the kit's hooks{where}; it was left as it was (delete it to start afresh)",
            path=str(path),
        )
    return seen, settings


def _back_up_displaced(root: str, path: Path, replaced: Replaced) -> Path | None:
    """A backup of what the replace displaced; none of a blank file (nothing to keep)."""
    if replaced.displaced is None or not replaced.displaced.strip():
        return None
    return _backup(root, path, replaced.displaced)


def _now_holds(path: Path, settings: dict[str, Any]) -> bool:
    """Whether the settings file, read again after the replace, holds `settings`."""
    try:
        return _parsed(path, read_settings_file(path).raw)[0] == settings
    except BadFile:
        return False


def _cleanup_temp_files(path: Path, target: Path, root: str) -> None:
    """Temp files killed installs left: beside the settings file and the slash commands (of
    those files only), and any in the kit's own install and backups folders."""
    remove_stale_temp_files(write_target(path).parent, [write_target(path).name])
    remove_stale_temp_files(target, [p.name for p in kit_command_files()])
    for folder in (os.path.join(root, "install"), os.path.join(root, "install", "backups")):
        remove_stale_temp_files(folder)


def install(
    *,
    scope: str,
    claude_root: Path,
    project: Path,
    dry_run: bool = False,
    root: str | None = None,
    guard_secrets: bool | None = None,
    statusline: bool | None = None,
    force: bool = False,
) -> InstallResult:
    """The kit's hooks and slash commands into `scope`'s settings; with `guard_secrets` the
    secret guard too (False takes it out; None keeps it as the settings have it). The project scope is refused:
    its file is the one teams commit, and the hooks name this machine's interpreter and state
    by absolute path, which would break every other person's sessions. `statusline`: put the
    kit's status line in (never over the person's own unless `force`; theirs is kept in the
    receipt and put back by uninstall), or take it out (False); None keeps it as it is."""
    if scope == SCOPE_PROJECT:
        interpreter = sys.executable.replace("{", "{{").replace("}", "}}")
        raise InvalidOptions(
            "{} project is refused: .claude/settings.json is the file teams commit, and the kit's hooks "
            f"run this machine's interpreter by absolute path ({interpreter}); use {{}} local "
            "(.claude/settings.local.json, yours alone) or load the kit as a plugin (see the README)",
            ("scope", "scope"),
        )
    root = root or state.state_root()
    path = settings_path(scope, claude_root, project)
    state.ensure_dir(root)
    target = commands_dir(scope, claude_root, project)
    target_made = not target.exists()  # then uninstall removes it again, once it is empty
    started = state.now_iso()
    with _lock(root, path):
        for _attempt in range(MAX_ATTEMPTS):
            receipts = load_receipts(root)
            seen, before = _read_for_change(path, receipts.get(str(path)), root)
            original = seen.raw
            try:
                guard = GUARD_EVENT in installed_commands(before) if guard_secrets is None else guard_secrets
                after, created = install_hooks(before, expected_commands(root, guard_secrets=guard))
            except SettingsError as exc:
                raise BadFile(f"{path}: {exc}; it was left as it was", path=str(path)) from None
            displaced = receipts.get(str(path), {}).get("statusline_displaced")
            if statusline:
                after, mine = with_statusline(after, statusline_entry(sys.executable), force=force)
                displaced = mine if mine is not None else displaced
            elif statusline is False:
                after, displaced = without_statusline(after, displaced), None
            if original is None:
                created = ["file", *created]  # uninstall removes the file again, as it was
            changed = after != before
            backup = None
            installed, skipped, written = install_command_files(target, dry_run=True)
            if dry_run:
                break
            prior = receipts.get(str(path), {})
            if not prior and installed_commands(before):
                # The kit's hooks are there but its receipt is not (state dir removed, or an
                # install from elsewhere): what was created is unknown, and uninstall will drop
                # only the containers it empties.
                keep_created = None
            elif prior and prior.get("created") is None:
                keep_created = None
            else:
                keep_created = sorted(set(prior.get("created", [])) | set(created))
            if original is not None and not prior.get("original"):
                prior = {**prior, "original": str(_keep_original(root, path, original))}
            # The receipt first: an install killed after changing the settings must still
            # leave a record of what it created, or a later uninstall could not undo it.
            receipt = {
                "scope": scope,
                "created": keep_created,
                # The file as it was before the first install: uninstall gives back these bytes.
                "original": prior.get("original"),
                "commands_dir": str(target),
                "commands_dir_created": prior.get("commands_dir_created", target_made),
                "python": sys.executable,
                "installed_at": started,
                **({"statusline_displaced": displaced} if displaced is not None else {}),
            }
            if receipts.get(str(path)) != receipt:  # a retry after a concurrent edit: often the same
                receipts[str(path)] = receipt
                _store_receipts(root, receipts)
            write_hook_launcher(root, *expected_launcher())  # before the commands that run it
            if changed:
                write_target(path).parent.mkdir(parents=True, exist_ok=True)
                replaced = replace_if_unchanged(path, dump_settings(after), seen, mode=mode_of(write_target(path)))
                if replaced is None:
                    continue  # changed by someone else since it was read: redo on top of theirs
                backup = _back_up_displaced(root, path, replaced)
                if not _now_holds(path, after):
                    continue  # saved over right after the replace: redo on top of that save
            break
        else:
            raise BadFile(f"{path} kept changing while the kit tried to install; it was left as it was", path=str(path))
        if not dry_run:
            _cleanup_temp_files(path, target, root)
            installed, skipped, written = install_command_files(target, dry_run=False)
            earlier = prior.get("commands_dir")
            if earlier and Path(earlier) != target and not folder_users(receipts, Path(earlier)) - {str(path)}:
                remove_command_files(Path(earlier), dry_run=False)  # an older kit put them in the project
            write_launcher(root, sys.executable)
    return InstallResult(
        scope,
        path,
        dry_run,
        changed,
        before,
        after,
        backup,
        installed,
        skipped,
        commands_dir=target,
        commands_written=written,
    )


def uninstall(
    *, scope: str, claude_root: Path, project: Path, dry_run: bool = False, root: str | None = None
) -> InstallResult:
    root = root or state.state_root()
    path = settings_path(scope, claude_root, project)
    state.ensure_dir(root)
    target = commands_dir(scope, claude_root, project)
    with _lock(root, path):
        receipts = load_receipts(root)
        receipt = receipts.get(str(path))
        for _attempt in range(MAX_ATTEMPTS):
            seen, before = _read_for_change(path, receipt, root)
            original = seen.raw
            after = uninstall_hooks(before, receipt.get("created") if receipt else None)
            after = without_statusline(after, (receipt or {}).get("statusline_displaced"))
            changed = after != before
            backup = None
            if dry_run or not changed:
                break
            first = _original_bytes(receipt)
            if after == {} and receipt and "file" in (receipt.get("created") or []) and not path.is_symlink():
                if remove_if_unchanged(path, seen):
                    backup = _back_up_displaced(root, path, Replaced(original))
                    break
                continue
            data = first if first is not None and _parses_to(first, after) else dump_settings(after)
            replaced = replace_if_unchanged(path, data, seen, mode=mode_of(write_target(path)))
            if replaced is not None:
                backup = _back_up_displaced(root, path, replaced)
                if _now_holds(path, after):
                    break
        else:
            raise BadFile(
                f"{path} kept changing while the kit tried to uninstall; it was left as it was", path=str(path)
            )
        # The Claude root's folder holds the commands of the user and the local scopes alike:
        # they stay while another install still uses them.
        folders = {target, *([Path(receipt["commands_dir"])] if receipt and receipt.get("commands_dir") else [])}
        removed = []
        for folder in sorted(folders):
            if not folder_users(receipts, folder) - {str(path)}:
                removed += remove_command_files(folder, dry_run=dry_run)
        if not dry_run:
            _cleanup_temp_files(path, target, root)
            receipts.pop(str(path), None)
            _store_receipts(root, receipts)
            if receipt and receipt.get("original"):
                Path(receipt["original"]).unlink(missing_ok=True)
            if receipt and receipt.get("commands_dir_created") and not folder_users(receipts, target):
                _remove_if_empty(target)
            for old in Path(root, "install", "backups").glob(f"{_key(path)}-{path.name}.*"):
                old.unlink(missing_ok=True)  # the file is as it was: its backups are leftovers now
    if not dry_run and not receipts:
        _tidy_state(root)  # the launcher, receipts and backups go with the last install
    if backup is not None and not backup.exists():
        backup = None  # the file is as it was before the kit: its backups went with the receipt
    return InstallResult(
        scope, path, dry_run, changed, before, after, backup, commands_removed=removed, commands_dir=target
    )


def folder_users(receipts: dict[str, Any], folder: Path) -> set[str]:
    """The settings files whose install put its slash commands in `folder`."""
    return {name for name, r in receipts.items() if isinstance(r, dict) and r.get("commands_dir") == str(folder)}


def _remove_if_empty(folder: Path | str) -> None:
    try:
        os.rmdir(folder)
    except OSError:  # not empty (something else is there now), or gone
        pass


def _tidy_state(root: str) -> None:
    """No install is left: out with what installing put into the state root (receipts,
    launchers, settings locks, the folders emptied); scratch, memory, archive and index stay."""
    for name in (
        Path(_receipts_path(root)),
        Path(bin_dir(root), "session-kit"),
        Path(hook_launcher_path(root)),
        *Path(root, "locks").glob("settings-*"),
    ):
        name.unlink(missing_ok=True)
    for folder in ("install/backups", "install", "bin", "locks"):
        _remove_if_empty(os.path.join(root, folder))


def _original_bytes(receipt: dict[str, Any] | None) -> bytes | None:
    try:
        return Path((receipt or {})["original"]).read_bytes()
    except (KeyError, TypeError, OSError):  # no receipt, no original kept, or it is gone
        return None


def _parses_to(data: bytes, settings: dict[str, Any]) -> bool:
    try:
        return parse_settings(data) == settings
    except (ValueError, RecursionError):
        return False
