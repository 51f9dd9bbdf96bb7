"""Capture: a transcript's new lines into the session's working memory, kept on disk.

Owns: reading a transcript from where the last capture stopped (whole lines only: a
half-written last line waits for the next capture; a file shorter than before was replaced
and is read again), with bounded memory (a line past `MAX_LINE` is skipped, never held); the
capture of one session (or of one of its agents) under the memory file's lock, here or in a
child process the hooks do not wait for (`state.detach`); and keeping the client's
compaction summary. What each line means is `fold`'s. Standard library only.
"""

from __future__ import annotations

import os

from session_kit.memory import record
from session_kit.memory.record import read_plan_file
from session_kit.memory.text import redact
from session_kit.state.detach import in_child

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from session_kit.memory.settings import MemorySettings

CHUNK = 1 << 20
MAX_LINE = 64 * 1024 * 1024  # a longer line is skipped whole (counted), never held

__all__ = ["capture_file", "capture_in_background", "capture_session", "read_plan_file"]


def capture_file(path: str, memory: dict, *, keeps: Callable[[str], bool], session_id: str | None = None) -> dict:
    """Fold the lines of `path` past `memory["offset"]` into `memory`; returns it.

    A file shorter than the offset was replaced: it is read again from the start, into a
    fresh memory (the compactions already seen are kept). Only whole lines are read.
    """
    from session_kit.memory.fold import Fold  # here: the hook that hands the capture over never needs it

    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        import stat

        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(f"{path}: not a regular file")
        if info.st_size < memory.get("offset", 0):
            kept = memory.get("compactions", [])
            memory.clear()
            memory.update(record.empty_memory(path))
            memory["compactions"] = kept
        memory["transcript"] = path
        capture = Fold(memory, keeps=keeps, session_id=session_id)
        offset = memory["offset"]  # the bytes read so far, whole lines only
        os.lseek(fd, offset, os.SEEK_SET)
        pieces: list[bytes] = []  # the start of a line that runs past the chunk read
        held = 0
        skipping = False  # inside a line longer than MAX_LINE: dropped, never held
        while True:
            chunk = os.read(fd, CHUNK)
            if not chunk:
                break
            newline = chunk.find(b"\n")
            if newline < 0:
                if skipping:
                    offset += len(chunk)
                else:
                    pieces.append(chunk)
                    held += len(chunk)
                    if held > MAX_LINE:
                        offset, pieces, held, skipping = offset + held, [], 0, True
                continue
            if skipping:
                offset += newline + 1
                capture.line += 1
                memory["skipped"]["malformed"] += 1
                skipping = False
            elif pieces:
                pieces.append(chunk[:newline])
                capture.feed(b"".join(pieces))
                offset += held + newline + 1
            else:
                capture.feed(chunk[:newline])
                offset += newline + 1
            pieces, held = [], 0
            last = chunk.rfind(b"\n")
            if last > newline:
                for raw in chunk[newline + 1 : last].split(b"\n"):
                    capture.feed(raw)
                offset += last - newline
            if last + 1 < len(chunk):
                pieces, held = [chunk[last + 1 :]], len(chunk) - last - 1
        memory["offset"] = offset
        capture.finish()
        memory["lines"] = capture.line
    finally:
        os.close(fd)
    return memory


def capture_session(
    scratch_path: str,
    transcript_path: str,
    settings: MemorySettings,
    *,
    agent_id: str | None = None,
    session_id: str | None = None,
    summary: str | None = None,
    trigger: str | None = None,
) -> dict:
    """Capture into the memory file of a session (or of one of its agents), under its lock;
    with `summary`, keep the client's compaction summary too."""
    path = record.memory_path(scratch_path, agent_id)
    record.ensure_parent(path)
    with record.locked(path):
        return _capture_held(path, transcript_path, settings, session_id, summary, trigger)


def capture_in_background(
    scratch_path: str,
    transcript_path: str,
    settings: MemorySettings,
    *,
    log: Callable[[str], object],
    agent_id: str | None = None,
    session_id: str | None = None,
    summary: str | None = None,
    trigger: str | None = None,
) -> bool:
    """The same capture, in a child process, so the hook (and the client waiting for it)
    returns at once; False when it ran here instead (no fork on this platform).

    The lock is taken here, before the fork, and the child inherits it: whoever reads the
    memory next (the SessionStart after the compaction, `session-kit memory`) takes the same
    lock and so waits for the capture to finish, never reads half of it.
    """
    path = record.memory_path(scratch_path, agent_id)
    record.ensure_parent(path)
    lock = record.locked(path)
    lock.__enter__()
    try:
        return in_child(
            lambda: _capture_held(path, transcript_path, settings, session_id, summary, trigger, log=log),
            log=log,
            what="memory capture",
        )
    finally:  # here: the capture is done, or the child's copy of the lock holds it until it is
        lock.__exit__(None, None, None)


def _capture_held(
    path: str,
    transcript_path: str,
    settings: MemorySettings,
    session_id: str | None,
    summary: str | None,
    trigger: str | None,
    *,
    log: Callable[[str], object] | None = None,
) -> dict:
    """The capture, with the memory's lock already held."""
    memory = record.load(path) or record.empty_memory(transcript_path)
    if memory.get("transcript") not in (None, transcript_path):
        memory["offset"], memory["lines"] = 0, 0  # another file (a fork, a move): read it whole
        memory["pending"] = {}
    try:
        capture_file(transcript_path, memory, keeps=settings.keeps, session_id=session_id)
    except OSError as exc:  # gone, unreadable, not a file: nothing to add this time
        if log is None:
            raise
        log(f"memory capture skipped: {transcript_path}: {exc.strerror or exc}")
    if summary and summary.strip():
        _keep_summary(memory, summary, trigger)
    memory["captures"] += 1
    memory["updated"] = _now()
    record.save(path, memory)
    _write_text(path, memory)
    return memory


def _write_text(path: str, memory: dict) -> None:
    """The whole memory as text beside its file: what a restore cut to fit names."""
    from session_kit.memory.restore import render_whole
    from session_kit.state.root import atomic_write

    text = render_whole(memory, {"values": {}, "notes": []}, memory_file=path, read_plan=read_plan_file)
    atomic_write(record.text_path(path), (text + "\n").encode("utf-8", "surrogatepass"))


def _keep_summary(memory: dict, summary: str, trigger: str | None) -> None:
    """The client's compaction summary (PostCompact), with the latest compaction."""
    from session_kit.memory.text import clip

    text = clip(redact(summary.strip()), 8000)
    compactions = memory["compactions"]
    if compactions and compactions[-1].get("summary") in (None, text):
        compactions[-1]["summary"] = text
        if trigger and not compactions[-1].get("trigger"):
            compactions[-1]["trigger"] = trigger
    else:
        compactions.append({"at": _now(), "trigger": trigger or None, "summary": text, "line": None})


def _now() -> str:
    from session_kit.state.root import now_iso

    return now_iso()
