"""Whether memory capture is on, and which of its parts are left out.

Owns: the `memory` section of the kit's config file (`<state root>/config.json`) and its
environment overrides. Standard library only.

    {"memory": {"capture": true, "leave_out": ["reads", "next"]}}

`SESSION_KIT_MEMORY=off` (or `0`, `false`, `no`) turns capture off, `on` turns it on, whatever
the file says; `SESSION_KIT_MEMORY_LEAVE_OUT=files,reads` replaces the file's list. Either can
go in Claude Code's own `env` setting to apply to one project. Values saved by hand with
`session-kit scratch` are always put back: they are the person's, not the capture's.
"""

from __future__ import annotations

import os

from session_kit.base.fileio import read_json_object

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

CONFIG_FILE = "config.json"
# Every part of the memory, in the order the restore ranks them (most valuable first: what
# the client's own summary loses, first).
PARTS = ("requests", "failures", "agents", "plan", "tasks", "files", "next", "reads")
_OFF = frozenset({"off", "0", "false", "no"})
_ON = frozenset({"on", "1", "true", "yes"})
MAX_CONFIG_BYTES = 256 * 1024


class MemorySettings:
    """What the hooks capture and restore. `problems` names what could not be read."""

    __slots__ = ("capture", "leave_out", "source", "problems")

    def __init__(
        self, *, capture: bool = True, leave_out: frozenset[str] = frozenset(), source: str = "default"
    ) -> None:
        self.capture = capture
        self.leave_out = leave_out
        self.source = source
        self.problems: list[str] = []

    def keeps(self, part: str) -> bool:
        return self.capture and part not in self.leave_out

    def as_dict(self) -> dict:
        return {
            "capture": self.capture,
            "leave_out": sorted(self.leave_out),
            "source": self.source,
            "problems": list(self.problems),
        }


def config_path(root: str) -> str:
    return os.path.join(root, CONFIG_FILE)


def _parts(value: object) -> frozenset[str]:
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    if not isinstance(value, list):
        return frozenset()
    return frozenset(p.strip() for p in value if isinstance(p, str) and p.strip() in PARTS)


def memory_settings(root: str, env: Mapping[str, str] | None = None) -> MemorySettings:
    """The effective settings: the config file's `memory` section, then the environment."""
    env = os.environ if env is None else env
    config, problem = read_json_object(config_path(root), MAX_CONFIG_BYTES)
    section = config.get("memory") if isinstance(config.get("memory"), dict) else {}
    settings = MemorySettings(
        capture=section.get("capture") is not False,
        leave_out=_parts(section.get("leave_out")),
        source="config" if section else "default",
    )
    if problem:
        settings.problems.append(problem)
    switch = (env.get("SESSION_KIT_MEMORY") or "").strip().lower()
    if switch in _OFF or switch in _ON:
        settings.capture = switch in _ON
        settings.source = "env"
    leave_out = env.get("SESSION_KIT_MEMORY_LEAVE_OUT")
    if leave_out is not None:
        settings.leave_out = _parts(leave_out)
        settings.source = "env"
    return settings
