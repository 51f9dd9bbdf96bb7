"""Tool calls, derived from a stream of entries.

Owns: pairing each tool use with its result (by id, across the several assistant lines one
API response is written as, and across dialects; the one rule, `WaitingCalls`, which `view`
pairs by too), and the outcome of a call (ok, failed with
an exit code or error text, declined by the person: `base.declines`, or still pending). What each tool's input means is `tools`;
compactions are `compactions`, tokens `tokens`. Reads no files.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any, NamedTuple

from session_kit.base.declines import is_declined
from session_kit.base.tools import spawns_agent
from session_kit.transcript.entries import Entry, ToolResult, format_timestamp, seconds_between
from session_kit.transcript.tools import summarize_input

STATUS_OK = "ok"
STATUS_ERROR = "error"
STATUS_PENDING = "pending"  # no result (yet): the session was cut off or is still running
STATUS_DECLINED = "declined"  # the person said no (`base.declines`): their decision, not a failure
CALL_STATUSES = (STATUS_OK, STATUS_ERROR, STATUS_DECLINED, STATUS_PENDING)

# Tool output is anyone's text: a code of more digits than any exit code is no exit code (and
# int() refuses strings past 4,300 digits).
_EXIT_CODE = re.compile(r"^\s*Exit code (-?\d{1,20})(?!\d)")
# The client wraps a whole result in it; the same text inside a command's output is output.
_TOOL_USE_ERROR = re.compile(r"\s*<tool_use_error>(.*)</tool_use_error>\s*\Z", re.S)


class ToolCall(NamedTuple):
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


def result_outcome(
    result: ToolResult, *, tool: str | None = None, version: str | None = None
) -> tuple[str, int | None, str | None]:
    """`(status, exit_code, error_text)` of a tool result (of a call of `tool`, written by
    client `version`); a declined call's error text is what the person's answer said."""
    text = result.text
    extra = result.extra
    match = _EXIT_CODE.match(text)
    exit_code = int(match.group(1)) if match else None
    wrapped = _TOOL_USE_ERROR.match(text)
    interrupted = isinstance(extra, Mapping) and extra.get("interrupted") is True
    failed = result.is_error or bool(wrapped) or (exit_code is not None and exit_code != 0) or interrupted
    if not failed:
        return STATUS_OK, exit_code, None
    if is_declined(text, tool=tool, version=version, kind=result.denial):
        return STATUS_DECLINED, None, text.strip() or None
    if wrapped:
        error = wrapped.group(1).strip()
    elif match:
        error = text[match.end() :].strip() or text.strip()
    elif interrupted and not text.strip():
        error = "interrupted"
    else:
        error = text.strip()
    if not error and isinstance(extra, str):
        error = extra.strip()
    return STATUS_ERROR, exit_code, error or "(no error text)"


# Older clients name the agent in the result's text instead of `toolUseResult.agentId`.
_AGENT_ID_LINE = re.compile(r"^agentId: ([A-Za-z0-9_-]+)", re.M)


def spawned_agent_of(extra: Any, text: str) -> str | None:
    """The agent a spawning call's result names (`toolUseResult.agentId`, else its text)."""
    if isinstance(extra, Mapping):
        value = extra.get("agentId")
        if isinstance(value, str) and value:
            return value
    match = _AGENT_ID_LINE.search(text)
    return match.group(1) if match else None


class WaitingCalls:
    """The one pairing rule of tool uses and results: a result answers the oldest use of its
    id still waiting for one, so uses that share an id are paired in order. Holds what the
    caller gives for each use (an index, a call); `ToolCallPairer` and `view` pair by it."""

    __slots__ = ("_waiting",)

    def __init__(self) -> None:
        self._waiting: dict[str, deque[Any]] = {}

    def use(self, call_id: str, value: Any) -> None:
        """A use of `call_id`, waiting for its result."""
        waiting = self._waiting.get(call_id)
        if waiting is None:
            waiting = self._waiting[call_id] = deque()
        waiting.append(value)

    def answer(self, call_id: str) -> Any | None:
        """What was given for the use a result of `call_id` answers; None when no use of the
        id waits (its use is not in this stream, or every use of the id has its result)."""
        waiting = self._waiting.get(call_id)
        return waiting.popleft() if waiting else None

    def __contains__(self, call_id: str) -> bool:
        """Whether the id was used in this stream (answered or not)."""
        return call_id in self._waiting


class ToolCallPairer:
    """Pairs tool uses with results while entries stream past, holding only the calls.

    Every use is a call, even one whose id an earlier use had (repeated entries are dropped
    before, by uuid: `entries.UniqueEntries`); a result goes to the oldest use of its id still
    waiting for one, so uses that share an id are paired in order and none of their failures
    is hidden. With `keep_payload=False` a call keeps neither its input nor its output text
    (only the summary and the error), so a long session can be summarised in little memory;
    `keep_output=False` drops the output text alone (no view shows it).
    """

    def __init__(self, *, keep_payload: bool = True, keep_output: bool | None = None) -> None:
        self._calls: list[ToolCall] = []
        self._waiting = WaitingCalls()  # indexes in `_calls`
        self._keep = keep_payload
        self._keep_output = keep_payload if keep_output is None else keep_output

    def add(self, entry: Entry) -> None:
        calls = self._calls
        for block in entry.tool_uses:
            call_id = block.get("id")
            if not isinstance(call_id, str):
                continue
            name = block.get("name")
            name = name if isinstance(name, str) else "?"
            tool_input = block.get("input")
            tool_input = tool_input if isinstance(tool_input, Mapping) else {}
            self._waiting.use(call_id, len(calls))
            calls.append(
                ToolCall(
                    id=call_id,
                    name=name,
                    # Agent calls keep their input: linking agents needs their type and prompt.
                    input=tool_input if self._keep or spawns_agent(name) else {},
                    summary=summarize_input(name, tool_input),
                    line=entry.line,
                    started=entry.timestamp,
                    is_sidechain=entry.is_sidechain,
                )
            )
        for result in entry.tool_results:
            at = self._waiting.answer(result.tool_use_id)
            if at is None:
                continue  # its use is not in this stream, or every use of the id has its result
            status, exit_code, error = result_outcome(result, tool=calls[at].name, version=entry.version)
            calls[at] = _with_result(calls[at], entry, result, status, exit_code, error, keep_output=self._keep_output)

    def calls(self) -> list[ToolCall]:
        """Every tool use seen, in order of use."""
        return list(self._calls)


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
    return call._replace(
        ended=entry.timestamp,
        status=status,
        exit_code=exit_code,
        error=error,
        output=result.text if keep_output else "",
        result_line=entry.line,
        spawned_agent_id=spawned_agent_of(result.extra, result.text) if spawns_agent(call.name) else None,
    )


def calls_of_tool(calls: Iterable[ToolCall], tool: str | None) -> list[ToolCall]:
    """The calls of `tool` (case-insensitive); all of them when no tool is given."""
    wanted = tool.lower() if tool else None
    return [c for c in calls if wanted is None or c.name.lower() == wanted]
