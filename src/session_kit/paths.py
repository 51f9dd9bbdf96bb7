"""Where Claude Code keeps things, as pure functions on strings and paths.

Owns: the Claude root (`CLAUDE_CONFIG_DIR` or `~/.claude`), the project-directory encoding
the client uses under `projects/`, and the fixed places of sessions, subagent logs and plans
inside the root. Does not touch the file system beyond reading the environment; listing what
exists is `discovery`'s job.
"""

from __future__ import annotations

import os
from pathlib import Path

MAX_ENCODED_LENGTH = 200
_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def claude_root(override: str | os.PathLike[str] | None = None) -> Path:
    """The Claude root: an explicit override, else `$CLAUDE_CONFIG_DIR`, else `~/.claude`."""
    if override:
        return Path(override).expanduser()
    configured = os.environ.get("CLAUDE_CONFIG_DIR")
    if configured:
        return Path(configured).expanduser()
    return Path.home() / ".claude"


def projects_dir(root: Path) -> Path:
    return root / "projects"


def _utf16_units(text: str) -> list[int]:
    data = text.encode("utf-16-le", "surrogatepass")
    return [int.from_bytes(data[i : i + 2], "little") for i in range(0, len(data), 2)]


def _java_string_hash(units: list[int]) -> int:
    h = 0
    for unit in units:
        h = (31 * h + unit) & 0xFFFFFFFF
    return h - 0x100000000 if h & 0x80000000 else h


def _base36(n: int) -> str:
    if n == 0:
        return "0"
    digits = []
    while n:
        n, r = divmod(n, 36)
        digits.append(_BASE36[r])
    return "".join(reversed(digits))


def encode_project_dir(path: str | os.PathLike[str]) -> str:
    """The directory name the client gives the project at `path`.

    Every UTF-16 code unit that is not an ASCII letter or digit becomes `-` (so an emoji,
    two units, gives `--`). A name over 200 units keeps its first 200, then `-` and the base-36
    absolute value of the Java string hash of the full path.
    """
    text = os.fspath(path)
    units = _utf16_units(text)
    encoded = "".join(
        chr(u) if (48 <= u <= 57 or 65 <= u <= 90 or 97 <= u <= 122) else "-" for u in units
    )
    if len(encoded) <= MAX_ENCODED_LENGTH:
        return encoded
    return f"{encoded[:MAX_ENCODED_LENGTH]}-{_base36(abs(_java_string_hash(units)))}"


def project_dir(root: Path, project_path: str | os.PathLike[str]) -> Path:
    return projects_dir(root) / encode_project_dir(project_path)


def session_file(project: Path, session_id: str) -> Path:
    return project / f"{session_id}.jsonl"


def subagents_dir(project: Path, session_id: str) -> Path:
    """Current layout: `<project>/<session-id>/subagents/`."""
    return project / session_id / "subagents"


def plans_dir(root: Path, plans_directory: str | None = None) -> Path:
    """Plan files: the `plansDirectory` setting when given, else `<root>/plans`."""
    if plans_directory:
        p = Path(plans_directory).expanduser()
        return p if p.is_absolute() else root / p
    return root / "plans"
