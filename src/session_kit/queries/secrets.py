"""Secrets held in the client's files and in the kit's archive: where they are, never what.

Owns: which files `secrets` reads for a scope (one session, one project, or everything) on
the client's side (transcripts and the client's set-aside copies of them, agent logs and
meta files, everything in a session's `<id>/` folder: `tool-results/`, `custom-title.json`,
`precompact.json`, workflow journals; the lines of `history.jsonl`; with everything, also the shell snapshots and plan files) and in
the kit's archive (every archived file of the scope); reading each (JSON Lines a line at a
time, other files whole) and naming each secret the redactor's rules find
(`queries.secret_spots`: the redactor's own rules, on the text as the kit shows it) by its
kind, session, file and line, one hit per kind and line. Does not: say what a secret is
(nothing here keeps its text), change files (`queries.scrub`), or print.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from session_kit.archive import layout as archived
from session_kit.archive import store
from session_kit.base import layout
from session_kit.base.encoding import encode_project_dir
from session_kit.base.headfield import head_field
from session_kit.claude.paths import history_file, plans_dir, shell_snapshots_dir
from session_kit.errors import KitError, NotFound
from session_kit.queries.secret_spots import JSONL, form_of, spots
from session_kit.redaction.printed import Commands
from session_kit.sessions.store import check_scope, list_project_dirs, projects_in_scope
from session_kit.state.ids import is_plain_id

CLIENT = "client"
ARCHIVE = "archive"
BLOCK = 4 << 20  # JSON Lines are searched this many bytes of whole lines at a time
MAX_WHOLE = 64 << 20  # a file that is not JSON Lines is searched whole up to this size
FULL_ID = 36  # a session id as the client writes it (a UUID)
MEMORY = "memory"  # a project's own folder beside its sessions', not a session's
# What the walk finds in a session's folder: every file of it is searched, as its form is.
FOLDER_KINDS = frozenset({layout.AGENT, layout.WORKFLOW_AGENT, layout.SESSION_FILE})


@dataclass(frozen=True, slots=True)
class Scope:
    """What to search: one session, the sessions of some project folders, or everything."""

    session: str | None = None
    projects: frozenset[str] | None = None  # folder names under `projects/`; None: every one

    @property
    def everything(self) -> bool:
        return self.session is None and self.projects is None

    def holds(self, session: str | None, project: str | None) -> bool:
        if self.session is not None:
            return session == self.session
        return self.projects is None or project in self.projects


@dataclass(frozen=True, slots=True)
class Source:
    """A file searched: the client's (`path` as on disk) or the archive's (`path` under the
    Claude root, as archived)."""

    where: str  # CLIENT | ARCHIVE
    path: str
    session: str | None  # None: a file of no one session (history.jsonl: each line says)
    form: str  # how its text is read (`secret_spots.form_of`)


@dataclass(frozen=True, slots=True)
class SecretHit:
    kind: str
    session: str | None
    where: str  # CLIENT | ARCHIVE
    path: str
    line: int
    count: int = 1  # secrets of this kind on this line (a tool's output is written twice)

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "session": self.session,
            "where": self.where,
            "path": self.path,
            "line": self.line,
            "count": self.count,
        }


@dataclass(frozen=True, slots=True)
class SecretsReport:
    hits: tuple[SecretHit, ...]
    files: int  # files searched
    errors: tuple[str, ...] = ()
    scrubbed: tuple[dict[str, Any], ...] = ()  # files rewritten (`queries.scrub`)
    running: tuple[str, ...] = ()  # sessions whose client files were left alone: running
    left: int = 0  # secrets found and not scrubbed (with --scrub)

    @property
    def found(self) -> int:
        return sum(hit.count for hit in self.hits)

    @property
    def kinds(self) -> dict[str, int]:
        counts: Counter[str] = Counter()
        for hit in self.hits:
            counts[hit.kind] += hit.count
        return dict(counts.most_common())

    def as_dict(self) -> dict[str, Any]:
        return {
            "files": self.files,
            "found": self.found,
            "kinds": self.kinds,
            "hits": [hit.as_dict() for hit in self.hits],
            "scrubbed": list(self.scrubbed),
            "left": self.left,
            "running": list(self.running),
            "errors": list(self.errors),
        }


# --- the scope's files -------------------------------------------------------------------------


def scope_of(
    root: Path,
    *,
    session: str | None = None,
    project_path: str | os.PathLike[str] | None = None,
    all_projects: bool = False,
) -> Scope:
    """One session (what a user typed: an id, a prefix, a path, `current`; a full id the
    client and the archive no longer know is taken as it is: `history.jsonl` may hold it),
    every project, or one project (`project_path`, default the current folder: its folder
    name whether or not the client still has it)."""
    if session is not None:
        if session and (project_path or all_projects):
            raise KitError("a SESSION and --project or --all exclude each other")
        from session_kit.sessions.resolve import resolve_session

        try:
            return Scope(session=resolve_session(session, root).id)
        except NotFound:
            if is_plain_id(session) and len(session) == FULL_ID:
                return Scope(session=session)
            raise
    check_scope(project_path, all_projects)
    if all_projects:
        return Scope()
    folders = projects_in_scope(root, project_path=project_path)
    named = encode_project_dir(os.path.abspath(project_path or os.getcwd()))
    return Scope(projects=frozenset({named, *(f.name for f in folders)}))


def client_sources(root: Path, scope: Scope) -> Iterator[Source]:
    """The client's files of the scope, project by project, then `history.jsonl` (whose lines
    are kept to the scope), then (everything only) shell snapshots and plan files."""
    for project in list_project_dirs(root):
        if scope.projects is not None and project.name not in scope.projects:
            continue
        yield from _project_sources(project, scope)
    history = history_file(root)
    if history.is_file():
        yield Source(CLIENT, str(history), None, JSONL)
    if scope.everything:
        for folder in (shell_snapshots_dir(root), plans_dir(root)):
            for path in layout.files_under(str(folder)):
                yield Source(CLIENT, path, None, form_of(path))


def _project_sources(project: Path, scope: Scope) -> Iterator[Source]:
    """A project's transcripts, the client's set-aside copies of them, 2025 agent logs (their
    session from their head) and every file in its sessions' folders (not its `memory/`)."""

    def searched(name: str) -> bool:
        return name != MEMORY and (scope.session is None or name == scope.session)

    for found in layout.project_files(str(project), folders=searched, contents=True):
        if found.kind == layout.PROJECT_FILE:
            continue
        if found.kind in FOLDER_KINDS:
            if not os.path.isfile(found.path):  # a FIFO or a device is never opened
                continue
            yield Source(CLIENT, found.path, found.session, form_of(found.path))
            continue
        session = found.session
        if found.kind == layout.LEGACY_AGENT:  # 2025: beside the sessions, named by its head
            session = head_field(found.path, b"sessionId")
        if (scope.session is None or session == scope.session) and os.path.isfile(found.path):
            yield Source(CLIENT, found.path, session, JSONL)


def archive_sources(archive: str, scope: Scope) -> Iterator[Source]:
    """The files of the scope in a Claude root's archive (`archive.layout.base_dir`; a plan
    file archived with no session: everything only)."""
    entries = sorted(store.all_archived(archive), key=lambda e: e.rel)
    for entry in entries:
        if scope.session is not None:
            keep = entry.session == scope.session
        elif scope.projects is not None:
            keep = entry.project in scope.projects
        else:
            keep = True
        if keep:
            yield Source(ARCHIVE, entry.rel, entry.session, form_of(entry.rel))


# --- reading ------------------------------------------------------------------------------------


def chunks_of(source: Source, archive: str | None) -> Iterator[bytes]:
    """A source's bytes, a chunk at a time (the archive's as originally written: every
    generation, oldest first; `archive` is the Claude root's, `archive.layout.base_dir`)."""
    if source.where == ARCHIVE:
        assert archive is not None
        yield from store.original_chunks(archive, source.path)
        return
    from session_kit.base.fileio import open_fd

    fd = open_fd(source.path)[0]
    try:
        while chunk := os.read(fd, BLOCK):
            yield chunk
    finally:
        os.close(fd)


def decode(data: bytes) -> str:
    """Bytes as text, every byte kept (`encode` gives them back exactly)."""
    return data.decode("utf-8", "surrogateescape")


def encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def search_source(source: Source, archive: str | None, scope: Scope) -> Iterator[SecretHit]:
    """Each secret of a file (of `history.jsonl`: of the scope's lines), in order."""
    if source.form != JSONL:
        data = b"".join(_capped(chunks_of(source, archive), source))
        yield from _hits(source, decode(data), 0, scope)
        return
    first = 0  # lines before this block
    commands = Commands()  # the calls of the blocks before (a result's command is its context)
    pending: list[bytes] = []  # the start of a line a chunk cut (joined once its end comes)
    for chunk in chunks_of(source, archive):
        cut = chunk.rfind(b"\n") + 1
        if not cut:
            pending.append(chunk)
            continue
        text = decode(b"".join([*pending, chunk[:cut]]))
        pending = [chunk[cut:]] if cut < len(chunk) else []
        yield from _hits(source, text, first, scope, commands)
        first += text.count("\n")
    if pending:
        yield from _hits(source, decode(b"".join(pending)), first, scope, commands)


def _capped(chunks: Iterator[bytes], source: Source) -> Iterator[bytes]:
    size = 0
    for chunk in chunks:
        size += len(chunk)
        if size > MAX_WHOLE:
            raise OSError(f"{source.path}: over {MAX_WHOLE >> 20} MB and not JSON Lines; not searched")
        yield chunk


def _hits(source: Source, text: str, first: int, scope: Scope, commands: Commands | None = None) -> Iterator[SecretHit]:
    found = spots(text, source.form, commands)
    if not found:
        return
    lines = text.split("\n") if source.session is None and source.form == JSONL else None
    for spot in found:
        session = source.session
        if lines is not None:  # history.jsonl: each line names its session
            session, project = _line_owner(lines[spot.line])
            if not scope.holds(session, encode_project_dir(project) if project else None):
                continue
        yield SecretHit(spot.kind, session, source.where, source.path, first + spot.line + 1)


def _line_owner(line: str) -> tuple[str | None, str | None]:
    import json

    try:
        value = json.loads(line)
    except ValueError:
        return None, None
    if not isinstance(value, dict):
        return None, None
    session, project = value.get("sessionId"), value.get("project")
    return (session if isinstance(session, str) else None), (project if isinstance(project, str) else None)


def find_in(root: Path, state_root: str | None, scope: Scope) -> SecretsReport:
    """Every secret of the scope, in the client's files, then in the archive."""
    hits: list[SecretHit] = []
    errors: list[str] = []
    files = 0
    archive = archived.base_dir(state_root, str(root)) if state_root is not None else None
    for source in sources(root, archive, scope):
        files += 1
        try:
            hits.extend(_counted(search_source(source, archive, scope)))
        except OSError as exc:
            errors.append(f"{source.path}: {getattr(exc, 'strerror', None) or exc}")
    return SecretsReport(tuple(hits), files, tuple(errors))


def _counted(hits: Iterator[SecretHit]) -> list[SecretHit]:
    """One hit per kind and line of a file, with how many secrets of that kind it holds."""
    counts: Counter[tuple[int, str, str | None]] = Counter()
    first: dict[tuple[int, str, str | None], SecretHit] = {}
    for hit in hits:
        key = (hit.line, hit.kind, hit.session)
        counts[key] += 1
        first.setdefault(key, hit)
    return [replace(hit, count=counts[key]) for key, hit in first.items()]


def sources(root: Path, archive: str | None, scope: Scope) -> Iterator[Source]:
    """The client's files of the scope, then those of the root's archive (`archive`)."""
    yield from client_sources(root, scope)
    if archive is not None and os.path.isdir(archived.files_dir(archive)):
        yield from archive_sources(archive, scope)
