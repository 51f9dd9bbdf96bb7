"""The kit's own state root and the safe ways to write into it. Standard library only.

Owns: where the kit keeps its state (`SESSION_KIT_HOME`, else the platform's user state
directory, as platformdirs computes it), the layout inside it (per-project scratch
directories of sessions, the per-project `current-session-id` pointer, the hook log, locks,
install receipts and backups), file locks and writing the hook log. Writing a file whole
(atomically, privately) is `fileio`'s. The id
rule is `ids`; which session is current is `current`.
Hooks import this module, so it must stay cheap to import: no pathlib, no platformdirs, no
filelock on POSIX (measured: importing filelock alone costs more than the hook's budget).

Layout:
    <root>/projects/<project-key>/current-session-id
    <root>/projects/<project-key>/sessions/<session-id>/   the session's scratch dir
    <root>/logs/hooks.log
    <root>/locks/
    <root>/install/                                        receipts and backups of settings
    <root>/hook, <root>/bin/session-kit                    the launchers install writes (`install.kit_files`)
    <root>/archive/                                        the archive (inside it: `archive.layout`)
    <root>/budgets/<session-id>/                           the budgets' counts (`state.budgets`)
"""

from __future__ import annotations

import os
import sys
import time

# Annotations only: `collections.abc` costs the hooks ~2 ms to import (and `typing` more).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

APP_NAME = "claude-session-kit"


def state_root(env: Mapping[str, str] | None = None) -> str:
    """`SESSION_KIT_HOME`, else platformdirs' `user_state_dir("claude-session-kit")`."""
    env = os.environ if env is None else env
    explicit = env.get("SESSION_KIT_HOME")
    if explicit:
        return os.path.abspath(os.path.expanduser(explicit))
    xdg = env.get("XDG_STATE_HOME", "").strip()
    if sys.platform.startswith("linux") or sys.platform == "darwin":
        # platformdirs (4.x) honours XDG_STATE_HOME on Linux and macOS when it is absolute.
        if xdg and os.path.isabs(xdg):
            return os.path.join(xdg, APP_NAME)
        home = user_home(env)
        if sys.platform == "darwin":
            return os.path.join(home, "Library", "Application Support", APP_NAME)
        return os.path.join(home, ".local", "state", APP_NAME)
    import platformdirs  # other platforms: ask the library itself (slower, but correct)

    return platformdirs.user_state_dir(APP_NAME, appauthor=False)


class StateRootUnknown(ValueError):
    """No usable home to keep the state in, and no SESSION_KIT_HOME or XDG_STATE_HOME."""


def user_home(env: Mapping[str, str]) -> str:
    """`$HOME`, else (empty, `/` or relative: state would land in `/.local/…` or wherever the
    process runs) the user's home from the password database; StateRootUnknown if neither."""
    home = env.get("HOME", "")
    if os.path.isabs(home) and home.strip("/"):
        return home
    try:
        import pwd

        home = pwd.getpwuid(os.getuid()).pw_dir
    except (ImportError, KeyError, AttributeError):
        home = ""
    if os.path.isabs(home) and home.strip("/"):
        return home
    raise StateRootUnknown("HOME is empty or not absolute and the user has no home folder: set SESSION_KIT_HOME")


def projects_root(root: str) -> str:
    return os.path.join(root, "projects")


def archive_root(root: str) -> str:
    return os.path.join(root, "archive")


def project_root(root: str, project_key: str) -> str:
    return os.path.join(root, "projects", project_key)


def scratch_dir(root: str, project_key: str, session_id: str) -> str:
    from session_kit.state.ids import check_session_id  # here: Stop and SessionEnd need no id rule

    return os.path.join(root, "projects", project_key, "sessions", check_session_id(session_id))


def pointer_path(root: str, project_key: str) -> str:
    return os.path.join(root, "projects", project_key, "current-session-id")


def scratch_location(root: str, session_id: str, project_key: str) -> tuple[str, str]:
    """`(project key, path)` of the session's scratch dir: the existing one wherever it is
    (the usual case, one stat), else where a new one goes, under `project_key`."""
    expected = scratch_dir(root, project_key, session_id)
    if os.path.isdir(expected):
        return project_key, expected
    existing = find_scratch_dir(root, session_id)
    if existing:
        return os.path.basename(os.path.dirname(os.path.dirname(existing))), existing
    return project_key, expected


def find_scratch_dir(root: str, session_id: str) -> str | None:
    """The existing scratch dir of a session, in whichever project it was made."""
    from session_kit.state.ids import check_session_id

    check_session_id(session_id)
    base = projects_root(root)
    try:
        keys = os.listdir(base)
    except OSError:
        return None
    best = None
    best_mtime = -1.0
    for key in keys:
        candidate = os.path.join(base, key, "sessions", session_id)
        try:
            mtime = os.stat(candidate).st_mtime
        except OSError:
            continue
        if mtime > best_mtime:
            best, best_mtime = candidate, mtime
    return best


class UnsafePath(ValueError):
    """A folder in the state root is a symlink (planted, or left by someone): the kit does
    not write through it, or its writes would land wherever the link points."""

    def __init__(self, path: str) -> None:
        super().__init__(f"{path} is a symlink inside the kit's state folder; nothing was written through it")
        self.path = path


def ensure_dir(path: str, *, root: str | None = None) -> str:
    """Create `path` and any missing parent private to the user (0700 each, not only the last:
    the state root holds project paths and session ids). With `root`, refuse (UnsafePath) a
    symlink anywhere from below `root` down to `path`, before making anything and after."""
    if root is not None:
        check_no_symlink(root, path)
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except FileNotFoundError:
        parent = os.path.dirname(path)
        if not parent or parent == path:
            raise
        ensure_dir(parent)
        try:
            os.mkdir(path, 0o700)
        except FileExistsError:
            pass
    if root is not None:
        check_no_symlink(root, path)
    return path


def check_no_symlink(root: str, path: str) -> None:
    """UnsafePath when a component of `path` below `root` is a symlink (the root itself may be
    one: a person's choice)."""
    relative = os.path.relpath(path, root)
    if relative == os.curdir:
        return
    if relative.startswith(os.pardir):
        raise UnsafePath(path)
    current = root
    for part in relative.split(os.sep):
        current = os.path.join(current, part)
        try:
            if os.path.islink(current):
                raise UnsafePath(current)
        except OSError:
            return  # not there (yet): nothing is written through it


class locked:  # lower case: used like a function, `with locked(path):`
    """Hold an exclusive lock on `path + ".lock"` (created 0600) for the block.

    fcntl.flock where there is fcntl (the same lock filelock takes on POSIX, without the cost
    of importing it); filelock elsewhere. A class, not @contextmanager: contextlib is one
    more import on the hooks' path.
    """

    __slots__ = ("lock_path", "timeout", "_fd", "_other")

    def __init__(self, path: str, *, timeout: float = 10.0) -> None:
        self.lock_path = path + ".lock"
        self.timeout = timeout
        self._fd: int | None = None
        self._other = None

    def __enter__(self) -> None:
        try:
            import fcntl
        except ImportError:  # not POSIX: filelock knows the platform's way
            import filelock

            self._other = filelock.FileLock(self.lock_path, timeout=self.timeout, mode=0o600)
            self._other.acquire()
            return
        from session_kit.base.fileio import NOFOLLOW, open_fd

        fd = open_fd(self.lock_path, flags=os.O_RDWR | os.O_CREAT | NOFOLLOW)[0]
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    os.close(fd)
                    raise TimeoutError(f"could not lock {self.lock_path} within {self.timeout:.0f}s") from None
                time.sleep(0.002)
        self._fd = fd

    def __exit__(self, *exc: object) -> None:
        if self._other is not None:
            self._other.release()
        elif self._fd is not None:
            os.close(self._fd)  # closing releases the lock
            self._fd = None


def append_line(path: str, line: str) -> None:
    """Append one line in one write (`fileio.append`: never waits on a FIFO in the log's place,
    never follows a symlink planted there)."""
    from session_kit.base.fileio import append  # only a hook that logs pays for it

    append(path, (line.rstrip("\n") + "\n").encode("utf-8", "replace"))


def log(root: str, message: str) -> str:
    """Append a timestamped line to the kit's hook log; returns the log's path."""
    folder = ensure_dir(os.path.join(root, "logs"), root=root)
    path = os.path.join(folder, "hooks.log")
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime())
    append_line(path, f"{stamp}Z pid={os.getpid()} {message}")
    return path


def now_iso() -> str:
    t = time.time()
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + f".{int(t % 1 * 1000):03d}Z"
