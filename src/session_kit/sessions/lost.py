"""Sessions only the client's prompt history remembers: their transcripts deleted, never archived.

Owns: reading `<root>/history.jsonl` (a line per prompt the person typed: `display`,
`pastedContents`, `timestamp` in milliseconds, `project` (the folder the session ran in),
`sessionId`; older lines have no `sessionId`) into prompts; which sessions are lost (their
transcript is under no project of the root and not in the kit's archive) and their prompts,
grouped by session, in the order typed; a case-insensitive substring search of those prompts.
Does not: redact or print (the command line shows the text through the redactor), or read
transcripts. Lines are read by the kit's one line reader (`transcript.reader`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from session_kit.base.encoding import encode_project_dir
from session_kit.base.fileio import reason, skipped
from session_kit.base.timestamps import from_seconds
from session_kit.claude.paths import history_file
from session_kit.sessions.store import check_scope, list_project_dirs, session_files
from session_kit.transcript.entries import format_timestamp
from session_kit.transcript.reader import iter_records


@dataclass(frozen=True, slots=True)
class Prompt:
    """One line of `history.jsonl`: what the person typed (with what they pasted)."""

    line: int
    text: str
    pasted: tuple[str, ...]  # the texts of `pastedContents`, as pasted
    timestamp: datetime | None
    project: str | None  # the folder the session ran in
    session: str | None

    def as_dict(self) -> dict[str, Any]:
        return {
            "line": self.line,
            "timestamp": format_timestamp(self.timestamp),
            "text": self.text,
            "pasted": list(self.pasted),
        }


@dataclass(frozen=True, slots=True)
class LostSession:
    """A session whose transcript is gone everywhere; what `history.jsonl` kept of it."""

    id: str | None  # None: prompts of lines written without a session id (older clients)
    project: str | None
    prompts: tuple[Prompt, ...]

    @property
    def start(self) -> datetime | None:
        return min((p.timestamp for p in self.prompts if p.timestamp), default=None)

    @property
    def end(self) -> datetime | None:
        return max((p.timestamp for p in self.prompts if p.timestamp), default=None)

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "project": self.project,
            "start": format_timestamp(self.start),
            "end": format_timestamp(self.end),
            "prompts": [p.as_dict() for p in self.prompts],
        }


def history_prompts(root: Path) -> Iterator[Prompt]:
    """Every prompt of the root's `history.jsonl`, in file order (none when it is missing)."""
    path = history_file(root)
    try:
        records = iter_records(path)
        for line, value in records:
            yield _prompt(line, value)
    except FileNotFoundError:
        return
    except OSError as exc:  # not a regular file, unreadable: said, and nothing is lost from it
        skipped(path, reason(exc))


def _prompt(line: int, value: dict) -> Prompt:
    display, project, session, stamp = (value.get(k) for k in ("display", "project", "sessionId", "timestamp"))
    pasted = value.get("pastedContents")
    texts = tuple(
        item["content"]
        for item in (pasted.values() if isinstance(pasted, dict) else ())
        if isinstance(item, dict) and isinstance(item.get("content"), str)
    )
    when = None
    if isinstance(stamp, (int, float)) and not isinstance(stamp, bool) and stamp > 0:
        when = from_seconds(min(stamp, 1e300) / 1000)  # clamped: a stamp of year 10000 or more is no error
    return Prompt(
        line,
        display if isinstance(display, str) else "",
        texts,
        when,
        project if isinstance(project, str) else None,
        session if isinstance(session, str) and session else None,
    )


def known_sessions(root: Path, state_root: str | None) -> set[str]:
    """Ids of the sessions with a transcript under the root or in the root's archive."""
    found: set[str] = set()
    for project in list_project_dirs(root):
        found.update(sid for sid, _path, _stat in session_files(project, set()))
    if state_root is not None:
        from session_kit.archive.layout import base_dir
        from session_kit.archive.view import archived_ids

        found.update(archived_ids(base_dir(state_root, str(root)), ""))
    return found


def lost_sessions(
    root: Path,
    state_root: str | None,
    *,
    project_path: str | os.PathLike[str] | None = None,
    all_projects: bool = False,
) -> list[LostSession]:
    """The sessions only `history.jsonl` remembers, of one project (the folder of
    `project_path`, default the current one) or of every one; latest first."""
    check_scope(project_path, all_projects)
    wanted = None if all_projects else encode_project_dir(os.path.abspath(project_path or os.getcwd()))
    known = known_sessions(root, state_root)
    grouped: dict[tuple[str | None, str | None], list[Prompt]] = {}
    for prompt in history_prompts(root):
        if prompt.session in known:
            continue
        if wanted is not None and (prompt.project is None or encode_project_dir(prompt.project) != wanted):
            continue
        grouped.setdefault((prompt.session, prompt.project), []).append(prompt)
    found = [LostSession(session, project, tuple(prompts)) for (session, project), prompts in grouped.items()]
    oldest = datetime.min.replace(tzinfo=timezone.utc)
    found.sort(key=lambda s: (s.end or oldest, s.id or ""), reverse=True)
    return found


def search_lost(
    query: str,
    root: Path,
    state_root: str | None,
    *,
    project_path: str | os.PathLike[str] | None = None,
    all_projects: bool = False,
) -> list[Prompt]:
    """The prompts of lost sessions that hold `query` (any case), typed or pasted; in file order."""
    needle = query.casefold()
    hits = [
        prompt
        for session in lost_sessions(root, state_root, project_path=project_path, all_projects=all_projects)
        for prompt in session.prompts
        if needle in prompt.text.casefold() or any(needle in text.casefold() for text in prompt.pasted)
    ]
    hits.sort(key=lambda p: p.line)
    return hits
