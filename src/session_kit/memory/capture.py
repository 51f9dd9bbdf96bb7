"""Capture: a transcript's new lines into the session's working memory, kept on disk.

Owns: reading a transcript from where the last capture stopped, through the kit's one line
follower (`transcript.follow`: whole lines only, a half-written last line waits for the next
capture; a file replaced or rewritten since is read again), with bounded memory (a line past
`MAX_LINE` is skipped, never held); the
capture of one session (or of one of its agents) under the memory file's lock, here or in a
child process the hooks do not wait for (`state.detach`); and keeping the client's
compaction summary. What each line means is `fold`'s. Standard library (and the
kit's standard-library-only `state` and `transcript.follow`) only.
"""

from __future__ import annotations

from session_kit.base.detach import in_child
from session_kit.memory import record
from session_kit.memory.record import read_plan_file

# The follower and the redactor's face are the capture's own (`capture_file`, `_keep_summary`),
# loaded where they run: the compaction hooks only hand the capture to a child, which loads them.

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from session_kit.memory.settings import MemorySettings

CHUNK = 1 << 20
MAX_LINE = 64 * 1024 * 1024  # a longer line is skipped whole (counted), never held

__all__ = ["capture_file", "capture_in_background", "capture_session", "capture_unsaved", "read_plan_file"]


def capture_file(path: str, memory: dict, *, keeps: Callable[[str], bool], session_id: str | None = None) -> dict:
    """Fold the whole lines `path` gained since `memory`'s checkpoint into `memory`; returns it.

    A file replaced, cut shorter or rewritten since (`transcript.follow.resume`) is read
    again from the start, into a fresh memory (the compactions already seen are kept).
    """
    from session_kit.base.follow import Checkpoint, Follow
    from session_kit.memory.fold import Fold  # here: the hook that hands the capture over never needs it

    # A memory saved before checkpoints were kept knows its offset only.
    seen = Checkpoint.from_text(memory.get("checkpoint")) or Checkpoint(memory.get("offset", 0))
    with Follow(path, seen) as f:
        if f.restarted:
            kept = memory.get("compactions", [])
            memory.clear()
            memory.update(record.empty_memory(path))
            memory["compactions"] = kept
        memory["transcript"] = path
        capture = Fold(memory, keeps=keeps, session_id=session_id)
        for lines in f.blocks(chunk=CHUNK, max_line=MAX_LINE):
            for raw in lines:
                if raw is None:
                    capture.line += 1
                    memory["skipped"]["malformed"] += 1
                else:
                    capture.feed(raw)
        memory["offset"] = f.offset
        memory["checkpoint"] = f.checkpoint().to_text()
        capture.finish()
        memory["lines"] = capture.line
    _as_they_are_now(path, memory)
    return memory


def memories_at_compactions(path: str, *, keeps: Callable[[str], bool]) -> list[tuple[dict, dict]]:
    """For each compaction in the transcript at `path`: the memory as a capture just before
    it would have held it, and the compaction (its line, trigger, and the summary after it).
    One pass; documents and agent logs are as they are now (the disk keeps no history)."""
    from session_kit.base import fastjson
    from session_kit.base.follow import Checkpoint, Follow
    from session_kit.base.rawtype import top_level_type
    from session_kit.memory.fold import Fold

    memory = record.empty_memory(path)
    capture = Fold(memory, keeps=keeps)
    before: list[dict] = []
    with Follow(path, Checkpoint(0)) as f:
        for lines in f.blocks(chunk=CHUNK, max_line=MAX_LINE):
            for raw in lines:
                if raw is None:
                    capture.line += 1
                    continue
                if b'"compact_boundary"' in raw and top_level_type(raw) == b"system":
                    snapshot = fastjson.loads(fastjson.dumps(capture.current()))
                    before.append(snapshot)
                capture.feed(raw)
    capture.finish()
    compactions = [c for c in memory["compactions"] if c.get("line") is not None]
    return list(zip(before, compactions))


def _as_they_are_now(path: str, memory: dict) -> None:
    """What the transcript cannot say: each working document as it is on disk now, and the
    background agents whose own logs say they finished."""
    from session_kit.base.fileio import read_small
    from session_kit.memory.agents import ended_by_their_logs
    from session_kit.memory.documents import read_documents

    if memory.get("documents"):
        read_documents(memory["documents"], read_small)
    if memory.get("agents"):
        ended_by_their_logs(memory["agents"], path)


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


def capture_unsaved(
    path: str, transcript_path: str, settings: MemorySettings, *, session_id: str | None = None
) -> dict:
    """The memory saved at `path` brought up to date from the transcript in memory only:
    what `capture_session` would save, nothing written (the MCP server's read-only tools)."""
    memory = _loaded(path, transcript_path)
    capture_file(transcript_path, memory, keeps=settings.keeps, session_id=session_id)
    return memory


def _loaded(path: str, transcript_path: str) -> dict:
    """The memory saved at `path`, or an empty one; one of another file set to read it whole."""
    memory = record.load(path) or record.empty_memory(transcript_path)
    if memory.get("transcript") not in (None, transcript_path):
        # another file of the session (a fork, a copy, another Claude root): read it whole into
        # a memory of its own, keeping nothing the first file said
        memory = record.empty_memory(transcript_path) | {"captures": memory.get("captures", 0)}
    return memory


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
    memory = _loaded(path, transcript_path)
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
    from session_kit.base.fileio import atomic_write
    from session_kit.memory.restore import render_whole

    text = render_whole(memory, {"values": {}, "notes": []}, memory_file=path, read_plan=read_plan_file)
    atomic_write(record.text_path(path), (text + "\n").encode("utf-8", "surrogatepass"))


def _keep_summary(memory: dict, summary: str, trigger: str | None) -> None:
    """The client's compaction summary (PostCompact), with the latest compaction."""
    from session_kit.memory.text import clip, redact

    text = clip(redact(summary.strip()), 8000)
    compactions = memory["compactions"]
    last = compactions[-1] if compactions else None
    # The compaction whose boundary the capture just read (the transcript's summary is the
    # same summary, worded by the client): one compaction, not two.
    if last is not None and (
        last.get("client_summary") == text or (last.get("client_summary") is None and last.get("line") is not None)
    ):
        last["client_summary"] = text
        if trigger and not last.get("trigger"):
            last["trigger"] = trigger
    else:
        compactions.append(
            {"at": _now(), "trigger": trigger or None, "summary": None, "client_summary": text, "line": None}
        )


def _now() -> str:
    from session_kit.state.root import now_iso

    return now_iso()
