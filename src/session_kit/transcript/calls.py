"""Tool events and compaction, derived from a stream of entries.

Owns: pairing each tool use with its result (by id, across the several assistant lines one
API response is written as, and across dialects), the outcome of a call (ok, failed with an
exit code or error text, or still pending), a one-line summary of each call's input, and the
split of a session at its compaction boundaries into generations. Reads no files.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from session_kit.transcript.entries import Entry, ToolResult, format_timestamp, seconds_between

STATUS_OK = "ok"
STATUS_ERROR = "error"
STATUS_PENDING = "pending"  # no result (yet): the session was cut off or is still running

AGENT_TOOLS = frozenset({"Agent", "Task"})
_EXIT_CODE = re.compile(r"^\s*Exit code (-?\d+)")
# The client wraps a whole result in it; the same text inside a command's output is output.
_TOOL_USE_ERROR = re.compile(r"\s*<tool_use_error>(.*)</tool_use_error>\s*\Z", re.S)
SUMMARY_LIMIT = 160


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One tool use and what became of it."""

    id: str
    name: str
    input: Mapping[str, Any]
    summary: str
    line: int
    started: datetime | None
    ended: datetime | None = None
    status: str = STATUS_PENDING
    exit_code: int | None = None
    error: str | None = None
    output: str = ""
    result_line: int | None = None
    spawned_agent_id: str | None = None  # for Agent/Task calls: the agent it started, when known
    agent_id: str | None = None  # the agent whose log holds the call; None: the main conversation
    is_sidechain: bool = False

    @property
    def duration_s(self) -> float | None:
        return seconds_between(self.started, self.ended)

    @property
    def failed(self) -> bool:
        return self.status == STATUS_ERROR

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "summary": self.summary,
            "input": dict(self.input),
            "status": self.status,
            "exit_code": self.exit_code,
            "error": self.error,
            "started": format_timestamp(self.started),
            "ended": format_timestamp(self.ended),
            "duration_s": self.duration_s,
            "line": self.line,
            "result_line": self.result_line,
            "agent_id": self.agent_id,
            "spawned_agent_id": self.spawned_agent_id,
            "is_sidechain": self.is_sidechain,
        }



def _one_line(text: str, limit: int = SUMMARY_LIMIT) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def summarize_input(name: str, tool_input: Mapping[str, Any]) -> str:
    """A one-line description of a call's input, per tool."""
    get = tool_input.get
    if name == "Bash":
        return _one_line(get("command", ""))
    if name in ("Read", "Edit", "MultiEdit", "NotebookEdit", "NotebookRead"):
        return _one_line(get("file_path") or get("notebook_path") or "")
    if name == "Write":
        content = get("content")
        size = len(content.encode("utf-8", "surrogatepass")) if isinstance(content, str) else 0
        return _one_line(f"{get('file_path', '')} ({size} bytes)")
    if name in ("Grep", "Glob"):
        where = get("path")
        return _one_line(f"{get('pattern', '')}" + (f" in {where}" if where else ""))
    if name in AGENT_TOOLS:
        return _one_line(f"[{get('subagent_type') or 'general-purpose'}] {get('description', '')}")
    if name == "ExitPlanMode":
        plan = str(get("plan", "")).strip().splitlines()
        return _one_line(plan[0] if plan else "")
    if name == "WebFetch":
        return _one_line(get("url", ""))
    if name == "WebSearch":
        return _one_line(get("query", ""))
    if name == "TodoWrite":
        todos = get("todos")
        return f"{len(todos) if isinstance(todos, list) else 0} todos"
    keys = ", ".join(sorted(str(k) for k in tool_input))
    return _one_line(f"keys: {keys}" if keys else "(no input)")


def result_outcome(result: ToolResult) -> tuple[str, int | None, str | None]:
    """`(status, exit_code, error_text)` of a tool result."""
    text = result.text
    extra = result.extra
    match = _EXIT_CODE.match(text)
    exit_code = int(match.group(1)) if match else None
    wrapped = _TOOL_USE_ERROR.match(text)
    interrupted = isinstance(extra, Mapping) and extra.get("interrupted") is True
    failed = (
        result.is_error
        or bool(wrapped)
        or (exit_code is not None and exit_code != 0)
        or interrupted
    )
    if not failed:
        return STATUS_OK, exit_code, None
    if wrapped:
        error = wrapped.group(1).strip()
    elif match:
        error = text[match.end():].strip() or text.strip()
    elif interrupted and not text.strip():
        error = "interrupted"
    else:
        error = text.strip()
    if not error and isinstance(extra, str):
        error = extra.strip()
    return STATUS_ERROR, exit_code, error or "(no error text)"


def _agent_id_of(extra: Any) -> str | None:
    if isinstance(extra, Mapping):
        value = extra.get("agentId")
        return value if isinstance(value, str) else None
    return None


class ToolCallPairer:
    """Pairs tool uses with results while entries stream past, holding only the calls.

    With `keep_payload=False` a call keeps neither its input nor its output text (only the
    summary and the error), so a long session can be summarised in little memory.
    """

    def __init__(self, *, keep_payload: bool = True) -> None:
        self._calls: dict[str, ToolCall] = {}
        self._keep = keep_payload

    def add(self, entry: Entry) -> None:
        calls = self._calls
        for block in entry.tool_uses:
            call_id = block.get("id")
            if not isinstance(call_id, str) or call_id in calls:
                continue  # the client repeats lines on resume: a use counts once
            name = str(block.get("name", "?"))
            tool_input = block.get("input")
            tool_input = tool_input if isinstance(tool_input, Mapping) else {}
            calls[call_id] = ToolCall(
                id=call_id,
                name=name,
                # Agent calls keep their input: linking agents needs their type and prompt.
                input=tool_input if self._keep or name in AGENT_TOOLS else {},
                summary=summarize_input(name, tool_input),
                line=entry.line,
                started=entry.timestamp,
                is_sidechain=entry.is_sidechain,
            )
        for result in entry.tool_results:
            call = calls.get(result.tool_use_id)
            if call is None or call.result_line is not None:
                continue  # its use is not in this stream, or this is a repeat
            status, exit_code, error = result_outcome(result)
            calls[result.tool_use_id] = _with_result(
                call, entry, result, status, exit_code, error, keep_output=self._keep
            )

    def calls(self) -> list[ToolCall]:
        """Every tool use seen, in order of use (dicts keep insertion order)."""
        return list(self._calls.values())


def pair_tool_calls(entries: Iterable[Entry], *, keep_payload: bool = True) -> list[ToolCall]:
    """Every tool use in order, paired with its result where one exists."""
    pairer = ToolCallPairer(keep_payload=keep_payload)
    for entry in entries:
        pairer.add(entry)
    return pairer.calls()


def _with_result(
    call: ToolCall,
    entry: Entry,
    result: ToolResult,
    status: str,
    exit_code: int | None,
    error: str | None,
    *,
    keep_output: bool,
) -> ToolCall:
    return replace(
        call,
        ended=entry.timestamp,
        status=status,
        exit_code=exit_code,
        error=error,
        output=result.text if keep_output else "",
        result_line=entry.line,
        spawned_agent_id=_agent_id_of(result.extra) if call.name in AGENT_TOOLS else None,
    )


@dataclass(frozen=True, slots=True)
class Compaction:
    """A point where the context was compacted, and the summary that replaced it."""

    line: int
    timestamp: datetime | None
    trigger: str | None = None  # manual | auto, when recorded
    pre_tokens: int | None = None
    summary: str | None = None
    dialect: str = "current"  # current: compact_boundary; 2025: a `summary` entry

    def as_dict(self) -> dict[str, Any]:
        return {
            "line": self.line,
            "timestamp": format_timestamp(self.timestamp),
            "trigger": self.trigger,
            "pre_tokens": self.pre_tokens,
            "summary": self.summary,
            "dialect": self.dialect,
        }


def find_compactions(entries: Iterable[Entry]) -> list[Compaction]:
    """Compaction boundaries (current client) and `summary` entries (2025 files)."""
    found: list[Compaction] = []
    pending: int | None = None  # index in `found` of a boundary still waiting for its summary
    for entry in entries:
        if entry.is_compact_boundary:
            meta = entry.raw.get("compactMetadata")
            meta = meta if isinstance(meta, Mapping) else {}
            pre = meta.get("preTokens")
            found.append(
                Compaction(
                    line=entry.line,
                    timestamp=entry.timestamp,
                    trigger=meta.get("trigger") if isinstance(meta.get("trigger"), str) else None,
                    pre_tokens=pre if isinstance(pre, int) else None,
                )
            )
            pending = len(found) - 1
        elif entry.is_compact_summary and pending is not None:
            found[pending] = replace(found[pending], summary=entry.text)
            pending = None
        elif entry.kind == "summary":
            found.append(
                Compaction(
                    line=entry.line,
                    timestamp=entry.timestamp,
                    summary=entry.summary_text,
                    dialect="2025",
                )
            )
    return found


def split_generations(entries: Iterable[Entry]) -> list[list[Entry]]:
    """The session cut at each compaction boundary; the boundary opens the next generation."""
    generations: list[list[Entry]] = [[]]
    for entry in entries:
        if entry.is_compact_boundary and generations[-1]:
            generations.append([])
        generations[-1].append(entry)
    return generations


@dataclass(slots=True)
class TokenTally:
    """Token usage counted once per API message id (the client repeats usage per block)."""

    input: int = 0
    output: int = 0
    cache_creation: int = 0
    cache_read: int = 0
    messages: int = 0
    _seen: set[str] = field(default_factory=set, repr=False)

    def add(self, entry: Entry) -> None:
        if entry.kind != "assistant":
            return
        usage = entry.usage
        if not usage:
            return
        key = entry.message_id or entry.uuid or f"line:{entry.line}"
        if key in self._seen:
            return
        self._seen.add(key)
        self.messages += 1
        self.input += _int(usage.get("input_tokens"))
        self.output += _int(usage.get("output_tokens"))
        self.cache_creation += _int(usage.get("cache_creation_input_tokens"))
        self.cache_read += _int(usage.get("cache_read_input_tokens"))

    def as_dict(self) -> dict[str, int]:
        return {
            "input": self.input,
            "output": self.output,
            "cache_creation": self.cache_creation,
            "cache_read": self.cache_read,
            "total": self.input + self.output + self.cache_creation + self.cache_read,
            "messages": self.messages,
        }


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def dumps_input(tool_input: Mapping[str, Any]) -> str:
    return json.dumps(tool_input, ensure_ascii=False, sort_keys=True)
