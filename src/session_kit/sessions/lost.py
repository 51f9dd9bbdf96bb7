"""Sessions only the client's prompt history remembers: their transcripts deleted, never archived.

Owns: reading `<root>/history.jsonl` (a line per prompt the person typed: `display`,
`pastedContents`, `timestamp` in milliseconds, `project` (the folder the session ran in),
`sessionId`; older lines have no `sessionId`) into prompts; which sessions are lost (their
transcript is under no project of the root and not in the kit's archive) and their prompts,
grouped by session, in the order typed; a case-insensitive substring search of those prompts.
Streams: a listing keeps of each lost session only where its lines are (`LostSession.prompts`
reads them again when asked), and a search reads each line once and yields its hits as it
finds them, so neither holds the history's text (a 200 MB history: well under 100 MB).
Does not: redact or print (the command line shows the text through the redactor), or read
transcripts. Lines are read by the kit's one line reader (`transcript.reader`).
"""

from __future__ import annotations

import math
import os
from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from itertools import chain
from pathlib import Path
from typing import Any

from session_kit.base.encoding import encode_project_dir
from session_kit.base.fileio import reason, skipped
from session_kit.base.timestamps import from_seconds, seconds
from session_kit.claude.paths import history_file
from session_kit.sessions.store import check_scope, list_project_dirs, session_files
from session_kit.transcript.entries import format_timestamp
from session_kit.transcript.reader import ReadStats, iter_line_spans, parse_line, records_at


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
    start: datetime | None  # its first prompt's time
    end: datetime | None  # its last prompt's time
    count: int  # its prompts
    path: Path = field(repr=False, compare=False)  # the history it is read from
    offsets: array = field(repr=False, compare=False)  # where its lines start there

    @property
    def prompts(self) -> tuple[Prompt, ...]:
        """Its prompts, in the order typed, read from `history.jsonl` now: a listing of
        thousands of sessions never holds all their text at once."""
        return tuple(_prompts_at(self.path, self.offsets))

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "project": self.project,
            "start": format_timestamp(self.start),
            "end": format_timestamp(self.end),
            "prompts": [p.as_dict() for p in self.prompts],
        }


def _history_lines(path: Path) -> Iterator[tuple[int, int, dict]]:
    """`(line_no, offset, object)` of every line of `history.jsonl` holding a JSON object, in
    file order (none when it is missing)."""
    stats = ReadStats()
    at = [0]
    try:
        for line_no, buffer, begin, end in iter_line_spans(path, stats, block_at=at):
            value = parse_line(buffer[begin:end], stats, line_no)
            if value is not None:
                yield line_no, at[0] + begin, value
    except FileNotFoundError:
        return
    except OSError as exc:  # not a regular file, unreadable: said, and nothing is lost from it
        skipped(path, reason(exc))


def history_prompts(root: Path) -> Iterator[Prompt]:
    """Every prompt of the root's `history.jsonl`, in file order (none when it is missing)."""
    for line, _offset, value in _history_lines(history_file(root)):
        yield _prompt(line, value)


def _prompts_at(path: Path, offsets: array) -> Iterator[Prompt]:
    """The prompts on the lines starting at `offsets` (a line rewritten since is left out)."""
    lines = iter(offsets.tolist()[1::2])
    for line, value in zip(lines, records_at(path, offsets.tolist()[::2])):
        if value is not None:
            yield _prompt(line, value)


def _seconds(stamp: object) -> float | None:
    """A `timestamp` (milliseconds) as Unix seconds, clamped (`base.timestamps`)."""
    if isinstance(stamp, (int, float)) and not isinstance(stamp, bool) and stamp > 0:
        return seconds(min(stamp, 1e300) / 1000)  # a stamp of year 10000 or more is no error
    return None


def _prompt(line: int, value: dict) -> Prompt:
    display, project, session = (value.get(k) for k in ("display", "project", "sessionId"))
    pasted = value.get("pastedContents")
    texts = tuple(
        item["content"]
        for item in (pasted.values() if isinstance(pasted, dict) else ())
        if isinstance(item, dict) and isinstance(item.get("content"), str)
    )
    when = _seconds(value.get("timestamp"))
    return Prompt(
        line,
        display if isinstance(display, str) else "",
        texts,
        None if when is None else from_seconds(when),
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


def _lost_lines(
    root: Path, state_root: str | None, project_path: str | os.PathLike[str] | None, all_projects: bool
) -> Iterator[tuple[int, int, dict, str | None, str | None]]:
    """`(line_no, offset, object, session, project)` of each line of a lost session in scope."""
    check_scope(project_path, all_projects)
    wanted = None if all_projects else encode_project_dir(os.path.abspath(project_path or os.getcwd()))
    known = known_sessions(root, state_root)
    for line, offset, value in _history_lines(history_file(root)):
        session, project = value.get("sessionId"), value.get("project")
        session = session if isinstance(session, str) and session else None
        project = project if isinstance(project, str) else None
        if session in known:
            continue
        if wanted is not None and (project is None or encode_project_dir(project) != wanted):
            continue
        yield line, offset, value, session, project


def lost_sessions(
    root: Path,
    state_root: str | None,
    *,
    project_path: str | os.PathLike[str] | None = None,
    all_projects: bool = False,
) -> Iterator[LostSession]:
    """The sessions only `history.jsonl` remembers, of one project (the folder of
    `project_path`, default the current one) or of every one; latest first. What is held
    while they are ordered is where each line is (a few numbers a line, a name a session),
    never its text: each session's prompts are read when asked (`LostSession.prompts`)."""
    index: dict[tuple[str | None, str | None], int] = {}
    projects: dict[str, str] = {}  # one string per project, however many sessions name it
    first, last = array("d"), array("d")  # each session's first and last time (NaN: none)
    offsets, numbers, groups = array("q"), array("q"), array("q")  # each line's place and session
    for line, offset, value, session, project in _lost_lines(root, state_root, project_path, all_projects):
        if project is not None:
            project = projects.setdefault(project, project)
        group = index.setdefault((session, project), len(index))
        if group == len(first):
            first.append(math.nan)
            last.append(math.nan)
        when = _seconds(value.get("timestamp"))
        if when is not None:
            if not first[group] <= when:  # (NaN compares false)
                first[group] = when
            if not last[group] >= when:
                last[group] = when
        offsets.append(offset)
        numbers.append(line)
        groups.append(group)
    keys = list(index)
    del index, projects
    # Each session's lines together, in file order (a counting sort over the line numbers).
    starts = array("q", bytes(8 * (len(keys) + 1)))
    for group in groups:
        starts[group + 1] += 1
    for group in range(len(keys)):
        starts[group + 1] += starts[group]
    fill, placed = array("q", starts), array("q", bytes(8 * len(groups)))
    for at, group in enumerate(groups):
        placed[fill[group]] = at
        fill[group] += 1
    del fill, groups
    path = history_file(root)

    def _latest(group: int) -> tuple[float, str]:
        return (-math.inf if math.isnan(last[group]) else last[group], keys[group][0] or "")

    for group in sorted(range(len(keys)), key=_latest, reverse=True):
        lines = placed[starts[group] : starts[group + 1]]
        where = array("q", chain.from_iterable((offsets[at], numbers[at]) for at in lines))
        session, project = keys[group]
        yield LostSession(
            session,
            project,
            None if math.isnan(first[group]) else from_seconds(first[group]),
            None if math.isnan(last[group]) else from_seconds(last[group]),
            len(lines),
            path,
            where,
        )


def search_lost(
    query: str,
    root: Path,
    state_root: str | None,
    *,
    project_path: str | os.PathLike[str] | None = None,
    all_projects: bool = False,
) -> Iterator[Prompt]:
    """The prompts of lost sessions that hold `query` (any case), typed or pasted; in file
    order, as they are found (each line of the history read once)."""
    needle = query.casefold()
    for line, _offset, value, _session, _project in _lost_lines(root, state_root, project_path, all_projects):
        prompt = _prompt(line, value)
        if needle in prompt.text.casefold() or any(needle in text.casefold() for text in prompt.pasted):
            yield prompt
