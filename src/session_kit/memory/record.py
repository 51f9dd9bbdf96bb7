"""The working memory as a document: its shape, and loading and saving it.

Owns: `memory.json` in the session's scratch dir (a subagent's own in
`memory-agents/<agent id>.json`, so an agent's compaction never overwrites the session's),
the empty memory, reading and writing it under a lock, and reading a plan file the memory
names (a regular file only, bounded). Standard library
only. Capture fills it (`capture`), the restore reads it (`restore`).

Shape (`version` 1; every text already redacted):
    transcript, offset, lines       where the next capture starts (bytes, lines read so far)
    checkpoint                      the line follower's checkpoint (`transcript.follow`)
    captures, updated               how many captures, and the last one's time
    cwd                             the session's folder (paths under it are shown relative)
    requests  {"first": item, "recent": [item…], "constraints": [{"text", "line"}…]}
                                    item = {"text", "line", "at"}; constraints: every
                                    standing-instruction sentence of every request (`requests`)
    plan      {"text", "path", "status", "line", "at"} | null
    plan_mode {"active", "path", "line"} | null
    tasks     {"source": "TodoWrite" | "Task", "items": [{"id", "subject", "status", "line"}]}
    files     {path: {"change": "created|edited|deleted", "times", "line", "at"}}
    reads     [{"path", "line"}]    the latest first
    documents {path: {"path", "how", "line", "at", "found", "items": [{"done", "text"}], "done",
               "total", "excerpt"}}  working documents, read from disk at capture (`documents`)
    failures  [{"key", "call", "tool", "command", "exit_code", "error", "line", "at", "family"}]
                                    open at the last capture (`failures`: what fixes one)
    agents    [{"id", "call", "type", "description", "status" (`base.agents`' words), "background",
               "calls", "duration_s", "answer", "error", "line", "at"}]   (`memory.agents`)
    next      {"text", "line"} | null    the assistant's latest words, when no call came after them
    doing     {"call": {"tool", "what", "description", "line", "id"}, "intent": {"text", "line"}}
                                    the latest call and the assistant's latest words (`doing`)
    tracker   {"program", "shown", "current", "claimed_line", "closed", "line"} | null
                                    an issue tracker's items the session showed, claimed, closed
    compactions [{"at", "trigger", "summary", "client_summary", "line"}]   `summary` from the
                                    transcript, `client_summary` from the PostCompact hook
    pending   {tool_use_id: call}   calls still waiting for their result
    skipped   {"malformed": n, "other_sessions": n}
"""

from __future__ import annotations

import os

from session_kit.base import fileio
from session_kit.state import root as state

MEMORY_FILE = "memory.json"
AGENTS_DIR = "memory-agents"
VERSION = 1
MAX_FILE_BYTES = 16 * 1024 * 1024
MAX_PLAN_FILE = 24000


def empty_memory(transcript: str | None = None) -> dict:
    return {
        "version": VERSION,
        "transcript": transcript,
        "offset": 0,
        "checkpoint": None,
        "lines": 0,
        "captures": 0,
        "updated": None,
        "cwd": None,
        "requests": {"first": None, "recent": [], "constraints": []},
        "plan": None,
        "plan_mode": None,
        "tasks": {"source": None, "items": []},
        "files": {},
        "reads": [],
        "documents": {},
        "failures": [],
        "declined": [],
        "agents": [],
        "next": None,
        "doing": {},
        "tracker": None,
        "compactions": [],
        "pending": {},
        "skipped": {"malformed": 0, "other_sessions": 0},
    }


def memory_path(scratch_path: str, agent_id: str | None = None) -> str:
    if agent_id:
        safe = "".join(c for c in agent_id if c.isalnum() or c in "-_")[:100] or "agent"
        return os.path.join(scratch_path, AGENTS_DIR, safe + ".json")
    return os.path.join(scratch_path, MEMORY_FILE)


def text_path(path: str) -> str:
    """Where the whole memory is written as text, beside the memory file at `path`
    (`memory.md`, or `memory-agents/<agent id>.md`)."""
    return path[: -len(".json")] + ".md" if path.endswith(".json") else path + ".md"


def load(path: str) -> dict | None:
    """The memory saved at `path`; None when there is none or it cannot be read as one."""
    try:
        value = fileio.read_json(path, MAX_FILE_BYTES)
    except (FileNotFoundError, NotADirectoryError, ValueError):
        return None
    if not isinstance(value, dict) or value.get("version") != VERSION:
        return None
    base = empty_memory()
    for key, default in base.items():  # a field of the wrong type reads as empty, not as a crash
        if not isinstance(value.get(key), type(default)) and default is not None:
            value[key] = default
    for agent in value["agents"]:  # saved before the one status vocabulary: `ok` was `finished`
        if isinstance(agent, dict) and agent.get("status") == "ok":
            from session_kit.base.agents import FINISHED  # here: the compaction hooks never load a memory

            agent["status"] = FINISHED
    return value


def save(path: str, memory: dict) -> None:
    state.ensure_dir(os.path.dirname(path))
    fileio.write_json(path, memory, indent=1)


def locked(path: str, *, timeout: float = 30.0) -> state.locked:
    """The lock every read-modify-write of the memory at `path` holds (a capture may take a
    second or two on a large transcript read for the first time)."""
    return state.locked(path, timeout=timeout)


def ensure_parent(path: str) -> None:
    state.ensure_dir(os.path.dirname(path))


def read_plan_file(path: str, *, limit: int = MAX_PLAN_FILE) -> str | None:
    """A plan file's text (a regular file only, at most `limit` bytes); None if unreadable."""
    try:
        return fileio.read_small(path, limit).decode("utf-8", "replace")
    except OSError:
        return None
