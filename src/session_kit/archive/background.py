"""Archive work in a child process the hook does not wait for.

Owns: what the child does (it archives the files of one session, `store.session_files`);
the fork and the child's detaching are `state.detach`'s, as for the memory's capture.
Standard library only, and light: the hook's own process imports nothing but `os` and
`state.detach` for it; `zlib`, `hashlib` and the store are loaded in the child.
"""

from __future__ import annotations

from session_kit.base.detach import in_child
from session_kit.base.layout import in_project_folder, where

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


def archive_session_now(state_root: str, claude_root: str, transcript: str) -> tuple[int, int]:
    from session_kit.archive import layout, store

    errors: list[str] = []
    base = layout.base_dir(state_root, claude_root, create=True)
    result = store.archive_paths(base, claude_root, store.session_files(claude_root, transcript), errors=errors)
    if errors:
        raise OSError("; ".join(errors[:3]))
    return result


def claude_root_of(transcript: str) -> str | None:
    """The Claude root a transcript lives under: the folder above `projects/<project>/`."""
    place = where(transcript)
    return place.root if place is not None and in_project_folder(place) else None


def archive_in_background(state_root: str, transcript: str, *, log: Callable[[str], object]) -> bool:
    """Archive the session of `transcript` in a child; False when it ran here (no fork)."""
    claude_root = claude_root_of(transcript)
    if claude_root is None:
        log(f"archive skipped: {transcript} is not in a project folder of a Claude root")
        return False
    # Behind the client and the hook still exiting: nobody waits for the copy, and on 2 busy
    # cores a child at the hook's priority kept SessionEnd ~10 ms longer (1.33-1.43x python -c
    # pass, against 1.2x with no archive).
    return in_child(
        lambda: archive_session_now(state_root, claude_root, transcript), log=log, what="archive", niceness=10
    )
