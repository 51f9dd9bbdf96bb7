"""A session's working memory as `session-kit memory` and `/session-memory` show it.

Owns: finding the session's memory (its scratch dir, keyed as the hooks key it), bringing it
up to date from the transcript the way the PreCompact hook does (unless asked not to), and
what would be restored now: the block within the context limit, and the whole memory. The
capture and the rendering are `memory.capture` and `memory.restore`; this module only puts
them together for one session. Does not print.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, NamedTuple

from session_kit.memory import record, restore
from session_kit.memory.capture import capture_session, capture_unsaved, read_plan_file
from session_kit.memory.settings import memory_settings
from session_kit.sessions.store import SessionRef
from session_kit.state import root as state
from session_kit.state.scratch import STATE_FILE, SessionScratch

RESTORE_LIMIT = restore.LIMIT


class MemoryView(NamedTuple):
    session_id: str
    scratch_path: str
    memory_file: str
    settings: dict[str, Any]
    memory: dict[str, Any] | None  # None: nothing captured (capture off, or never run)
    restored: str | None  # the block the next compaction would put back
    whole: str

    def as_dict(self) -> dict[str, Any]:
        memory = dict(self.memory or {})
        memory.pop("pending", None)  # calls waiting for a result: the capture's bookkeeping
        return {
            "session_id": self.session_id,
            "scratch_dir": self.scratch_path,
            "memory_file": self.memory_file,
            "text_file": record.text_path(self.memory_file),
            "settings": self.settings,
            "memory": memory or None,
            "restored": self.restored,
            "restored_chars": len(self.restored or ""),
            "limit": RESTORE_LIMIT,
        }


def session_memory(
    ref: SessionRef,
    *,
    state_root: str | None = None,
    update: bool = True,
    save: bool = True,
    env: Mapping[str, str] | None = None,
) -> MemoryView:
    """The session's memory, brought up to date from its transcript when `update` is true
    and capture is on (the same capture the PreCompact hook runs, saved the same way; with
    `save` false, in memory only: nothing is written)."""
    root = state_root or state.state_root(env)
    settings = memory_settings(root, env)
    scratch = SessionScratch.for_session(ref.id, project_key=ref.project.name, root=root)
    path = record.memory_path(scratch.path)
    memory = None
    if settings.capture:
        if update and save and scratch.exists():
            memory = capture_session(scratch.path, os.fspath(ref.path), settings, session_id=ref.id)
        elif update:
            # Brought up to date in memory only: a session merely looked at gets no scratch dir
            # (`scratch list` would show it), and the MCP server's tools write nothing.
            memory = capture_unsaved(path, os.fspath(ref.path), settings, session_id=ref.id)
        else:
            memory = record.load(path)
    work_state = scratch.read_state() if scratch.exists() else {"values": {}, "notes": []}
    restored = restore.render(
        memory,
        work_state,
        limit=RESTORE_LIMIT,
        memory_file=record.text_path(path),
        read_plan=read_plan_file,
        keep=settings.keeps,
        state_file=scratch.file(STATE_FILE),
    )
    whole = restore.render_whole(memory or {}, work_state, memory_file=path, read_plan=read_plan_file)
    return MemoryView(ref.id, scratch.path, path, settings.as_dict(), memory, restored, whole)


class CompactionLoss(NamedTuple):
    """What one compaction's summary lost of the memory the kit held just before it."""

    number: int  # 1 for the session's first compaction
    line: int  # the compaction's boundary line in the transcript
    trigger: str | None  # manual | auto
    summary_source: str | None  # `hook` (PostCompact's compact_summary), `transcript`, or None: none found
    facts: int  # how many facts the memory held
    lost: tuple[tuple[str, str], ...]  # (kind, text) of each fact the summary does not mention

    def as_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "line": self.line,
            "trigger": self.trigger,
            "summary_source": self.summary_source,
            "facts": self.facts,
            "lost": [{"kind": kind, "text": text} for kind, text in self.lost],
        }


def compaction_losses(
    ref: SessionRef, *, state_root: str | None = None, env: Mapping[str, str] | None = None
) -> list[CompactionLoss]:
    """Each compaction of the session, with the facts its summary lost: the memory a capture
    just before it held, against the client's summary (the PostCompact hook's, when the kit
    kept it; else the compact-summary message after the boundary)."""
    from session_kit.memory.capture import memories_at_compactions
    from session_kit.memory.dropped import lost

    root = state_root or state.state_root(env)
    settings = memory_settings(root, env)
    scratch = SessionScratch.for_session(ref.id, project_key=ref.project.name, root=root)
    saved = record.load(record.memory_path(scratch.path)) or {}
    kept = list(saved.get("compactions") or [])
    by_line = {c.get("line"): c.get("client_summary") for c in kept if c.get("line")}
    losses = []
    for number, (memory, compaction) in enumerate(
        memories_at_compactions(os.fspath(ref.path), keeps=settings.keeps), 1
    ):
        # a PostCompact that ran before its boundary was written knows no line: by position
        by_position = kept[number - 1].get("client_summary") if number <= len(kept) else None
        summary, source = by_line.get(compaction["line"]) or by_position, "hook"
        if not summary:
            summary, source = compaction.get("summary"), "transcript"
        missing, count = lost(memory, summary or "")
        losses.append(
            CompactionLoss(
                number,
                compaction["line"],
                compaction.get("trigger"),
                source if summary else None,
                count,
                tuple(missing),
            )
        )
    return losses
