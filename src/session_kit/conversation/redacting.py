"""Redacting the converter's batches of text, here or in a forked worker running beside it.

Owns: `BatchRedactor`, which takes a batch (the texts of some units, joined with NUL) and
gives back the same batch redacted, in the order batches were handed over, with the redactor's
counts updated as if it had run here. When the converter asks for it (on a big file with a
second core to spare: `noise.second_core_pays`), the work is done by a forked worker process
while the converter builds the next batch: redaction is about
a fifth of preprocessing's time (~110 ms of a 60 MB session's ~550 ms) and needs nothing the
converter has but the text. One batch is in flight at most, so neither side ever blocks writing
into a full pipe while the other does too. When the worker cannot be started or fails, the
batch is redacted here: the output is the same either way. Does not decide when a worker pays,
what a batch holds or how the result goes into units (that is `convert`).
"""

from __future__ import annotations

import os
import struct
from collections import Counter

from session_kit.forked import enlarge_pipe
from session_kit.redact import Redactor

_HEADER = struct.Struct("<q")
_PIPE_BUFFER = 1024 * 1024
# Texts may hold lone surrogates (read from `\ud800` escapes): they cross the pipe as written.
_CODEC = ("utf-8", "surrogatepass")
_MAX_FD = 65536


class BatchRedactor:
    """Redacts batches with `redactor`, in a worker process when `parallel`.

    `submit` a batch, then `result` gives it back redacted; one batch at a time."""

    def __init__(self, redactor: Redactor, *, parallel: bool) -> None:
        self.redactor = redactor
        self._waiting: str | None = None  # the batch handed over, kept until its result is in
        self._done: str | None = None  # its result, when it was redacted here
        self._worker: _Worker | None = _Worker.start(redactor) if parallel else None

    def submit(self, batch: str) -> None:
        if self._waiting is not None:
            raise RuntimeError("one batch at a time: take the result of the last one first")
        self._waiting = batch
        if self._worker is not None:
            try:
                self._worker.send(batch)
                return
            except OSError:
                self._stop_worker()
        self._done = self.redactor(batch)

    def result(self) -> str:
        batch, self._waiting = self._waiting, None
        if batch is None:
            raise RuntimeError("no batch was handed over")
        if self._done is not None:
            done, self._done = self._done, None
            return done
        assert self._worker is not None
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
