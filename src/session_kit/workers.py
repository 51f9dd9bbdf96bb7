"""Work split over two cores, its results in order: a forked child does every other piece.

Owns: `ordered_map`, `func(piece)` for each piece of a sequence, in order, the odd pieces done
by one forked child that sends each result (pickled) through a pipe, the even ones here. The
child runs at most a pipe's worth ahead, so memory does not grow with the number of pieces.
Where there is no `fork` or a single core, or the pieces are few, everything is done here; a
child that fails (or is killed) leaves its pieces to be done here, so a result is never lost.
Does not know what the pieces are; standard library only.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

P = TypeVar("P")
R = TypeVar("R")

MIN_PIECES = 4  # fewer: a fork (~2 ms) and the pickling would cost more than they save
PIPE_BYTES = 1 << 20  # the child can run a piece or two ahead without waiting to write


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def ordered_map(func: Callable[[P], R], pieces: Sequence[P]) -> Iterator[R]:
    """`func(piece)` for each piece, in order; every other piece in a forked child when there
    are enough pieces and a second core. An exception of `func` is raised here, as it would
    be without a child (the child's failed piece is done again here)."""
    if len(pieces) < MIN_PIECES or not hasattr(os, "fork") or cores() < 2:
        yield from map(func, pieces)
        return
    read, write = os.pipe()
    _widen(write)
    sys.stdout.flush()  # nothing buffered is written twice (the child never flushes: `_exit`)
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: the odd pieces, then out, never back into the caller's code
        code = 1
        try:
            os.close(read)
            with os.fdopen(write, "wb") as out:
                for piece in pieces[1::2]:
                    data = pickle.dumps(func(piece), pickle.HIGHEST_PROTOCOL)
                    out.write(len(data).to_bytes(8, "little") + data)
            code = 0
        finally:
            os._exit(code)
    os.close(write)
    child = os.fdopen(read, "rb")
    alive = True
    try:
        for number, piece in enumerate(pieces):
            if number % 2 == 0 or not alive:
                yield func(piece)
                continue
            result = _receive(child)
            if result is None:  # the child failed or was killed: its pieces are done here
                alive = False
                yield func(piece)
            else:
                yield result[0]
    finally:
        child.close()
        if alive:
            try:
                os.kill(pid, signal.SIGKILL)  # stopped early (a limit, a closed pipe): not needed
            except ProcessLookupError:
                pass
        os.waitpid(pid, 0)


def _receive(child) -> tuple[object] | None:
    head = child.read(8)
    if len(head) < 8:
        return None
    size = int.from_bytes(head, "little")
    data = child.read(size)
    if len(data) < size:
        return None
    return (pickle.loads(data),)


def _widen(fd: int) -> None:
    try:
        import fcntl

        fcntl.fcntl(fd, getattr(fcntl, "F_SETPIPE_SZ", 1031), PIPE_BYTES)
    except (ImportError, OSError):  # not Linux, or over the system's limit: the default size
        pass
