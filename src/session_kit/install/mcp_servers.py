"""The kit's MCP server registered with Claude Code for the user, and taken out again.

Owns: which file holds the client's user-scope MCP servers (`.claude.json` in
`$CLAUDE_CONFIG_DIR`, else in the home folder: the client's own config, which it rewrites
often), the kit's entry there (`mcpServers["session-kit"]`: the installing interpreter running
`-m session_kit mcp`), putting it in and taking it out, and the receipt of what was done
(`<state>/install/mcp-servers.json`, beside the settings receipts). Only that one key is ever
changed: the file is read, the key merged, and the file replaced atomically only if it is
still what was read (else the change is redone on top of the client's save), same mode,
through a symlink to its target; a malformed file, or one whose `mcpServers` is not an object,
is refused and left as it was. An entry of that name the kit did not write is the person's
and is left alone. Uninstall gives back the file's bytes as they were before the install when
nothing else changed it since; otherwise it takes out the kit's key alone (and `mcpServers`,
when the install made it and it is empty). Does not: the settings' hooks (`installer`).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from session_kit.base import fileio
from session_kit.errors import BadFile
from session_kit.extras import install_hint
from session_kit.install import receipts as receipts_file
from session_kit.install.settings_file import (
    dump_settings,
    mode_of,
    parse_settings,
    read_settings_file,
    remove_if_unchanged,
    replace_if_unchanged,
    write_target,
)
from session_kit.state import root as state

SERVER = "session-kit"
KEY = "mcpServers"
CONFIG_NAME = ".claude.json"
MAX_ATTEMPTS = 100  # read-modify-write rounds against the client saving the file meanwhile
SDK_MISSING = "the MCP SDK (the kit's `mcp` extra) is missing; add it with: {hint}"


@dataclass(frozen=True)
class McpResult:
    """What an install or uninstall did (or, with `dry_run`, would do) to the server's entry."""

    path: Path
    dry_run: bool
    changed: bool
    registered: bool  # the kit's entry is there afterwards
    entry: dict[str, Any] | None  # what stands under `mcpServers["session-kit"]` afterwards
    skipped: str | None = None  # why the kit's entry was not put in

    def as_dict(self) -> dict[str, Any]:
        return {
            "config_path": str(self.path),
            "changed": self.changed,
            "registered": self.registered,
            "entry": self.entry,
            "skipped": self.skipped,
        }


def config_path(claude_root: Path, env: Mapping[str, str] | None = None) -> Path:
    """The client's own config file for `claude_root`: `.claude.json` inside a root named by
    `$CLAUDE_CONFIG_DIR` (or `--claude-dir`), else `~/.claude.json` beside the default root."""
    env = os.environ if env is None else env
    default = Path(env.get("HOME") or Path.home()) / ".claude"
    if env.get("CLAUDE_CONFIG_DIR") or os.path.abspath(claude_root) != os.path.abspath(default):
        return claude_root / CONFIG_NAME
    return default.parent / CONFIG_NAME


def kit_entry(python: str | None = None) -> dict[str, Any]:
    """The entry `session-kit install` writes: this interpreter runs the server."""
    return {"type": "stdio", "command": python or sys.executable, "args": ["-m", "session_kit", "mcp"], "env": {}}


def sdk_present() -> bool:
    return importlib.util.find_spec("mcp") is not None


# --- receipts ---------------------------------------------------------------------------------


def load_receipts(root: str) -> dict[str, Any]:
    return receipts_file.load(root, "mcp-servers.json")


def _store_receipts(root: str, kept: dict[str, Any]) -> None:
    receipts_file.store(root, "mcp-servers.json", kept, drop_empty=True)


def _original_path(root: str, path: Path) -> Path:
    key = hashlib.sha256(str(path.absolute()).encode()).hexdigest()[:16]
    return Path(root, "install", "backups", f"{key}-{path.name}.mcp-original")


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# --- the file ---------------------------------------------------------------------------------


def _read(path: Path) -> tuple[Any, dict[str, Any]]:
    seen = read_settings_file(path)
    if seen.raw is None:
        return seen, {}
    try:
        value = parse_settings(seen.raw)
    except (ValueError, RecursionError) as exc:
        raise BadFile(f"{path} is not valid JSON ({exc}); it was left as it was", path=str(path)) from None
    if not isinstance(value, dict):
        raise BadFile(f"{path} does not hold a JSON object; it was left as it was", path=str(path))
    servers = value.get(KEY)
    if servers is not None and not isinstance(servers, dict):
        raise BadFile(f"{path}: {KEY} is not an object; it was left as it was", path=str(path))
    return seen, value


def _dump(value: dict[str, Any], like: bytes | None) -> bytes:
    """`value` as the client writes the file: two-space indent, no final newline unless the
    file had one."""
    data = dump_settings(value)
    return data if like is None or like.endswith(b"\n") else data.rstrip(b"\n")


def _lock_path(root: str, path: Path) -> str:
    key = hashlib.sha256(str(path.absolute()).encode()).hexdigest()[:16]
    return os.path.join(root, "locks", f"mcp-config-{key}")


def _lock(root: str, path: Path) -> state.locked:
    state.ensure_dir(os.path.join(root, "locks"), root=root)
    return state.locked(_lock_path(root, path), timeout=30)


def _put(path: Path, data: bytes, seen: Any) -> bool:
    write_target(path).parent.mkdir(parents=True, exist_ok=True)
    return replace_if_unchanged(path, data, seen, mode=mode_of(write_target(path))) is not None


def install(*, claude_root: Path, dry_run: bool = False, root: str | None = None) -> McpResult:
    """The kit's server into the user's `mcpServers`: added, or brought up to date when the
    entry is the kit's own; an entry of the person's under that name is left alone."""
    root = root or state.state_root()
    path = config_path(claude_root)
    wanted = kit_entry()
    state.ensure_dir(root)
    with _lock(root, path):
        for _attempt in range(MAX_ATTEMPTS):
            receipts = load_receipts(root)
            receipt = receipts.get(str(path))
            seen, before = _read(path)
            servers = before.get(KEY) or {}
            current = servers.get(SERVER)
            if current is not None and (receipt is None or current != receipt.get("entry")):
                ours = current == wanted
                why = (
                    None if ours else f"{path} already has an MCP server named {SERVER!r}, not the kit's; left as it is"
                )
                return McpResult(path, dry_run, False, ours, current, why)
            if not sdk_present():
                return McpResult(
                    path, dry_run, False, current is not None, current, SDK_MISSING.format(hint=install_hint("mcp"))
                )
            if current == wanted:
                return McpResult(path, dry_run, False, True, current)
            if dry_run:
                return McpResult(path, dry_run, True, True, wanted)
            after = {**before, KEY: {**servers, SERVER: wanted}}
            data = _dump(after, seen.raw)
            if receipt is None:  # the first install: what the file was, to give it back
                original = _original_path(root, path)
                if seen.raw is not None:
                    state.ensure_dir(str(original.parent), root=root)
                    fileio.atomic_write(str(original), seen.raw)
                receipt = {"file_created": seen.raw is None, "servers_created": KEY not in before}
                receipt["original"] = str(original) if seen.raw is not None else None
            receipt = {**receipt, "entry": wanted, "written": _digest(data)}
            receipts[str(path)] = receipt  # the receipt first: a killed install is still undone
            _store_receipts(root, receipts)
            if _put(path, data, seen):
                return McpResult(path, dry_run, True, True, wanted)
        raise BadFile(f"{path} kept changing while the kit tried to install; it was left as it was", path=str(path))


def uninstall(*, claude_root: Path, dry_run: bool = False, root: str | None = None) -> McpResult:
    """The kit's entry out again: the file's bytes as they were when nothing else changed it
    since the install, else the kit's key alone."""
    root = root or state.state_root()
    path = config_path(claude_root)
    if str(path) not in load_receipts(root):  # the kit never registered it here
        current = (_read(path)[1].get(KEY) or {}).get(SERVER) if path.exists() else None
        return McpResult(path, dry_run, False, current is not None, current)
    with _lock(root, path):
        for _attempt in range(MAX_ATTEMPTS):
            receipts = load_receipts(root)
            receipt = receipts.get(str(path))
            if receipt is None:  # another uninstall took it out meanwhile
                return McpResult(path, dry_run, False, False, None)
            seen, before = _read(path)
            left = (before.get(KEY) or {}).get(SERVER)
            ours = left is not None and left == receipt.get("entry")
            result = McpResult(path, dry_run, ours, False, None if ours else left)
            if dry_run:
                return result
            if ours and not _take_out(path, seen, before, receipt):
                continue  # the client saved the file meanwhile: again, on top of its save
            receipts.pop(str(path), None)
            _store_receipts(root, receipts)
            if receipt.get("original"):
                Path(receipt["original"]).unlink(missing_ok=True)
            break
        else:
            raise BadFile(
                f"{path} kept changing while the kit tried to uninstall; it was left as it was", path=str(path)
            )
    if not receipts:  # the last registration gone: its lock and the folders it emptied go too
        Path(_lock_path(root, path) + ".lock").unlink(missing_ok=True)
        for folder in ("install/backups", "install", "locks"):
            try:
                os.rmdir(os.path.join(root, folder))
            except OSError:
                pass
    return result


def _take_out(path: Path, seen: Any, before: dict[str, Any], receipt: dict[str, Any]) -> bool:
    """Whether the kit's key is out (False: the file changed meanwhile; read it again)."""
    if seen.raw is not None and _digest(seen.raw) == receipt.get("written"):
        if receipt.get("file_created"):  # untouched since the install made it
            return remove_if_unchanged(path, seen)
        try:
            original = Path(receipt["original"]).read_bytes()
        except (KeyError, TypeError, OSError):
            original = None
        if original is not None:
            return _put(path, original, seen)
    servers = {k: v for k, v in (before.get(KEY) or {}).items() if k != SERVER}
    after = dict(before)
    if servers or not receipt.get("servers_created"):
        after[KEY] = servers
    else:
        after.pop(KEY, None)
    return _put(path, _dump(after, seen.raw), seen)


def status(*, claude_root: Path, root: str | None = None) -> dict[str, Any]:
    """For doctor: the config file, whether the kit's server is registered there, by whom."""
    root = root or state.state_root()
    path = config_path(claude_root)
    entry, error = None, None
    try:
        entry = (_read(path)[1].get(KEY) or {}).get(SERVER) if path.exists() else None
    except BadFile as exc:
        error = str(exc)
    receipt = load_receipts(root).get(str(path))
    return {
        "config_path": str(path),
        "registered": entry is not None,
        "by_kit": entry is not None and receipt is not None and entry == receipt.get("entry"),
        "current": entry == kit_entry(),
        "sdk": sdk_present(),
        "error": error,
    }
