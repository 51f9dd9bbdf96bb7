"""Redacting the converter's batches of text, here or in a forked worker running beside it.

Owns: `BatchRedactor`, which takes a batch (the texts of some units, joined with NUL) and
gives back the same batch redacted, with the redactor's counts updated as if it had run here.
When the converter asks for it (on a big file with a second core to spare:
`second_core_pays`), a forked worker process redacts a batch while the converter builds
the next ones, and the converter redacts batches itself when it gets ahead of the worker
(`convert` decides which): both cores redact when redaction is the slower half (it is: ~200
ms of a 60 MB session's work). One batch is in the worker at most, so neither side ever blocks writing into
a full pipe while the other does too. When the worker cannot be started or fails, its batch
is redacted here: the output is the same either way. Does not decide what a batch holds, which
batch is redacted where, the order batches come out in, or how the result goes into units
(that is `convert`).
"""

from __future__ import annotations

import os
import select
import struct
from collections import Counter

from session_kit.forked import cores, enlarge_pipe
from session_kit.redaction.engine import Redactor

# Below this size a worker costs more than it saves (measured: ~1-2 ms to fork and start).
FORK_MIN_BYTES = 8 * 1024 * 1024

_HEADER = struct.Struct("<q")
_PIPE_BUFFER = 1024 * 1024
# Texts may hold lone surrogates (read from `\ud800` escapes): they cross the pipe as written.
_CODEC = ("utf-8", "surrogatepass")
_MAX_FD = 65536


def file_size(path: str | os.PathLike[str]) -> int:
    """The file's size; 0 when it cannot be read (the reading reports the error)."""
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def second_core_pays(size: int) -> bool:
    """Whether redacting a file of `size` bytes pays for a worker beside the conversion: a
    platform that forks, a second core, and a file of FORK_MIN_BYTES or more."""
    return size >= FORK_MIN_BYTES and hasattr(os, "fork") and cores() >= 2


class BatchRedactor:
    """Redacts batches with `redactor`, some in a worker process when `parallel`.

    `send` a batch to the worker (it holds one at a time); `ready` says whether it has
    answered, `result` gives the batch back redacted (waiting for it). `here` redacts a batch
    in this process."""

    def __init__(self, redactor: Redactor, *, parallel: bool) -> None:
        self.redactor = redactor
        self._waiting: str | None = None  # the batch the worker has, kept until its result is in
        self._worker: _Worker | None = None
        # The worker is forked once a batch was redacted here: it inherits the rules' patterns
        # compiled (~12 ms a process) instead of compiling them again.
        self._start = parallel
        self._done_here = 0

    def here(self, batch: str) -> str:
        self._done_here += 1
        return self.redactor(batch)

    def send(self, batch: str) -> bool:
        """Whether the worker took the batch: False without a worker, or while it has one
        (and before a first batch was redacted here)."""
        if self._start and self._done_here:
            self._start = False
            self._worker = _Worker.start(self.redactor)
        if self._worker is None or self._waiting is not None:
            return False
        try:
            self._worker.send(batch)
        except OSError:
            self._stop_worker()
            return False
        self._waiting = batch
        return True

    def ready(self) -> bool:
        """Whether `result` would not wait: the worker has answered (or stopped)."""
        if self._waiting is None:
            raise RuntimeError("no batch was sent to the worker")
        worker = self._worker
        if worker is None:
            return True
        try:
            return bool(select.select([worker.inp], [], [], 0)[0])
        except (OSError, ValueError):
            return True  # `result` finds out what went wrong

    def result(self) -> str:
        """The batch the worker took, redacted (here, if the worker failed)."""
        batch, self._waiting = self._waiting, None
        if batch is None:
            raise RuntimeError("no batch was sent to the worker")
        if self._worker is None:
            return self.redactor(batch)  # the worker was stopped since
        try:
            redacted, counts = self._worker.receive()
        except (OSError, ValueError, EOFError):
            self._stop_worker()
            return self.redactor(batch)  # the worker failed: the batch is redacted here
        self.redactor.counts.update(counts)
        return redacted

    def close(self) -> None:
        self._stop_worker()

    def _stop_worker(self) -> None:
        worker, self._worker = self._worker, None
        if worker is not None:
            worker.stop()


class _Worker:
    """A forked process redacting what comes down one pipe and sending it back up another."""

    def __init__(self, pid: int, to_worker: int, from_worker: int) -> None:
        self.pid = pid
        self.out = os.fdopen(to_worker, "wb", buffering=_PIPE_BUFFER)
        self.inp = os.fdopen(from_worker, "rb", buffering=_PIPE_BUFFER)

    @classmethod
    def start(cls, redactor: Redactor) -> _Worker | None:
        if not hasattr(os, "fork"):
            return None
        try:
            down_r, down_w = os.pipe()
            up_r, up_w = os.pipe()
        except OSError:
            return None
        for fd in (down_w, up_w):
            enlarge_pipe(fd)
        try:
            pid = os.fork()
        except OSError:
            for fd in (down_r, down_w, up_r, up_w):
                os.close(fd)
            return None
        if pid == 0:  # the worker: never returns
            _serve(redactor, down_r, up_w)
        os.close(down_r)
        os.close(up_w)
        return cls(pid, down_w, up_r)

    def send(self, batch: str) -> None:
        data = batch.encode(*_CODEC)
        self.out.write(_HEADER.pack(len(data)))
        self.out.write(data)
        self.out.flush()

    def receive(self) -> tuple[str, Counter[str]]:
        text = _read_frame(self.inp).decode(*_CODEC)
        counts: Counter[str] = Counter()
        for line in _read_frame(self.inp).decode().splitlines():
            kind, _, n = line.rpartition(" ")
            counts[kind] += int(n)
        return text, counts

    def stop(self) -> None:
        for f in (self.out, self.inp):
            try:
                f.close()  # the worker reads the end of its input and exits
            except OSError:
                pass
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass


def _read_frame(f) -> bytes:
    header = f.read(_HEADER.size)
    if len(header) < _HEADER.size:
        raise EOFError("the redaction worker stopped")
    (size,) = _HEADER.unpack(header)
    data = f.read(size)
    if len(data) < size:
        raise EOFError("the redaction worker stopped mid-answer")
    return data


def _serve(redactor: Redactor, down: int, up: int) -> None:
    """The worker's loop: a batch in, the batch redacted and the counts it added out."""
    code = 0
    try:
        # Only its two pipes stay open: a copy of another pipe's end (the transcript reader's)
        # held here would keep that pipe's writer waiting after the converter let go of it.
        low, high = sorted((down, up))
        os.closerange(3, low)
        os.closerange(low + 1, high)
        os.closerange(high + 1, _MAX_FD)
        local = Redactor(redactor.rules)
        with os.fdopen(down, "rb", buffering=_PIPE_BUFFER) as inp, os.fdopen(up, "wb", buffering=_PIPE_BUFFER) as out:
            while True:
                header = inp.read(_HEADER.size)
                if len(header) < _HEADER.size:
                    break
                (size,) = _HEADER.unpack(header)
                batch = inp.read(size).decode(*_CODEC)
                local.counts = Counter()
                data = local(batch).encode(*_CODEC)
                counts = "".join(f"{kind} {n}\n" for kind, n in local.counts.items()).encode()
                out.write(_HEADER.pack(len(data)))
                out.write(data)
                out.write(_HEADER.pack(len(counts)))
                out.write(counts)
                out.flush()
    except BaseException:
        code = 1  # the converter sees a short answer and redacts the batch itself
    finally:
        os._exit(code)  # no atexit handlers, no flushing of the converter's buffers
