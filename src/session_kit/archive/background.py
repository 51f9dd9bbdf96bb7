"""Archive work in a child process the hook does not wait for.

Owns: forking (the memory capture's pattern: `memory.capture.capture_in_background`), the
child's detaching (own session, standard streams closed so the client does not wait on
them) and its logging; the child archives the files of one session (`store.session_files`).
Standard library only, and light: the hook's own process imports nothing but `os` for it;
`zlib`, `hashlib` and the store are loaded in the child.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


def archive_session_now(state_root: str, claude_root: str, transcript: str) -> tuple[int, int]:
    from session_kit.archive import store

    errors: list[str] = []
    result = store.archive_paths(state_root, claude_root, store.session_files(claude_root, transcript), errors=errors)
    if errors:
        raise OSError("; ".join(errors[:3]))
    return result


def claude_root_of(transcript: str) -> str | None:
    """The Claude root a transcript lives under: the folder above `projects/<project>/`."""
    project = os.path.dirname(os.path.abspath(transcript))
    projects = os.path.dirname(project)
    if os.path.basename(projects) != "projects":
        return None
    return os.path.dirname(projects)


def archive_in_background(state_root: str, transcript: str, *, log: Callable[[str], object]) -> bool:
    """Archive the session of `transcript` in a child; False when it ran here (no fork)."""
    claude_root = claude_root_of(transcript)
    if claude_root is None:
        log(f"archive skipped: {transcript} is not under a Claude root's projects/")
        return False
    if not hasattr(os, "fork"):
        archive_session_now(state_root, claude_root, transcript)
        return False
    try:
        pid = os.fork()
    except OSError:
        archive_session_now(state_root, claude_root, transcript)
        return False
    if pid:
        return True
    code = 0
    try:
        os.setsid()  # not ended with the hook's process group, nor by a hang-up
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):  # the client reads the hook's output until every copy is closed
            os.dup2(null, fd)
        archive_session_now(state_root, claude_root, transcript)
    except BaseException as exc:  # the child must end here, whatever happens
        code = 1
        try:
            log(f"archive in the background failed: {type(exc).__name__}: {exc}")
        except BaseException:
            pass
    finally:
        os._exit(code)
