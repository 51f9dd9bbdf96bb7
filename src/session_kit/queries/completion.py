"""What shell completion offers: session ids for a SESSION, project folders for `--project`.

Owns: the candidates and their order (the current directory's project first, then the
others, newest first; `current` too), each with a short description the shells that show one
(zsh, fish) print beside it. Reads directory listings, stats and the first `cwd` of one
session per project; never a whole transcript: completion runs on every Tab. Does not know
the shells or click (`cli.session_arg` and `cli.context` hand these to click's completion).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from session_kit.base.headfield import head_field
from session_kit.sessions.resolve import CURRENT
from session_kit.sessions.store import find_project, list_project_dirs, list_sessions

LIMIT = 200  # candidates offered at most: a shell lists them all


@dataclass(frozen=True, slots=True)
class Candidate:
    value: str
    help: str


def _project_cwd(project: Path) -> str | None:
    """The folder a project's sessions ran in, as the newest one recorded it."""
    for session in list_sessions(project)[:3]:
        cwd = head_field(str(session.path), b"cwd")
        if cwd:
            return cwd
    return None


def _projects_here_first(root: Path, cwd: str) -> list[Path]:
    projects = list_project_dirs(root)
    here = find_project(root, cwd) if projects else None
    return ([here] if here is not None else []) + [p for p in projects if p != here]


def session_candidates(root: Path, incomplete: str, *, cwd: str | None = None) -> list[Candidate]:
    """Session ids starting with `incomplete`: the current project's newest first, then the
    other projects' (described by their folder); `current` when it fits."""
    found = [Candidate(CURRENT, "the session this runs in")] if CURRENT.startswith(incomplete) else []
    seen: set[str] = set()
    for project in _projects_here_first(root, cwd or os.getcwd()):
        where = _project_cwd(project) or project.name
        for session in list_sessions(project):
            if session.id.startswith(incomplete) and session.id not in seen:
                seen.add(session.id)
                found.append(Candidate(session.id, where))
                if len(found) >= LIMIT:
                    return found
    return found


def project_candidates(root: Path, incomplete: str) -> list[Candidate]:
    """The folders the Claude root's projects ran in, starting with `incomplete` (a leading
    `~` stands for the home folder), described by their session count."""
    home = os.path.expanduser("~")
    typed = incomplete.replace("~", home, 1) if incomplete.startswith("~") else incomplete
    found = []
    for project in list_project_dirs(root):
        cwd = _project_cwd(project)
        if cwd and cwd.startswith(typed):
            shown = cwd.replace(home, "~", 1) if incomplete.startswith("~") else cwd
            count = len(list_sessions(project))
            found.append(Candidate(shown, f"{count} session{'' if count == 1 else 's'}"))
    return sorted(found, key=lambda c: c.value)[:LIMIT]
