"""What the lines of a transcript say about its agents: one reading for every reader.

Owns: the sources a figure can come from; reading a spawning call's result (`spawn_result`:
the agent it names, whether it was launched in the background, whether it started nothing (a
call refused by `InputValidationError`, or declined by the person), and the client's own
figures: `totalToolUseCount`, `totalDurationMs`, the answer (an "API Error: …" answer is the
agent's failure, not its answer), the `usage` of the agent's LAST request only); and reading
the lines that end a background agent (`completions`): a `<task-notification>` (2.0.67's
`<agent-notification>`) in a `queued_command` attachment, a `queue-operation` line (enqueued
mid-turn, with no user line) or, in older files, a user entry; a `task_status` attachment; a
`TaskOutput` result (`<status>…</status>`; its first poll often says "running"); and a
`TaskStop`/`KillShell` call that stopped it.

The status words and the rule that decides an agent's status are `base.agents`'. Works on raw
JSON objects (standard library and `entries`' value rules only), so the memory's capture
(beside the client) and the session model (`sessions.agents`) read the same lines the same
way. Does not link agents to logs or calls, read files, or decide which figure wins
(`sessions.agent_run`).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, NamedTuple

from session_kit.base.agents import RUNNING, STOPPED, client_word, is_api_error, stopped_task
from session_kit.base.declines import REFUSED
from session_kit.base.tools import TASK_OUTPUT, TASK_STOP  # the tools whose results end a background task
from session_kit.base.vocabulary import (
    ATTACHMENT_QUEUED_COMMAND,
    ATTACHMENT_TASK_STATUS,
    TYPE_ATTACHMENT,
    TYPE_QUEUE_OPERATION,
    TYPE_TOOL_RESULT,
    TYPE_USER,
)
from session_kit.transcript.entries import content_text, count_value, entry_time, tagged

TYPE_CHECKING = False
if TYPE_CHECKING:
    from session_kit.transcript.entries import Entry

SOURCE_LOG = "log"  # counted from the agent's own log (exact)
SOURCE_RESULT = "result"  # the client's figure in the spawning call's result
SOURCE_COMPLETION = "completion"  # a background agent's ending line (notification, TaskOutput)
SOURCE_CALL = "call"  # the spawning call's own start and end

NOTIFICATION = "task-notification"
TASK_STATUS = ATTACHMENT_TASK_STATUS  # a figure source too

# 2.0.67 wrote `<agent-notification>` (its id in `<agent-id>`) where later clients write
# `<task-notification>` (`<task-id>`): the same ending.
_NOTIFICATIONS = ("<task-notification>", "<agent-notification>")
_REJECTED = "InputValidationError"
# The person declining a call (and the sibling calls cancelled with it): nothing started.
_INTERRUPTED = "[Request interrupted by user"
# A spawning call's result (`toolUseResult`) has one of these; no other tool's does.
_SPAWN_KEYS = frozenset({"agentId", "totalToolUseCount", "totalDurationMs"})


class SpawnResult(NamedTuple):
    """What the result of an `Agent`/`Task` call says about the agent it started."""

    agent_id: str | None = None
    background: bool = False  # `async_launched`: the call returned at once, the agent ran on
    rejected: bool = False  # refused before anything started (`InputValidationError`)
    failed: bool = False
    tool_uses: int | None = None  # `totalToolUseCount`
    duration_ms: int | None = None  # `totalDurationMs`
    answer: str | None = None  # the result's text (a sync agent's answer)
    usage: Mapping[str, Any] | None = None  # of the agent's LAST request only: a floor
    model: str | None = None
    api_error: bool = False  # its whole answer is the client's "API Error: …": it failed
    interrupted: bool = False  # the person stopped it (the result is the interruption marker)


class Completion(NamedTuple):
    """A line that tells how a background agent (or task) stands."""

    agent_id: str
    status: str  # `base.agents`' words: finished, failed, stopped or running
    kind: str  # NOTIFICATION, TASK_STATUS, TASK_OUTPUT or TASK_STOP
    at: datetime | None = None
    answer: str | None = None
    tool_uses: int | None = None
    duration_ms: int | None = None
    tool_use_id: str | None = None  # the spawning call, when the line names it


def is_rejected(text: str, *, is_error: bool) -> bool:
    """A spawning call that started nothing: refused (its input did not validate), or
    declined by the person."""
    if not is_error:
        return False
    head = text[:300]
    return _REJECTED in head or head.lstrip().startswith(REFUSED)


def _denied_before_it_ran(denial: str | None) -> bool:
    """A denied call (`base.declines`' marks) not stopped while it ran."""
    return denial is not None and denial != "interrupted"


def spawned_id(extra: Any, text: str) -> str | None:
    """The agent a spawning call's result names, if any."""
    value = extra.get("agentId") if isinstance(extra, Mapping) else None
    return value if isinstance(value, str) and value else agent_id_in_text(text)


def is_interrupted(text: str) -> bool:
    """A result (or a user line) that is the person interrupting the work."""
    return text.lstrip().startswith(_INTERRUPTED)


def spawn_result(extra: Any, text: str, *, is_error: bool, denial: str | None = None) -> SpawnResult:
    """What an `Agent`/`Task` result (`toolUseResult` as `extra`, its text, the entry's
    `toolDenialKind` as `denial`) says."""
    if is_rejected(text, is_error=is_error) or (
        is_error and _denied_before_it_ran(denial) and not spawned_id(extra, text)
    ):
        return SpawnResult(rejected=True, failed=True)
    agent_id = None
    background = False
    tool_uses = duration = None
    usage = model = None
    if isinstance(extra, Mapping):
        agent_id = _str(extra.get("agentId"))
        background = extra.get("status") in ("async_launched", "running") or extra.get("isAsync") is True
        tool_uses = _number(extra.get("totalToolUseCount"))
        duration = _number(extra.get("totalDurationMs"))
        usage = extra.get("usage") if isinstance(extra.get("usage"), Mapping) else None
        model = _str(extra.get("resolvedModel"))
        if not text.strip():
            text = content_text(extra.get("content"))
    if agent_id is None:
        agent_id = agent_id_in_text(text)
    answer = None if background or is_error else (answer_text(text) or None)
    api_error = answer is not None and is_api_error(answer)
    interrupted = is_error and is_interrupted(text)
    return SpawnResult(
        agent_id, background, False, is_error, tool_uses, duration, answer, usage, model, api_error, interrupted
    )


def agent_id_in_text(text: str) -> str | None:
    """The agent an older result names in its text (`agentId: <id>`)."""
    at = text.find("agentId: ")
    if at < 0 or (at > 0 and text[at - 1] != "\n"):
        return None
    word = text[at + 9 :].split(None, 1)
    value = word[0] if word else ""
    value = "".join(c for c in value if c.isalnum() or c in "-_")
    return value or None


def answer_text(text: str) -> str:
    """An agent's answer in its spawning call's result: without the client's hand-back
    preamble and the `agentId:`/usage trailer older clients add."""
    if text.startswith("[Subagent hand-back]"):
        marker = text.find("The report follows:")
        text = text[marker + len("The report follows:") :] if marker >= 0 else text.partition("\n")[2]
    elif text.startswith("Async agent launched"):
        return ""
    at = text.find("\nagentId: ")
    if at >= 0:
        text = text[:at]
    return text.strip()


def completions(entry: Mapping[str, Any]) -> list[Completion]:
    """The background endings one raw transcript entry holds (most hold none)."""
    kind = entry.get("type")
    at = entry_time(entry)
    if kind == TYPE_QUEUE_OPERATION:  # an ending enqueued mid-turn (2.1.6x): no user line follows
        content = entry.get("content")
        note = notification(content, at) if entry.get("operation") == "enqueue" and isinstance(content, str) else None
        return [note] if note else []
    if kind == TYPE_ATTACHMENT:
        attachment = entry.get("attachment")
        if not isinstance(attachment, Mapping):
            return []
        if attachment.get("type") == ATTACHMENT_QUEUED_COMMAND:
            note = notification(content_text(attachment.get("prompt")), at)
            return [note] if note else []
        if attachment.get("type") == TASK_STATUS:
            agent_id = _str(attachment.get("taskId"))
            status = client_word(attachment.get("status"))
            if agent_id and status:
                answer = _str(attachment.get("deltaSummary")) or _str(attachment.get("summary"))
                return [Completion(agent_id, status, TASK_STATUS, at, answer)]
        return []
    if kind not in (TYPE_USER, TYPE_TOOL_RESULT):
        return []
    message = entry.get("message")
    content = message.get("content") if isinstance(message, Mapping) else None
    found = []
    if kind == TYPE_TOOL_RESULT and isinstance(message, Mapping):  # the seed docs' dialect
        blocks: list[Any] = [{"type": "tool_result", "content": content}]
    else:
        blocks = content if isinstance(content, list) else []
        if isinstance(content, str) or not any(isinstance(b, dict) and b.get("type") == "tool_result" for b in blocks):
            if not _is_notification(_head(content)):
                return []
            note = notification(content_text(content), at)
            return [note] if note else []
    extra = entry.get("toolUseResult")
    for block in blocks:
        if isinstance(block, Mapping) and block.get("type") == "tool_result":
            # Most results are not a poll: told by their head, without joining a long output.
            body = block.get("content")
            if _has_task(extra) or "<retrieval_status>" in _head(body):
                polled = task_output(extra, content_text(body), at)
                if polled is not None:
                    found.append(polled)
    return found


def notification(text: str, at: datetime | None = None) -> Completion | None:
    """A `<task-notification>` (or `<agent-notification>`) text's ending of a background task."""
    if not _is_notification(text):
        return None
    agent_id = (tagged(text, "task-id") or tagged(text, "agent-id") or "").strip()
    status = client_word(tagged(text, "status")) or client_word("completed")
    if not agent_id:
        return None
    answer = tagged(text, "result")
    if answer is None:
        answer = tagged(text, "summary")
    usage = tagged(text, "usage") or ""
    return Completion(
        agent_id,
        status,
        NOTIFICATION,
        at,
        answer.strip() if answer else None,
        _figure(usage, "tool_uses"),
        _figure(usage, "duration_ms"),
        (tagged(text, "tool-use-id") or "").strip() or None,
    )


def task_output(extra: Any, text: str, at: datetime | None = None) -> Completion | None:
    """A `TaskOutput` result's word on a background task (its `task`, or its text)."""
    task = extra.get("task") if isinstance(extra, Mapping) else None
    if isinstance(task, Mapping) and _str(task.get("task_id")):
        status = client_word(task.get("status"))
        if status is None:
            return None
        output = _str(task.get("output")) or _str(task.get("result"))
        return Completion(task["task_id"], status, TASK_OUTPUT, at, output.strip() if output else None)
    if "<retrieval_status>" not in text[:300]:
        return None
    agent_id = (tagged(text, "task_id") or "").strip()
    status = client_word(tagged(text, "status"))
    if not agent_id or status is None:
        return None
    output = tagged(text, "output")
    return Completion(agent_id, status, TASK_OUTPUT, at, output.strip() if output else None)


class AgentSignalScan:
    """Watches entries go by (a `Session` observer) for what they say about agents: each
    spawning call's result (`spawns`, by call id) and each background task's latest word
    (`endings`, by its id; a "still running" poll never undoes an ending; a `TaskStop` that
    worked stops it). Cheap on the entries that say nothing of agents (nearly all): told by
    a key or a text's head."""

    def __init__(self) -> None:
        self.spawns: dict[str, SpawnResult] = {}
        self.endings: dict[str, Completion] = {}
        self._stopping: dict[str, str] = {}  # a TaskStop/KillShell call's id -> the task it stops

    def add(self, entry: Entry) -> None:
        raw = entry.raw
        kind = raw.get("type")
        if kind in (TYPE_ATTACHMENT, TYPE_QUEUE_OPERATION):
            for ending in completions(raw):
                self.ended(ending)
            return
        if kind == "assistant":
            for use in entry.tool_uses:
                task = stopped_task(use.get("name"), use.get("input"))
                if task is not None and isinstance(use.get("id"), str):
                    self._stopping[use["id"]] = task
            return
        if kind != TYPE_USER and kind != TYPE_TOOL_RESULT:
            return
        extra = raw.get("toolUseResult")
        if isinstance(extra, Mapping) and not _SPAWN_KEYS.isdisjoint(extra):
            for result in entry.tool_results:
                self.spawns[result.tool_use_id] = spawn_result(
                    result.extra, result.text, is_error=result.is_error, denial=result.denial
                )
            return
        if self._stopping:
            for result in entry.tool_results:
                task = self._stopping.pop(result.tool_use_id, None)
                if task is not None and not result.is_error:
                    self.ended(Completion(task, STOPPED, TASK_STOP, entry.timestamp))
        for ending in completions(raw):
            self.ended(ending)

    def ended(self, ending: Completion) -> None:
        known = self.endings.get(ending.agent_id)
        if known is not None and known.status != RUNNING and ending.status == RUNNING:
            return
        if known is not None and known.status == STOPPED and ending.status != STOPPED:
            return  # stopped on purpose: the notification that follows says `killed` or nothing new
        if known is not None and known.status != RUNNING:
            # a second word on an ended task (a TaskOutput after the notification): keep
            # the figures and time of the first ending where the later one has none
            ending = Completion(
                ending.agent_id,
                ending.status,
                known.kind,
                known.at or ending.at,
                ending.answer or known.answer,
                known.tool_uses if known.tool_uses is not None else ending.tool_uses,
                known.duration_ms if known.duration_ms is not None else ending.duration_ms,
                known.tool_use_id or ending.tool_use_id,
            )
        self.endings[ending.agent_id] = ending

    def merge(self, other: AgentSignalScan) -> None:
        """Take what another scan saw (an agent's own log)."""
        self.spawns.update(other.spawns)
        for ending in other.endings.values():
            self.ended(ending)


def _is_notification(text: str) -> bool:
    head = text[:300]
    return any(tag in head for tag in _NOTIFICATIONS)


def _has_task(extra: Any) -> bool:
    return isinstance(extra, Mapping) and isinstance(extra.get("task"), Mapping)


def _head(content: Any, size: int = 300) -> str:
    """The first `size` characters of a content's text (a string, or its first text block)."""
    if isinstance(content, str):
        return content[:size]
    if isinstance(content, list):
        for block in content:
            if isinstance(block, Mapping) and isinstance(block.get("text"), str):
                return block["text"][:size]
    return ""


def _figure(text: str, name: str) -> int | None:
    """`name: N` (or `<name>N</name>`) in a notification's usage."""
    inner = tagged(text, name)
    if inner is not None:
        return _number(inner.strip())
    at = text.find(f"{name}:")
    if at < 0:
        return None
    digits = text[at + len(name) + 1 :].strip().split(None, 1)
    return _number(digits[0]) if digits else None


def _number(value: Any) -> int | None:
    """A count the client wrote as a number or as digits in a text."""
    if isinstance(value, str):
        value = int(value) if value.isdigit() and len(value) < 19 else None
    elif isinstance(value, float) and value >= 0 and value == value:
        value = int(value)
    return count_value(value)


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None
