"""Where the client's files sit under a Claude root: the one walk of `projects/` and the one
reading of a path. Standard library only, on
plain strings (no `pathlib`): the hooks, the status line and the commands all load it.

Owns: the names of the layout (`<root>/projects/<project>/<id>.jsonl`; `<id>/subagents/
agent-<a>.jsonl` with its `.meta.json`, a workflow run's `<id>/subagents/workflows/<run>/
agent-<a>.jsonl`, the rest of a session's `<id>/` folder: `tool-results/`, titles, journals;
2025's `agent-<a>.jsonl` beside the sessions, named by its head; the client's set-aside
copies `<id>.jsonl.superseded-<ms>`, whole earlier transcripts to archive and scan for
secrets, never a second live session; `<root>/plans/`); listing them (`project_folders`,
`session_entries`, the listing's hot loop, `project_files`, `agent_logs`), going into a
folder only when `fileio.walkable` says so (a symlink loop or a link back up is skipped with
a note); `where`: a path → its root, project, session and agent. A field read from a file's
head (a 2025 agent log's `sessionId`) is `base.headfield`'s.
Does not: read transcripts; decide what a feature takes of the walk (the listing, the index,
the archive, secrets, the status line, the memory do); know the kit's own state folders
(`state.root`) or the archive's (`archive.layout`).
"""

from __future__ import annotations

import os

PROJECTS = "projects"
PLANS = "plans"
SESSION_SUFFIX = ".jsonl"
AGENT_PREFIX = "agent-"
META_SUFFIX = ".meta.json"
SUBAGENTS = "subagents"
WORKFLOWS = "workflows"
SET_ASIDE_MARK = SESSION_SUFFIX + ".superseded-"  # <id>.jsonl.superseded-<ms>, since 2.1.328
# The client's compaction summariser (2.1.x) writes its request as `agent-acompact-<id>.jsonl`
# in `subagents/`: billed, but not an agent of the conversation (no call spawned it).
COMPACTION_AGENT_PREFIX = "acompact-"

# What a file is, by where it sits (`Found.kind`, `Place.kind`).
TRANSCRIPT = "transcript"  # <project>/<id>.jsonl
SET_ASIDE = "set-aside"  # <project>/<id>.jsonl.superseded-<ms>
LEGACY_AGENT = "legacy"  # <project>/agent-<a>.jsonl (2025): its session is in its head
AGENT = "subagents"  # <project>/<id>/subagents/agent-<a>.jsonl
WORKFLOW_AGENT = "workflow"  # <project>/<id>/subagents/workflows/<run>/agent-<a>.jsonl
SESSION_FILE = "session-file"  # anything else in <project>/<id>/ (meta files, tool-results/, titles)
PROJECT_FILE = "project-file"  # anything else in <project>/


# --- names and places -------------------------------------------------------------------------


def projects_dir(root: str) -> str:
    return os.path.join(root, PROJECTS)


def plans_dir(root: str) -> str:
    return os.path.join(root, PLANS)


def transcript_path(project: str, session: str) -> str:
    return os.path.join(project, session + SESSION_SUFFIX)


def session_dir(project: str, session: str) -> str:
    """A session's `<id>/` folder beside its transcript."""
    return os.path.join(project, session)


def agent_log_path(project: str, session: str, agent: str) -> str:
    """Where the current client writes an agent's log (a workflow's agents are one folder deeper)."""
    return os.path.join(project, session, SUBAGENTS, agent_log_name(agent))


def agent_log_name(agent: str) -> str:
    return AGENT_PREFIX + agent + SESSION_SUFFIX


def meta_path(log: str) -> str:
    """An agent log's `.meta.json` beside it."""
    return log[: -len(SESSION_SUFFIX)] + META_SUFFIX if log.endswith(SESSION_SUFFIX) else log + META_SUFFIX


def agent_of_name(name: str) -> str | None:
    """The agent id of a log named `agent-<a>.jsonl`; None for any other name."""
    if name.startswith(AGENT_PREFIX) and name.endswith(SESSION_SUFFIX) and len(name) > 11:
        return name[len(AGENT_PREFIX) : -len(SESSION_SUFFIX)]
    return None


def session_of_name(name: str) -> str | None:
    """The session id of a transcript named `<id>.jsonl` (not an agent log); None otherwise."""
    if name.endswith(SESSION_SUFFIX) and not name.startswith(AGENT_PREFIX) and len(name) > 6:
        return name[: -len(SESSION_SUFFIX)]
    return None


def set_aside_of_name(name: str) -> str | None:
    """The session id of a set-aside copy `<id>.jsonl.superseded-<ms>`; None otherwise."""
    at = name.find(SET_ASIDE_MARK)
    if at <= 0 or name.startswith(AGENT_PREFIX):
        return None
    stamp = name[at + len(SET_ASIDE_MARK) :]
    return name[:at] if stamp.isdigit() and stamp.isascii() else None


def is_compaction_agent(agent_id: str) -> bool:
    """Whether an agent log's id names the client's compaction summariser (`acompact-…`)."""
    return agent_id.startswith(COMPACTION_AGENT_PREFIX)


def is_jsonl(name: str) -> bool:
    """A file read as JSON Lines: `.jsonl`, and the client's set-aside copies of transcripts."""
    return name.endswith(SESSION_SUFFIX) or set_aside_of_name(os.path.basename(name)) is not None


class Place:
    """Where a path sits under a Claude root (`where`)."""

    __slots__ = ("agent", "kind", "project", "root", "session")

    def __init__(self, root: str, project: str, session: str | None, agent: str | None, kind: str) -> None:
        self.root = root  # the Claude root
        self.project = project  # the project folder's name under `projects/`
        self.session = session  # None: a 2025 agent log (its head names it) or a project's own file
        self.agent = agent
        self.kind = kind

    @property
    def project_dir(self) -> str:
        return os.path.join(self.root, PROJECTS, self.project)


def where(path: str, root: str | None = None) -> Place | None:
    """Where `path` sits: under `root`'s `projects/` when a root is given, else under the
    nearest folder above it named `projects`. None for a path outside every project folder
    (the projects folder itself, a project folder, anything elsewhere)."""
    path = os.path.abspath(path)
    if root is not None:
        root = os.path.abspath(root)
        rel = os.path.relpath(path, projects_dir(root))
        parts = rel.split(os.sep)
        if parts[0] in ("", os.curdir, os.pardir):
            return None
    else:
        parts = path.split(os.sep)
        try:
            at = len(parts) - 1 - parts[::-1].index(PROJECTS, 2)  # the nearest, at least two below it
        except ValueError:
            return None
        root, parts = os.sep.join(parts[:at]) or os.sep, parts[at + 1 :]
    return _place(root, parts)


def where_rel(rel: str) -> Place | None:
    """`where` for a path relative to its Claude root, with `/` (as the archive keeps them); the root is ""."""
    parts = rel.split("/")
    return _place("", parts[1:]) if parts[0] == PROJECTS else None


def _place(root: str, parts: list[str]) -> Place | None:
    if len(parts) < 2 or "" in parts:
        return None
    project, name = parts[0], parts[-1]
    if len(parts) == 2:
        agent = agent_of_name(name)
        if agent is not None:
            return Place(root, project, None, agent, LEGACY_AGENT)
        session = session_of_name(name)
        if session is not None:
            return Place(root, project, session, None, TRANSCRIPT)
        session = set_aside_of_name(name)
        if session is not None:
            return Place(root, project, session, None, SET_ASIDE)
        return Place(root, project, None, None, PROJECT_FILE)
    session, inner = parts[1], parts[2:]
    agent = agent_of_name(name)
    if agent is not None and inner[0] == SUBAGENTS:
        if len(inner) == 2:
            return Place(root, project, session, agent, AGENT)
        if len(inner) == 4 and inner[1] == WORKFLOWS:
            return Place(root, project, session, agent, WORKFLOW_AGENT)
    return Place(root, project, session, None, SESSION_FILE)


def in_project_folder(place: Place) -> bool:
    """A file right in a project folder (a transcript, a set-aside copy, a 2025 agent log), not in a session's."""
    return place.kind in (TRANSCRIPT, SET_ASIDE, LEGACY_AGENT, PROJECT_FILE)


def root_of(path: str) -> str | None:
    """The Claude root a transcript or agent log lives under (the folder above `projects/`)."""
    place = where(path)
    return None if place is None else place.root


# --- listing ----------------------------------------------------------------------------------


def _io():
    """`base.fileio`, loaded by what lists or reads: the Stop and SessionEnd hooks only ask `where`."""
    from session_kit.base import fileio

    return fileio


def listing(folder: str, *, note: bool = False) -> list[os.DirEntry]:
    """A folder's entries in name order; none when it is gone or no folder. `note`: a folder
    that cannot be listed (no permission) is named (`fileio.skipped`), the others go on."""
    try:
        with os.scandir(folder) as it:
            return sorted(it, key=lambda e: e.name)
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError as exc:
        if note:
            _io().skipped(folder, _io().reason(exc))
        return []
    except ValueError:  # a NUL in the name
        return []


def _goes_into(entry: os.DirEntry, within: str) -> bool:
    """`fileio.walkable` for a listed entry: a real folder is one (its type came with the
    listing, no stat), a link is asked about (a loop, or a link back up, is skipped with a note)."""
    try:
        if entry.is_dir(follow_symlinks=False):
            return True
        if not entry.is_symlink():
            return False
    except OSError:
        return False
    return _io().walkable(entry.path, within=within)


def project_folders(root: str, *, note: bool = False) -> list[str]:
    """The project folders under `root`'s `projects/`, in name order."""
    base = projects_dir(root)
    return [e.path for e in listing(base, note=note) if _goes_into(e, base)]


def project_mtimes(root: str) -> dict[str, int]:
    """Each entry of `projects/` by name, with its mtime in ns (a project gained a file)."""
    from session_kit.base.timestamps import mtime_ns  # not in the hooks that locate a transcript

    found = {}
    try:
        with os.scandir(projects_dir(root)) as it:
            for entry in it:
                try:
                    found[entry.name] = mtime_ns(entry.stat())
                except OSError:
                    pass
    except OSError:
        pass
    return found


def count_named_as_sessions(project: str) -> int:
    """How many names in a project folder end as transcripts do (names only, nothing stat'ed)."""
    try:
        return sum(name.endswith(SESSION_SUFFIX) for name in os.listdir(project))
    except (OSError, ValueError):
        return 0


def session_entries(project: str, folders: set[str]):
    """A project's transcripts as (id, path, stat), in the order the folder lists them, as
    it lists them; the names of its folders are added to `folders` on the way (a session has
    a `<id>/` folder when its id is there once this is exhausted). Only regular files: a
    FIFO, a device, a symlink loop or a dangling link named like one is passed over (named).
    The listing of thousands of sessions runs this: one `scandir`, one stat a file."""
    import stat

    skipped, reason = _io().skipped, _io().reason
    try:
        with os.scandir(project) as it:
            for e in it:
                name = e.name
                if _is_dir(e):
                    folders.add(name)
                elif name.endswith(SESSION_SUFFIX) and not name.startswith(AGENT_PREFIX):
                    try:
                        st = e.stat()
                    except OSError as exc:  # a symlink loop or a dangling link (or removed)
                        if not isinstance(exc, FileNotFoundError) or e.is_symlink():
                            skipped(e.path, reason(exc))
                        continue
                    if not stat.S_ISREG(st.st_mode):  # a FIFO or a device is no transcript
                        skipped(e.path, "not a regular file")
                        continue
                    yield name[: -len(SESSION_SUFFIX)], e.path, st
    except (FileNotFoundError, NotADirectoryError):
        return
    except OSError as exc:  # an unreadable project: the others are still listed
        skipped(project, reason(exc))


def _is_dir(entry: os.DirEntry) -> bool:
    try:
        return entry.is_dir()
    except OSError:  # a symlink loop, or gone
        return False


class Found:
    """One file met by the walk: where it is, what it is, whose it is."""

    __slots__ = ("agent", "entry", "kind", "path", "project", "session")

    def __init__(
        self, path: str, kind: str, project: str, session: str | None, agent: str | None, entry: os.DirEntry | None
    ) -> None:
        self.path = path
        self.kind = kind
        self.project = project  # the project folder's name
        self.session = session  # None: a 2025 agent log, whose head names its session
        self.agent = agent
        self.entry = entry  # the listing's entry (its stat is cheap), None when not listed

    def stat(self) -> os.stat_result:
        """The file's stat (through a symlink); OSError when it is gone or a loop."""
        return self.entry.stat() if self.entry is not None else os.stat(self.path)

    def regular(self) -> bool:
        """Whether it is a regular file (a FIFO, a device or a folder named like one is not)."""
        import stat

        try:
            return stat.S_ISREG(self.stat().st_mode)
        except (OSError, ValueError):
            return False


def project_files(folder: str, *, folders=None, contents: bool = False, note: bool = False):
    """The files of one project folder (`projects/<project>/`), in name order: its
    transcripts (TRANSCRIPT), set-aside copies (SET_ASIDE), 2025 agent logs (LEGACY_AGENT,
    whose session is None: `headfield.head_field` reads it) and its other files (PROJECT_FILE); and
    for each folder in it (a session's `<id>/`, also when its transcript is gone) for which
    `folders(name)` holds (None: every one; False: none), its agent logs, with `contents`
    every file in it (`session_folder_files`)."""
    project = os.path.basename(folder)
    for entry in listing(folder, note=note):
        name = entry.name
        if name.endswith(SESSION_SUFFIX):
            agent = agent_of_name(name)
            if agent is not None:
                yield Found(entry.path, LEGACY_AGENT, project, None, agent, entry)
            else:
                yield Found(entry.path, TRANSCRIPT, project, name[: -len(SESSION_SUFFIX)], None, entry)
            continue
        set_aside = set_aside_of_name(name)
        if set_aside is not None:
            yield Found(entry.path, SET_ASIDE, project, set_aside, None, entry)
        elif folders is not False and (folders is None or folders(name)) and _goes_into(entry, folder):
            yield from session_folder_files(entry.path, name, project, contents=contents, note=note)
        elif contents and not _is_dir(entry):
            yield Found(entry.path, PROJECT_FILE, project, None, None, entry)


def session_folder_files(folder: str, session: str, project: str, *, contents: bool = False, note: bool = False):
    """A session's `<id>/` folder: its agent logs (`subagents/agent-*.jsonl`, then each
    workflow run's), or with `contents` every file in it, links left alone (meta files,
    `tool-results/`, titles, journals: SESSION_FILE), in a stable order."""
    if not contents:
        yield from agent_logs(folder, session, project, note=note)
        return
    for path, dirs, names in os.walk(folder):
        dirs.sort()
        rel = os.path.relpath(path, folder).split(os.sep)
        for name in sorted(names):
            full = os.path.join(path, name)
            if os.path.islink(full):
                continue
            agent = agent_of_name(name) if rel[0] == SUBAGENTS else None
            if agent is not None and len(rel) == 1:
                yield Found(full, AGENT, project, session, agent, None)
            elif agent is not None and len(rel) == 3 and rel[1] == WORKFLOWS:
                yield Found(full, WORKFLOW_AGENT, project, session, agent, None)
            else:
                yield Found(full, SESSION_FILE, project, session, None, None)


def agent_logs(folder: str, session: str, project: str, *, note: bool = False) -> list[Found]:
    """A session folder's agent logs: `subagents/agent-*.jsonl`, then each workflow run's
    (`subagents/workflows/<run>/agent-*.jsonl`); regular or not (`Found.regular`)."""
    subagents = os.path.join(folder, SUBAGENTS)
    found = []
    workflows = None
    for entry in listing(subagents, note=note):
        agent = agent_of_name(entry.name)
        if agent is not None:
            found.append(Found(entry.path, AGENT, project, session, agent, entry))
        elif entry.name == WORKFLOWS and _goes_into(entry, subagents):
            workflows = entry.path
    if workflows is not None:
        for run in listing(workflows, note=note):
            if _goes_into(run, workflows):
                for entry in listing(run.path, note=note):
                    agent = agent_of_name(entry.name)
                    if agent is not None:
                        found.append(Found(entry.path, WORKFLOW_AGENT, project, session, agent, entry))
    return found


def legacy_agent_logs(project_dir: str, *, note: bool = False) -> list[Found]:
    """A project's 2025 agent logs beside its sessions, in name order (their session: `headfield.head_field`)."""
    project = os.path.basename(project_dir)
    try:  # names alone: a project of thousands of sessions holds a few of these, if any
        names = [n for n in os.listdir(project_dir) if n.startswith(AGENT_PREFIX) and n.endswith(SESSION_SUFFIX)]
    except (FileNotFoundError, NotADirectoryError, ValueError):
        return []
    except OSError as exc:
        if note:
            _io().skipped(project_dir, _io().reason(exc))
        return []
    path = os.path.join
    return [
        Found(path(project_dir, n), LEGACY_AGENT, project, None, agent, None)
        for n in sorted(names)
        if (agent := agent_of_name(n)) is not None
    ]


def find_agent_log(project: str, session: str, agent: str) -> str | None:
    """An agent's log under its session's folder (`subagents/`, or a workflow run's), a regular file."""
    direct = agent_log_path(project, session, agent)
    if _io().is_regular(direct):
        return direct
    for log in agent_logs(session_dir(project, session), session, os.path.basename(project)):
        if log.agent == agent and log.regular():
            return log.path
    return None


def plan_files(root: str) -> list[str]:
    """The plan files in `<root>/plans/` (`*.md`), in name order."""
    return [e.path for e in listing(plans_dir(root)) if e.name.endswith(".md")]


def files_under(folder: str):
    """Every file under a folder (a Claude root's own: plans, shell snapshots), links left
    alone, in a stable order."""
    for path, dirs, names in os.walk(folder):
        dirs.sort()
        for name in sorted(names):
            found = os.path.join(path, name)
            if os.path.isfile(found) and not os.path.islink(found):
                yield found
