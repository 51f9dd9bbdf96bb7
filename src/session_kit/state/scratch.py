"""Scratch storage: one directory per session, and the work state the agent keeps there.

Owns: creating and finding a session's scratch directory (a named session's or the current
one's, under `root`'s layout), the work state in it (`state.json`: named values and
timestamped notes), snapshots of it taken before compaction, the session's record
(`session.json`), writing the per-project pointer to the current session (reading it is
`current`), listing and cleaning. Standard library only and free of dataclasses and pathlib:
the hooks import it. Does not know about Claude Code's settings or transcripts.

Files in a scratch dir (anything else there is the agent's own):
    session.json     id, project, transcript path, first and last start, sources seen
    state.json       {"values": {key: text}, "notes": [{"at": iso, "text": text}], "updated": iso}
    snapshots/       copies of state.json taken by the PreCompact hook
"""

from __future__ import annotations

import os
import time

from session_kit.base import fastjson, fileio
from session_kit.state import root as state
from session_kit.state.current import current_session_id, every_current_session_id, project_key_for
from session_kit.state.ids import check_session_id

# Annotations only: `collections.abc` costs the hooks ~2 ms to import (and `typing` more).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

STATE_FILE = "state.json"
META_FILE = "session.json"
SNAPSHOTS = "snapshots"
PENDING_RESTORE = "restore-pending"  # set by PreCompact, cleared once the state is re-injected
MAX_KEY_LENGTH = 200
MAX_VALUE_BYTES = 1024 * 1024
MAX_STATE_BYTES = 256 * MAX_VALUE_BYTES  # far past what `set` and `note` let in; bounds a read


class ScratchError(ValueError):
    """A user-facing problem with a scratch request (bad key, unknown session…)."""


class NoCurrentSession(ScratchError):
    """No session was named, and neither the environment nor the project's pointer names one."""


class StateFileDamaged(ScratchError):
    """`state.json` exists but cannot be read as work state. It is kept as it is and no
    write replaces it: taking it for empty would lose every saved value and note."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"the work state in {path} cannot be read ({reason}); it was left as it was")
        self.path = path


def check_key(key: str) -> str:
    if not key or len(key) > MAX_KEY_LENGTH:
        raise ScratchError(f"a key must have 1 to {MAX_KEY_LENGTH} characters")
    if any(ord(c) < 32 or ord(c) == 127 for c in key):
        raise ScratchError("a key must not contain control characters")
    return key


def empty_state() -> dict[str, object]:
    return {"values": {}, "notes": [], "updated": None}


def _read_json(path: str) -> object:
    try:
        return fileio.read_json(path, MAX_STATE_BYTES)
    except FileNotFoundError:
        return None
    except ValueError:
        return None  # a damaged file reads as absent; writers replace it whole


def _dump(value: object) -> bytes:
    # A value may hold lone surrogates (bytes that were not UTF-8 in an argument, a file name or
    # stdin): the kit's JSON writes each as an escape that reads back to the very same string.
    return fileio.json_bytes(value, indent=1, sort_keys=True)


def _read_state_file(path: str) -> dict | None:
    """The parsed work state; None when there is no file; StateFileDamaged when there is one
    that cannot be read as work state."""
    try:
        raw = fileio.read_small(path, MAX_STATE_BYTES + 1)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise StateFileDamaged(path, exc.strerror or type(exc).__name__) from None
    if len(raw) > MAX_STATE_BYTES:
        raise StateFileDamaged(path, f"larger than {MAX_STATE_BYTES} bytes")
    try:
        value = fastjson.loads(raw)
    except (ValueError, RecursionError) as exc:  # UnicodeDecodeError is a ValueError
        raise StateFileDamaged(path, f"not JSON: {str(exc)[:80]}") from None
    if not isinstance(value, dict):
        raise StateFileDamaged(path, "not a JSON object")
    if not isinstance(value.get("values", {}), dict) or not isinstance(value.get("notes", []), list):
        raise StateFileDamaged(path, "`values` is not an object or `notes` not a list")
    return value


class SessionScratch:
    """A session's scratch directory. Cheap to make; `create()` makes it exist on disk."""

    __slots__ = ("root", "project_key", "session_id", "path")

    def __init__(self, root: str, project_key: str, session_id: str, path: str | None = None) -> None:
        self.root = root
        self.project_key = project_key
        self.session_id = check_session_id(session_id)
        self.path = path or state.scratch_dir(root, project_key, session_id)

    # --- finding ---
    @classmethod
    def for_session(
        cls,
        session_id: str,
        *,
        project_path: str | None = None,
        project_key: str | None = None,
        root: str | None = None,
    ) -> SessionScratch:
        """The session's existing scratch dir wherever it is, else a new one grouped under
        `project_key` (the client's project folder name) or the key of `project_path`."""
        root = root or state.state_root()
        check_session_id(session_id)
        key = project_key or project_key_for(project_path or os.getcwd())
        found_key, path = state.scratch_location(root, session_id, key)
        return cls(root, found_key, session_id, path)

    def create(self) -> SessionScratch:
        """Make the dir exist (0700 down from the root); UnsafePath where a folder on the way
        is a symlink, which writes would follow."""
        state.ensure_dir(self.path, root=self.root)
        return self

    def exists(self) -> bool:
        return os.path.isdir(self.path)

    def file(self, name: str) -> str:
        return os.path.join(self.path, name)

    # --- pointer ---
    def point_here(self) -> None:
        """Make this session the project's current one (`current-session-id`)."""
        # Unsynced: a hint every start rewrites (a lost one falls back to the newest session).
        fileio.atomic_write(
            state.pointer_path(self.root, self.project_key), (self.session_id + "\n").encode(), sync=False
        )

    # --- session record ---
    def meta(self) -> dict:
        value = _read_json(self.file(META_FILE))
        return value if isinstance(value, dict) else {}

    def record_start(self, *, source: str, transcript_path: str | None, cwd: str | None, env_file: bool) -> dict:
        with state.locked(self.file(META_FILE)):
            meta = self.meta()
            now = state.now_iso()
            meta.setdefault("session_id", self.session_id)
            meta.setdefault("first_start", now)
            meta["last_start"] = now
            meta["project_key"] = self.project_key
            if transcript_path:
                meta["transcript_path"] = transcript_path
            if cwd:
                meta["cwd"] = cwd
            sources = meta.get("sources") if isinstance(meta.get("sources"), dict) else {}
            sources[source] = int(sources.get(source, 0)) + 1
            meta["sources"] = sources
            meta["env_file"] = env_file
            fileio.atomic_write(self.file(META_FILE), _dump(meta), sync=False)  # bookkeeping, see point_here
        return meta

    # --- work state ---
    def read_state(self) -> dict:
        """The work state; empty when there is none; StateFileDamaged when it cannot be read."""
        value = _read_state_file(self.file(STATE_FILE))
        if value is None:
            return empty_state()
        values = value.get("values")
        notes = value.get("notes")
        return {
            "values": {str(k): str(v) for k, v in values.items()} if isinstance(values, dict) else {},
            "notes": [n for n in notes if isinstance(n, dict)] if isinstance(notes, list) else [],
            "updated": value.get("updated"),
        }

    def _change(self, change: Callable[[dict], object]) -> dict:
        self.create()
        with state.locked(self.file(STATE_FILE)):
            current = self.read_state()
            change(current)
            current["updated"] = state.now_iso()
            fileio.atomic_write(self.file(STATE_FILE), _dump(current))
        return current

    def set(self, key: str, value: str) -> dict:
        check_key(key)
        if len(value.encode("utf-8", "surrogatepass")) > MAX_VALUE_BYTES:
            raise ScratchError(f"a value must be at most {MAX_VALUE_BYTES} bytes; write a file in {self.path} instead")
        return self._change(lambda s: s["values"].__setitem__(key, value))

    def unset(self, key: str) -> bool:
        found = [False]

        def drop(s: dict) -> None:
            found[0] = s["values"].pop(key, None) is not None

        self._change(drop)
        return found[0]

    def get(self, key: str) -> str | None:
        return self.read_state()["values"].get(key)

    def note(self, text: str) -> dict:
        if not text.strip():
            raise ScratchError("an empty note")
        if len(text.encode("utf-8", "surrogatepass")) > MAX_VALUE_BYTES:
            raise ScratchError(f"a note must be at most {MAX_VALUE_BYTES} bytes")
        return self._change(lambda s: s["notes"].append({"at": state.now_iso(), "text": text}))

    # --- compaction ---
    def snapshot(self, reason: str) -> str | None:
        """Copy the work state aside (PreCompact) and mark it for re-injection."""
        try:
            data = _dump(self.read_state())
        except StateFileDamaged:  # keep its bytes as they are: they may still be mended by hand
            data = fileio.read_small(self.file(STATE_FILE), MAX_STATE_BYTES)
        folder = state.ensure_dir(self.file(SNAPSHOTS), root=self.root)
        stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime()) + f"-{time.monotonic_ns() % 1_000_000:06d}"
        safe_reason = "".join(c for c in reason if c.isalnum())[:20] or "compact"
        path = os.path.join(folder, f"{stamp}-{safe_reason}.json")
        # Unsynced, both: the snapshot is a copy of the state file, which is synced when it is
        # written and is what a restore reads; the mark only makes a resumed start restore too.
        fileio.atomic_write(path, data, sync=False)
        fileio.atomic_write(self.file(PENDING_RESTORE), (path + "\n").encode(), sync=False)
        return path

    def take_pending_restore(self) -> bool:
        """True once after a snapshot: the state should go back into the model's context."""
        try:
            os.unlink(self.file(PENDING_RESTORE))
            return True
        except FileNotFoundError:
            return False


def scratch_of(
    session_id: str | None, *, root: str | None = None, env: Mapping[str, str] | None = None
) -> SessionScratch:
    """The scratch dir of `session_id`, else of the current session (`state.current`'s rule).

    `$SESSION_KIT_SCRATCH` (exported by the SessionStart hook) is that dir itself when it ends
    in the session's id: then no project needs to be looked up. Raises NoCurrentSession, or
    InvalidSessionId for an id that cannot name a dir.
    """
    env = os.environ if env is None else env
    root = root or state.state_root()
    if not session_id:
        found = current_session_id(env=env, state_root=root)
        if not found:
            raise NoCurrentSession("no session given, and no current session")
        session_id = found[0]
    sid = check_session_id(session_id)
    exported = os.path.normpath(env.get("SESSION_KIT_SCRATCH", "") or ".")
    # Taken only where the layout puts a scratch dir (`<root>/projects/<key>/sessions/<id>`):
    # the variable cannot send the kit's writes outside the state root.
    parts = os.path.relpath(exported, state.projects_root(root)).split(os.sep)
    if len(parts) == 3 and parts[1] == "sessions" and parts[2] == sid and parts[0] not in (os.curdir, os.pardir):
        key = os.path.basename(os.path.dirname(os.path.dirname(exported)))
        return SessionScratch(root, key, sid, exported)
    return SessionScratch.for_session(sid, project_path=env.get("CLAUDE_PROJECT_DIR"), root=root)


# --- rendering the work state for the model ---------------------------------------------------


def render_state(current: Mapping, *, session_id: str, scratch_path: str, limit: int, heading: str) -> str:
    """The work state as context text, at most `limit` characters.

    Past the limit, values are shortened (and then listed by key only), notes keep the newest,
    and the text says where the whole state file is.
    """
    values: Mapping[str, str] = current.get("values") or {}
    notes: list[Mapping] = list(current.get("notes") or [])
    head = f"{heading}\nSession id: {session_id}. Scratch dir: {scratch_path}"
    full_file = os.path.join(scratch_path, STATE_FILE)

    def build(value_cap: int | None, max_notes: int | None, keys_only: bool) -> str:
        lines = [head]
        if values:
            lines.append("Saved values:")
            for key, value in values.items():
                if keys_only:
                    lines.append(f"- {key}")
                    continue
                text = (
                    value
                    if value_cap is None or len(value) <= value_cap
                    else value[:value_cap] + f"… [{len(value)} chars]"
                )
                lines.append(f"- {key}: {text}")
        if notes:
            shown = notes if max_notes is None else notes[-max_notes:]
            lines.append(
                "Notes (oldest first):" if max_notes is None else f"Notes (newest {len(shown)} of {len(notes)}):"
            )
            lines.extend(f"- [{n.get('at', '?')}] {n.get('text', '')}" for n in shown)
        if not values and not notes:
            lines.append("(no values or notes saved)")
        if value_cap is not None or max_notes is not None or keys_only:
            lines.append(f"The state is cut to fit; all of it is in {full_file} (`session-kit scratch show`).")
        return "\n".join(lines)

    for value_cap, max_notes, keys_only in ((None, None, False), (400, 20, False), (80, 5, False), (None, 3, True)):
        text = build(value_cap, max_notes, keys_only)
        if len(text) <= limit:
            return text
    tail = f"\n… cut; all of it is in {full_file} (`session-kit scratch show`)."
    return build(None, 0, True)[: max(0, limit - len(tail))] + tail


# --- listing and cleaning ---------------------------------------------------------------------


def iter_scratch_dirs(root: str) -> list[tuple[str, str, str]]:
    """(project key, session id, path) of every scratch dir under the state root."""
    found = []
    base = state.projects_root(root)
    try:
        keys = sorted(os.listdir(base))
    except OSError:
        return found
    for key in keys:
        sessions = os.path.join(base, key, "sessions")
        try:
            ids = sorted(os.listdir(sessions))
        except OSError:
            continue
        for sid in ids:
            path = os.path.join(sessions, sid)
            if os.path.isdir(path):
                found.append((key, sid, path))
    return found


def scratch_overview(root: str) -> list[dict]:
    """Every readable scratch dir, newest activity first: `session_id`, `project` (its key),
    `path`, `last_activity` (seconds since the epoch), `values` and `notes` (counts)."""
    rows = []
    for key, sid, path in iter_scratch_dirs(root):
        try:
            current = SessionScratch(root, key, sid, path).read_state()
            rows.append(
                {
                    "session_id": sid,
                    "project": key,
                    "path": path,
                    "last_activity": last_activity(path),
                    "values": len(current["values"]),
                    "notes": len(current["notes"]),
                }
            )
        except (OSError, ValueError):  # removed meanwhile, or a folder name that is no session id
            continue
    rows.sort(key=lambda r: r["last_activity"], reverse=True)
    return rows


def last_activity(path: str) -> float:
    """The newest mtime of the scratch dir and the files directly in it."""
    from session_kit.base.timestamps import mtime  # the commands': no hook asks

    newest = mtime(os.stat(path))
    with os.scandir(path) as it:
        for entry in it:
            try:
                newest = max(newest, mtime(entry.stat(follow_symlinks=False)))
            except OSError:
                continue
    return newest


def clean(root: str, *, older_than_s: float, dry_run: bool = False, env: Mapping[str, str] | None = None) -> list[str]:
    """Remove scratch dirs idle for longer than `older_than_s`, never a current session's."""
    keep = every_current_session_id(root, env)
    cutoff = time.time() - older_than_s
    import shutil  # here, not at the top: the hooks import this module

    removed = []
    for _key, sid, path in iter_scratch_dirs(root):
        if sid in keep:
            continue
        try:
            if last_activity(path) >= cutoff:
                continue
        except OSError:
            continue
        removed.append(path)
        if not dry_run:
            shutil.rmtree(path, ignore_errors=True)
    return removed
