"""Measuring one command: fresh child processes, best-of-N wall times and peak RSS, a command
and its baseline interleaved round by round.

Owns running and timing; does not judge a figure against a target (`report`).
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Measurement:
    """Wall times and peak RSS of repeated fresh runs of one command."""

    label: str
    argv: tuple[str, ...]
    seconds: tuple[float, ...]
    max_rss_kb: tuple[int, ...]
    returncode: int
    stdout_bytes: int
    note: str = ""

    @property
    def best(self) -> float | None:
        return min(self.seconds) if self.seconds else None

    @property
    def median(self) -> float | None:
        return statistics.median(self.seconds) if self.seconds else None

    @property
    def rss_mb(self) -> float | None:
        """Peak RSS in MiB; the smallest over the runs (the same work every run, so the least
        disturbed figure)."""
        return min(self.max_rss_kb) / 1024 if self.max_rss_kb else None

    @property
    def ok(self) -> bool:
        return self.returncode == 0


# The process that forks the measured command must be small: on Linux a child's peak RSS
# includes what it inherited before exec, so forking from the runner (tens of MB) would put
# a floor under every figure. GNU time is tiny; a bare interpreter is the fallback.
TIME_BIN = shutil.which("time", path="/usr/bin:/bin")
RSS_WRAPPER = (
    "import os,sys\n"
    "pid = os.posix_spawn(sys.argv[2], sys.argv[2:], os.environ)\n"
    "_, status, usage = os.wait4(pid, 0)\n"
    "open(sys.argv[1], 'w').write(str(usage.ru_maxrss))\n"
    "sys.exit(os.waitstatus_to_exitcode(status))\n"
)


def _run_once(
    argv: Sequence[str], *, cwd: Path | None, stdin: bytes | None, capture: bool
) -> tuple[float, int, int, bytes, bytes]:
    """One fresh child: (seconds, max RSS KiB, exit code, stdout if captured, stderr tail)."""
    exe = shutil.which(argv[0]) or argv[0]
    with (
        tempfile.TemporaryFile() as out,
        tempfile.TemporaryFile() as err,
        tempfile.TemporaryFile() as inp,
        tempfile.NamedTemporaryFile("r") as rss,
    ):
        if stdin is not None:
            inp.write(stdin)
            inp.seek(0)
        if TIME_BIN:
            cmd = [TIME_BIN, "-f", "%M", "-o", rss.name, exe, *argv[1:]]
        else:
            cmd = [sys.executable, "-S", "-c", RSS_WRAPPER, rss.name, exe, *argv[1:]]
        began = time.perf_counter()
        # Timed runs write to a pipe that is drained and dropped, as a command's output goes to
        # a terminal or a pager: never to /dev/null, where GNU grep stops at each file's first
        # match (it acts as `-q`) and a baseline would look faster than the work it stands for.
        child = subprocess.Popen(
            cmd,
            cwd=cwd,
            stdin=inp if stdin is not None else subprocess.DEVNULL,
            stdout=out if capture else subprocess.PIPE,
            stderr=err,
        )
        if not capture:
            assert child.stdout is not None
            fd = child.stdout.fileno()
            while os.read(fd, 1 << 16):
                pass
            child.stdout.close()
        code = child.wait()
        elapsed = time.perf_counter() - began
        # GNU time writes "Command exited with non-zero status N" before the figure.
        lines = rss.read().split()
        kb = int(lines[-1]) if lines and lines[-1].isdigit() else 0
        out.seek(0)
        data = out.read() if capture else b""
        err.seek(0)
        tail = err.read()[-2000:]
    return elapsed, kb, code, data, tail


@dataclass(frozen=True, slots=True)
class Command:
    """A command to time: what to run, where, with what on stdin, and how to describe its output."""

    label: str
    argv: tuple[str, ...]
    cwd: Path | None = None
    stdin: bytes | None = None
    inspect: Callable[[bytes], str] | None = None
    ok_codes: tuple[int, ...] = (0,)

    @classmethod
    def of(cls, label: str, argv: Sequence[object], **kwargs) -> Command:
        return cls(label, tuple(str(a) for a in argv), **kwargs)


def measure(commands: Sequence[Command], *, repeat: int) -> list[Measurement]:
    """Run each command once capturing stdout (warm-up, exit check, `inspect` note), then
    `repeat` rounds in which every command runs once, stdout to a pipe that is drained.

    Interleaving the rounds puts a command and its baseline under the same passing load, which
    matters more on a busy 2-core machine than any number of repeats. A failing command is
    reported, not retried, and left out of the rounds."""
    notes: list[str] = []
    sizes: list[int] = []
    failed: dict[int, Measurement] = {}
    for i, c in enumerate(commands):
        _, _, code, data, tail = _run_once(c.argv, cwd=c.cwd, stdin=c.stdin, capture=True)
        if code not in c.ok_codes:
            last = tail.decode("utf-8", "replace").strip().splitlines()[-1:]
            failed[i] = Measurement(c.label, c.argv, (), (), code, len(data), f"exit {code}: {last[0] if last else ''}")
            notes.append("")
            sizes.append(len(data))
            continue
        note = ""
        if c.inspect:
            try:
                note = c.inspect(data)
            except Exception as exc:  # a note, never a failure
                note = f"(could not read output: {exc.__class__.__name__})"
        notes.append(note)
        sizes.append(len(data))
    seconds: list[list[float]] = [[] for _ in commands]
    rss: list[list[int]] = [[] for _ in commands]
    for _ in range(repeat):
        for i, c in enumerate(commands):
            if i in failed:
                continue
            sec, kb, _, _, _ = _run_once(c.argv, cwd=c.cwd, stdin=c.stdin, capture=False)
            seconds[i].append(sec)
            rss[i].append(kb)
    return [
        failed.get(i) or Measurement(c.label, c.argv, tuple(seconds[i]), tuple(rss[i]), 0, sizes[i], notes[i])
        for i, c in enumerate(commands)
    ]
