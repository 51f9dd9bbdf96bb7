"""Format drift: what in the transcripts under a Claude root the kit does not know yet.

Owns: reading every transcript under `<root>/projects/` (sessions and agent logs, every
layout: the walk is `base.layout`'s), the client versions that wrote them, and the entry types and content-block types
the kit does not know, by version, each with a count and one example location (path and
line); also the attachment kinds it does not know (listed, but not drift: an attachment is
never shown, whatever its kind). The client's format is internal and changes often: this is
how the next change is noticed before users notice it. What the kit knows is
`transcript.vocabulary`'s entry types and attachment kinds and `transcript.entries`' blocks.
Does not print.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from session_kit.base import layout
from session_kit.base.headfield import head_field
from session_kit.base.vocabulary import ATTACHMENT_KINDS, KNOWN_ENTRY_TYPES, TYPE_ATTACHMENT
from session_kit.errors import NotFound
from session_kit.transcript.entries import KNOWN_BLOCK_TYPES
from session_kit.transcript.reader import ReadStats, iter_records

UNKNOWN_VERSION = "unknown"  # entries of a file where no entry names its client version


@dataclass(slots=True)
class Unknown:
    """One unknown type: how often it was met, by client version, and where first."""

    count: int = 0
    versions: Counter[str] = field(default_factory=Counter)
    example: str = ""  # path:line

    def as_dict(self) -> dict[str, Any]:
        return {"count": self.count, "versions": dict(self.versions.most_common()), "example": self.example}


@dataclass(slots=True)
class DriftReport:
    root: Path
    files: int = 0
    entries: int = 0
    versions: Counter[str] = field(default_factory=Counter)  # entries by client version
    entry_types: dict[str, Unknown] = field(default_factory=dict)
    block_types: dict[str, Unknown] = field(default_factory=dict)
    attachment_kinds: dict[str, Unknown] = field(default_factory=dict)  # listed, not drift
    read: ReadStats = field(default_factory=ReadStats)

    @property
    def drifted(self) -> bool:
        return bool(self.entry_types or self.block_types)

    def as_dict(self) -> dict[str, Any]:
        return {
            "claude_root": str(self.root),
            "files": self.files,
            "entries": self.entries,
            "versions": dict(sorted(self.versions.items(), key=lambda v: _version_key(v[0]))),
            "unknown_entry_types": {k: v.as_dict() for k, v in sorted(self.entry_types.items())},
            "unknown_block_types": {k: v.as_dict() for k, v in sorted(self.block_types.items())},
            "unknown_attachment_kinds": {k: v.as_dict() for k, v in sorted(self.attachment_kinds.items())},
            "drifted": self.drifted,
            "read": self.read.as_dict(),
        }


def transcript_files(root: Path) -> Iterable[Path]:
    """Every `.jsonl` under the root's projects folder (transcripts, agent logs of every
    layout, a workflow's journal; not the client's set-aside copies of transcripts, read
    once already as the live file), in a stable order."""
    for project in layout.project_folders(str(root)):
        for found in layout.project_files(project, contents=True):
            if found.path.endswith(layout.SESSION_SUFFIX):
                yield Path(found.path)


def drift_report(root: Path) -> DriftReport:
    """The versions and the unknown entry and block types of every transcript under `root`
    (NotFound when there is no folder there to read)."""
    if not root.is_dir():
        raise NotFound(f"no Claude root at {root}")
    report = DriftReport(root)
    for path in transcript_files(root):
        report.files += 1
        try:
            _scan_file(path, report)
        except OSError:  # removed or unreadable since it was listed
            continue
    return report


def _scan_file(path: Path, report: DriftReport) -> None:
    # Lines before the first that names a version (titles, snapshots) are its client's too.
    version = head_field(str(path), b"version") or UNKNOWN_VERSION
    for line, raw in iter_records(path, report.read):
        report.entries += 1
        written = raw.get("version")
        if isinstance(written, str) and written:
            version = written
        report.versions[version] += 1
        entry_type = raw.get("type")
        entry_type = entry_type if isinstance(entry_type, str) else "(none)"
        if entry_type not in KNOWN_ENTRY_TYPES:
            _note(report.entry_types, entry_type, version, path, line)
        elif entry_type == TYPE_ATTACHMENT:
            attachment = raw.get("attachment")
            kind = attachment.get("type") if isinstance(attachment, Mapping) else None
            kind = kind if isinstance(kind, str) else "(none)"
            if kind not in ATTACHMENT_KINDS:
                _note(report.attachment_kinds, kind, version, path, line)
        message = raw.get("message")
        content = message.get("content") if isinstance(message, Mapping) else None
        if isinstance(content, list):
            for block in content:
                kind = block.get("type") if isinstance(block, Mapping) else None
                if isinstance(kind, str) and kind not in KNOWN_BLOCK_TYPES:
                    _note(report.block_types, kind, version, path, line)


def _note(table: dict[str, Unknown], name: str, version: str, path: Path, line: int) -> None:
    unknown = table.get(name)
    if unknown is None:
        unknown = table[name] = Unknown(example=f"{path}:{line}")
    unknown.count += 1
    unknown.versions[version] += 1


def _version_key(version: str) -> tuple[int, ...]:
    parts = []
    for part in version.split("."):
        digits = "".join(c for c in part if c.isdigit())
        parts.append(int(digits) if digits else -1)
    return tuple(parts)
