"""What a user typed, resolved to one session.

Owns: turning a SESSION argument (a full id, a unique id prefix, a path to a `.jsonl` file, or
`current`) into a `SessionRef`, with NotFound or Ambiguous (and the candidates) when it names
none or several. `current` is `state.current`'s rule, then the newest session of the
project. A session the client deleted but the kit archived is taken from the archive (the
kit's private copy, `archive.view`), marked `archived`; a session whose transcript the client
rewrote (dropping history the archive still holds) is read whole from the same view, with
`earlier_entries` saying how many entries came from the archive. Reads only directory
listings and stats (and, for an archived session, its archived files).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from session_kit.base import timestamps
from session_kit.base.layout import SESSION_SUFFIX
from session_kit.errors import Ambiguous, KitError, NotFound
from session_kit.sessions.store import (
    SessionRef,
    find_project,
    find_session_by_id,
    list_project_dirs,
    list_sessions,
    require_claude_root,
    session_ref_from_path,
)
from session_kit.state import root as state_layout
from session_kit.state.current import SOURCE_ENV, current_session_id
from session_kit.state.ids import is_plain_id

CURRENT = "current"  # the SESSION argument that means the current session


def resolve_session(
    arg: str,
    root: Path,
    *,
    cwd: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
    state_root: str | None = None,
) -> SessionRef:
    """What a user typed — full id, unique prefix, path to a `.jsonl`, or `current` — to a session.

    `current` follows `state.current` (the environment, then the project's pointer), then
    takes the newest session of the project of `cwd`.
    """
    arg = arg.strip()
    if not arg:
        raise KitError("empty session argument")
    if arg == CURRENT:
        return _current_session(root, cwd=cwd, env=env, state_root=state_root)
    if arg.endswith(SESSION_SUFFIX) or os.sep in arg or "/" in arg:
        return session_ref_from_path(Path(arg).expanduser())
    if not is_plain_id(arg):
        raise KitError(f"not a session id, prefix or path: {arg!r}")
    # Never the archive for a folder that is no Claude root: a mistyped --claude-dir
    # would read as "the client deleted this session".
    require_claude_root(root)
    exact = find_session_by_id(root, arg)
    if exact:
        return whole(exact, root, state_root=state_root, env=env)
    matches: dict[str, SessionRef] = {}
    for project in list_project_dirs(root):
        for ref in list_sessions(project):
            if ref.id.startswith(arg) and (ref.id not in matches or ref.mtime > matches[ref.id].mtime):
                matches[ref.id] = ref
    if len(matches) == 1:
        return whole(next(iter(matches.values())), root, state_root=state_root, env=env)
    if not matches:
        archived = from_archive(arg, root, state_root=state_root, env=env)
        if archived is not None:
            return archived
        raise NotFound(f"no session matches {arg!r} under {root}")
    ids = sorted(matches)
    shown = ", ".join(ids[:10]) + (f" (+{len(ids) - 10} more)" if len(ids) > 10 else "")
    raise Ambiguous(f"{arg!r} matches {len(ids)} sessions: {shown}", ids)


def _current_session(
    root: Path, *, cwd: str | os.PathLike[str] | None, env: Mapping[str, str] | None, state_root: str | None
) -> SessionRef:
    """`state.current`'s rule, then the newest session of the folder's project."""
    here = cwd if cwd is not None else os.getcwd()
    env = os.environ if env is None else env
    if state_root is None:
        state_root = state_layout.state_root(env)
    found = current_session_id(env=env, state_root=state_root, project_path=str(here))
    if found is not None:
        session_id, source = found
        ref = find_session_by_id(root, session_id)
        if ref:
            return whole(ref, root, state_root=state_root, env=env)
        archived = from_archive(session_id, root, state_root=state_root, env=env, exact=True)
        if archived is not None:
            return archived
        if source == SOURCE_ENV:  # the environment names this session: never guess another
            raise NotFound(f"the current session {session_id} has no transcript under {root} yet")
    project = find_project(root, here)
    if project is None:
        raise NotFound(f"no Claude Code project for {here} under {root}, and no current session recorded")
    sessions = list_sessions(project)
    if not sessions:
        raise NotFound(f"no sessions in {project}")
    return whole(sessions[0], root, state_root=state_root, env=env)


def _archive_state(state_root: str | None, env: Mapping[str, str] | None) -> str | None:
    """The kit's state root when it holds an archive (one stat when it does not)."""
    try:
        where = state_root or state_layout.state_root(env)
    except (state_layout.StateRootUnknown, OSError):
        return None
    return where if os.path.isdir(state_layout.archive_root(where)) else None


def whole(
    ref: SessionRef, root: Path, *, state_root: str | None = None, env: Mapping[str, str] | None = None
) -> SessionRef:
    """`ref`, or the kit's copy of it when the client rewrote its transcript and the archive
    holds entries the client dropped (those first, then the client's file as it is now)."""
    where = _archive_state(state_root, env)
    if where is None:
        return ref
    from session_kit.archive import view
    from session_kit.archive.settings import archive_settings

    try:
        made = view.for_live_session(
            where, str(root), str(ref.path), ref.id, archive_new=archive_settings(where, env).enabled
        )
    except (OSError, ValueError, EOFError):  # an archive that cannot be read: the client's file, as it is
        made = None
    if made is None:
        return ref
    st = os.stat(made.transcript)
    path = Path(made.transcript)
    return SessionRef(
        ref.id, path, path.parent, timestamps.mtime(st), st.st_size, None, earlier_entries=made.earlier_entries
    )


def from_archive(
    arg: str,
    root: Path,
    *,
    state_root: str | None = None,
    env: Mapping[str, str] | None = None,
    exact: bool = False,
) -> SessionRef | None:
    """The archived session an id (or unique prefix) names, in the archive of the Claude root
    `root`, written out into the kit's private view; None when the archive has none.
    Ambiguous when a prefix names several."""
    where = _archive_state(state_root, env)
    if where is None:
        return None
    from session_kit.archive import layout, view

    base = layout.base_dir(where, str(root))
    ids = view.archived_ids(base, arg)
    if arg in ids or (exact and ids):
        ids = [arg] if arg in ids else []
    if not ids:
        return None
    if len(ids) > 1:
        shown = ", ".join(ids[:10]) + (f" (+{len(ids) - 10} more)" if len(ids) > 10 else "")
        raise Ambiguous(f"{arg!r} matches {len(ids)} archived sessions: {shown}", ids)
    made = view.materialize(base, ids[0])
    if made is None:
        return None
    st = os.stat(made.transcript)
    path = Path(made.transcript)
    return SessionRef(
        ids[0],
        path,
        path.parent,
        timestamps.mtime(st),
        st.st_size,
        None,
        archived=True,
        earlier_entries=made.earlier_entries,
    )
