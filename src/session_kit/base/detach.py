"""Work a hook hands to a child process, so the client waiting for the hook goes on at once.

Owns: forking, detaching the child (its own session, so a hang-up or the end of the hook's
process group does not end it; its standard streams on /dev/null, because the client reads
the hook's output until every copy of it is closed), ending the child whatever the work
does, and running the work here instead where there is no fork. Standard library only: the
hooks import it. Does not know what the work is (the memory's capture, the archive's copy).
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


def in_child(work: Callable[[], object], *, log: Callable[[str], object], what: str, niceness: int = 0) -> bool:
    """Run `work` in a detached child and return at once: True. Where there is no fork, run
    it here and return False. A child's failure is logged as "`what` in the background
    failed: …"; it never reaches the caller. `niceness` lowers the child's priority, for work
    nobody waits for (a capture is waited for by the next start: it keeps the hook's)."""
    try:
        pid = os.fork() if hasattr(os, "fork") else None
    except OSError:
        pid = None
    if pid is None:
        work()
        return False
    if pid:
        return True
    code = 0
    try:
        os.setsid()
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        # Only now: until the child lets go of the hook's stdout, the client (reading it to its
        # end) waits for the child, and a lowered priority would make it wait longer.
        if niceness:
            try:
                os.nice(niceness)
            except OSError:  # not allowed here: the work runs all the same
                pass
        work()
    except BaseException as exc:  # the child must end here, whatever happens
        code = 1
        try:
            log(f"{what} in the background failed: {type(exc).__name__}: {exc}")
        except BaseException:
            pass
    finally:
        os._exit(code)
