"""Whether the hooks archive, and for how long archived sessions are kept.

Owns: the `archive` section of the kit's config file (`<state root>/config.json`) and the
`SESSION_KIT_ARCHIVE` override. Standard library only.

    {"archive": {"enabled": true, "keep_days": 0, "max_mb": 0}}

`keep_days` (0: forever) drops, at `session-kit archive --prune`, archived sessions whose
transcript the client no longer has and that were last archived longer ago; `max_mb` (0: no
cap) drops the oldest of those until the archive fits. A session still on disk is never dropped.
"""

from __future__ import annotations

import os

from session_kit.base.fileio import read_json_object

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

_OFF = frozenset({"off", "0", "false", "no"})
_ON = frozenset({"on", "1", "true", "yes"})
MAX_CONFIG_BYTES = 256 * 1024


class ArchiveSettings:
    __slots__ = ("enabled", "keep_days", "max_mb", "problems")

    def __init__(self, *, enabled: bool = True, keep_days: float = 0, max_mb: float = 0) -> None:
        self.enabled = enabled
        self.keep_days = keep_days
        self.max_mb = max_mb
        self.problems: list[str] = []

    def as_dict(self) -> dict:
        return {"enabled": self.enabled, "keep_days": self.keep_days, "max_mb": self.max_mb, "problems": self.problems}


def archive_settings(root: str, env: Mapping[str, str] | None = None) -> ArchiveSettings:
    env = os.environ if env is None else env
    settings = ArchiveSettings()
    path = os.path.join(root, "config.json")
    config, problem = read_json_object(path, MAX_CONFIG_BYTES)
    if problem:
        settings.problems.append(problem)
    section = config.get("archive", {})
    if isinstance(section, dict):
        if isinstance(section.get("enabled"), bool):
            settings.enabled = section["enabled"]
        for key in ("keep_days", "max_mb"):
            value = section.get(key)
            if isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0:
                setattr(settings, key, value)
    override = env.get("SESSION_KIT_ARCHIVE", "").strip().lower()
    if override in _OFF:
        settings.enabled = False
    elif override in _ON:
        settings.enabled = True
    return settings
