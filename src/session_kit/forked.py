"""Jobs shared between this process and forked copies of it, results given back in order.

Owns: `ordered_map`, running a function over a list of jobs in `workers` processes, this one
and `workers - 1` forks, each taking the next job as soon as it is free, and yielding the
results in the jobs' order as soon as each one and all before it are done; the warnings a job
raised in a fork are raised again here, with its result. A job a fork could not finish (it
raised, or the fork died) is done again here, so no result is ever lost and an error is the
one this process meets. `spare_workers` says how many processes pay for a number of jobs;
`cores` and `enlarge_pipe` serve the kit's other work beside a fork (preprocess's redaction
worker).
Standard library only; POSIX (`fork`). Does not know what a job is.

Why not `concurrent.futures.ProcessPoolExecutor`: it keeps this process idle while its workers
run, and its queues, threads and pickling cost 0.3-0.5 s of CPU over the 226 jobs of a search
of 10,000 sessions (measured: 1.9 s of CPU for one process, 2.4 s for a pool of 2). Here jobs
are handed out through a pipe that holds every job's number (a 4-byte read from a pipe is
atomic, so no two processes take the same job), and a fork sends each result back as soon as
it has it, through a second pipe, enlarged where Linux allows so that a fork rarely waits.
"""

from __future__ import annotations

import os
import struct
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

try:
    import fcntl
except ImportError:  # not POSIX: there is no fork either
    fcntl = None  # type: ignore[assignment]

J = TypeVar("J")
R = TypeVar("R")

_TICKET = struct.Struct("=I")
_HEADER = struct.Struct("=II")  # job number, length of the pickled (result, warnings)
_FAILED = 0xFFFFFFFF  # the "job number" of a fork's last record when a job failed there: which one
_PIPE_BYTES = 1024 * 1024
# (message, category, filename, lineno) of each warning a job raised
Caught = list[tuple[Any, type[Warning], str, int]]


MIN_JOBS = 4  # fewer: a fork (~2 ms) and the pickling cost more than they save


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def spare_workers(jobs: int, *, most: int = 2) -> int:
    """Processes worth running `jobs` jobs in: one per core up to `most`, one for a few jobs."""
    return 1 if jobs < MIN_JOBS or not hasattr(os, "fork") else max(1, min(most, cores()))


def ordered_map(func: Callable[[J], R], jobs: Sequence[J], *, workers: int) -> Iterator[R]:
    """`func(job)` for each job, in order, computed by `workers` processes.

    With one worker (or one job, or no `fork`) this is a plain loop. A job that fails in a
    fork, or whose fork dies, is done again here: its result, or its error, is this process's.
    Closing the iterator early stops the forks.
    """
    workers = min(workers, len(jobs))
    tickets = _tickets(len(jobs)) if workers > 1 and hasattr(os, "fork") else None
    if tickets is None:
        yield from map(func, jobs)
        return
    import signal  # here, as `pickle` below: a plain loop (a small root) pays for neither

    results_r, results_w = os.pipe()
    enlarge_pipe(results_w)
    children = []
    try:
        for _ in range(workers - 1):
            pid = os.fork()
            if pid == 0:  # pragma: no cover - runs in the fork, reported through the pipe
                os.close(results_r)
                _serve(func, jobs, tickets, results_w)
            children.append(pid)
        os.close(results_w)
        results_w = -1
        done: dict[int, tuple[R, Caught]] = {}
        reader = _Records(results_r)
        following = 0  # the next job to give back
        while following < len(jobs):
            job = _take(tickets)
            if job is not None:
                done[job] = _run(func, jobs[job])
            for number, result, caught in reader.ready(block=job is None):
                done[number] = _run(func, jobs[number]) if result is _LOST else (result, caught)
            if job is None and reader.ended and following not in done:
                done[following] = _run(func, jobs[following])  # its fork died with it
            while following in done:
                result, caught = done.pop(following)
                for message, category, filename, lineno in caught:
                    warnings.warn_explicit(message, category, filename, lineno)
                yield result
                following += 1
    finally:
        for fd in (tickets, results_r, results_w):
            if fd >= 0:
                os.close(fd)
        for pid in children:
            try:
                os.kill(pid, signal.SIGTERM)  # ours, and done unless we stopped early
            except ProcessLookupError:
                pass
            os.waitpid(pid, 0)


def _tickets(count: int) -> int | None:
    """The read end of a pipe holding the numbers of `count` jobs (None: they do not fit)."""
    read, write = os.pipe()
    enlarge_pipe(write)
    os.set_blocking(write, False)
    data = b"".join(_TICKET.pack(i) for i in range(count))
    try:
        written = os.write(write, data)
    except BlockingIOError:
        written = 0
    os.close(write)  # an empty pipe then reads as the end: no job is left
    if written == len(data):
        return read
    os.close(read)  # more jobs than a pipe holds (the caller should group them): no forks
    return None


def enlarge_pipe(fd: int) -> None:
    """Let a pipe hold 1 MB where Linux allows, so that its writer rarely waits for its reader
    (fewer switches between the two processes)."""
    setpipe = getattr(fcntl, "F_SETPIPE_SZ", None)
    if setpipe is None:
        return
    try:
        fcntl.fcntl(fd, setpipe, _PIPE_BYTES)
    except OSError:  # above /proc/sys/fs/pipe-max-size: the default size only slows a fork
        pass


def _take(tickets: int) -> int | None:
    data = os.read(tickets, _TICKET.size)
    return _TICKET.unpack(data)[0] if data else None


def _run(func: Callable[[J], R], job: J) -> tuple[R, Caught]:
    """The job's result and the warnings it raised (kept, to be raised again in order)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = func(job)
    return result, [(w.message, w.category, w.filename, w.lineno) for w in caught]


def _serve(func: Callable[[J], R], jobs: Sequence[J], tickets: int, results: int) -> None:  # pragma: no cover
    """A fork's life: take jobs until none is left, send each result, exit."""
    code = 0
    job = None
    try:
        while (job := _take(tickets)) is not None:
            result, caught = _run(func, jobs[job])
            _send(results, job, (result, caught))
    except BaseException:  # the parent does the job again (and meets the error, if it is one)
        code = 1
        if job is not None:
            try:
                _send(results, _FAILED, (job, []))
            except BaseException:  # the parent is gone: there is no one to tell
                pass
    finally:
        os._exit(code)


def _send(fd: int, number: int, payload: object) -> None:
    import pickle

    data = pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(_HEADER.pack(number, len(data)) + data)
    while view:
        view = view[os.write(fd, view) :]


class _Records:
    """The results the forks sent, read as they arrive."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buffer = bytearray()
        self.ended = False

    def ready(self, *, block: bool) -> Iterator[tuple[int, Any, Caught]]:
        """Every whole record that has arrived; with `block`, wait for at least one (or the end)."""
        os.set_blocking(self.fd, block)
        while not self.ended:
            try:
                data = os.read(self.fd, _PIPE_BYTES)
            except BlockingIOError:
                return
            if not data:
                self.ended = True
                break
            self.buffer += data
            records = list(self._whole())
            yield from records
            if records and block:
                os.set_blocking(self.fd, False)
                block = False
        yield from self._whole()
        if self.ended:
            self.buffer.clear()  # a fork that died mid-result: that job is done again here

    def _whole(self) -> Iterator[tuple[int, Any, Caught]]:
        import pickle

        while len(self.buffer) >= _HEADER.size:
            number, length = _HEADER.unpack_from(self.buffer)
            end = _HEADER.size + length
            if len(self.buffer) < end:
                return
            result, caught = pickle.loads(self.buffer[_HEADER.size : end])
            del self.buffer[:end]
            if number == _FAILED:
                yield result, _LOST, []  # `result` is the job's number
                continue
            yield number, result, caught


_LOST = object()  # the result of a job a fork could not finish
