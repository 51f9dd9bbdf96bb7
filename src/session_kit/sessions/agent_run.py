"""One agent of a session, and every figure told of it with where that figure came from.

Owns: `AgentRun`, the one model of an agent that `show`, `debug-agent`, `events`, `view` and
`usage` report: what its log (or inline thread) holds, what its spawning call and that call's
result say, and a background agent's ending; and the rules that pick each figure from them
(status, tool calls, answer, duration, tokens), each with its source (`log`: exact; `result`:
the client's figure in the spawning call's result, whose tokens are a floor; `completion`: a
background agent's ending line; `call`: the spawning call's own times). The memory's capture
follows the same rules from the same lines (`transcript.agent_signals`). Reading logs and
linking them to calls is `sessions.agents`. Does not read files or print.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from session_kit.base.agents import FAILED, RUNNING, agent_status
from session_kit.sessions.store import LAYOUT_MISSING, LAYOUT_WORKFLOW, AgentLogRef
from session_kit.transcript.agent_signals import (
    SOURCE_CALL,
    SOURCE_COMPLETION,
    SOURCE_LOG,
    SOURCE_RESULT,
    AgentSignalScan,
    Completion,
    SpawnResult,
)
from session_kit.transcript.calls import ToolCall
from session_kit.transcript.entries import format_timestamp, seconds_between
from session_kit.transcript.tokens import UNKNOWN_MODEL, TokenUsage, usage_of


class AgentFigures(NamedTuple):
    """What every output says of an agent, each figure with its source (None: unknown)."""

    status: str
    background: bool
    calls: int | None
    calls_source: str | None
    answer: str | None
    answer_source: str | None
    duration_s: float | None
    duration_source: str | None
    tokens_source: str | None  # `log`: exact; `result`: a floor (its last request only)

    @property
    def tokens_floor(self) -> bool:
        return self.tokens_source == SOURCE_RESULT

    def as_dict(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "background": self.background,
            "tool_calls": self.calls,
            "tool_calls_source": self.calls_source,
            "final_answer": self.answer,
            "answer_source": self.answer_source,
            "duration_s": self.duration_s,
            "duration_source": self.duration_source,
            "tokens_source": self.tokens_source,
            "tokens_floor": self.tokens_floor,
        }


class AgentRun(NamedTuple):
    log: AgentLogRef
    agent_type: str | None
    description: str | None
    tool_use_id: str | None  # the parent's Agent/Task tool use, when linked
    prompt: str | None
    start: datetime | None
    end: datetime | None
    model: str | None
    calls: tuple[ToolCall, ...]
    final_answer: str | None
    spawn_depth: int | None
    skipped_lines: int
    parent_agent_id: str | None = None  # the agent that spawned this one; None: the main conversation
    error: str | None = None  # why the agent ended in error (API error, interruption, failed spawn)
    tokens: TokenUsage = TokenUsage()  # its own log's usage, once per API message
    # What the main conversation says of it: the spawning call's times and whether it is
    # still waiting for its result, the call's result, and a background agent's ending.
    call_started: datetime | None = None
    call_ended: datetime | None = None
    call_pending: bool = False
    spawn: SpawnResult | None = None
    ending: Completion | None = None
    signals: AgentSignalScan | None = None  # what its own log says of the agents it started
    call_seen: bool = False  # a spawning call of the conversation (or of an agent) is linked
    call_failed: bool = False  # that call's result is an error (not the person interrupting it)
    interrupted: bool = False  # the person stopped it: its log's last turn, or its call's result
    answered: bool = False  # its log ends in a finished answer (`end_turn`)
    log_api_error: bool = False  # its log's last message is the client's API error
    thread: frozenset[str] | None = None  # an inline agent: the uuids of its entries in the session's file

    @property
    def agent_id(self) -> str:
        return self.log.agent_id

    @property
    def log_found(self) -> bool:
        """False for an agent known only from its spawning call: its log was never kept."""
        return self.log.layout != LAYOUT_MISSING

    @property
    def failures(self) -> tuple[ToolCall, ...]:
        return tuple(c for c in self.calls if c.failed)

    @property
    def ended_in_error(self) -> bool:
        return self.error is not None

    @property
    def failed(self) -> bool:
        """It failed, or one of its tool calls did (what `debug-agent` picks by default)."""
        return bool(self.failures) or self.status == FAILED

    @property
    def background(self) -> bool:
        """Launched in the background: its spawning call returned at once (a workflow's
        agents all are: its run was launched so)."""
        if self.log.layout == LAYOUT_WORKFLOW and not self.call_seen:
            return True
        return self.spawn is not None and self.spawn.background

    @property
    def status(self) -> str:
        """How the agent itself ended (its calls' failures aside), in `base.agents`' words, by
        its one rule (`agent_status`)."""
        spawn = self.spawn
        # A workflow's agent is started by its run, not by a call: it ends with its answer.
        workflow = self.log.layout == LAYOUT_WORKFLOW and not self.call_seen
        return agent_status(
            spawned=self.call_seen or spawn is not None or workflow,
            background=self.background and not workflow,
            call_failed=self.call_failed or (spawn is not None and spawn.failed and not spawn.interrupted),
            call_pending=self.call_pending or workflow,
            ending=self.ending.status if self.ending is not None else None,
            ended_in_error=self.log_api_error or (spawn is not None and spawn.api_error),
            interrupted=self.interrupted or (spawn is not None and spawn.interrupted),
            answered=self.answered,
            meta_finished=(self.log.meta or {}).get("finished") is True,
        )

    @property
    def tool_call_count(self) -> tuple[int | None, str | None]:
        """How many tool calls it made, and where that figure comes from (None: unknown)."""
        if self.log_found:
            return len(self.calls), SOURCE_LOG
        if self.spawn is not None and self.spawn.tool_uses is not None:
            return self.spawn.tool_uses, SOURCE_RESULT
        if self.ending is not None and self.ending.tool_uses is not None:
            return self.ending.tool_uses, SOURCE_COMPLETION
        return None, None

    @property
    def answer(self) -> tuple[str | None, str | None]:
        """Its final answer, and where it comes from: its log, its ending, its call's result."""
        if self.log_found and self.final_answer:
            return self.final_answer, SOURCE_LOG
        if self.ending is not None and self.ending.status != RUNNING and self.ending.answer:
            return self.ending.answer, SOURCE_COMPLETION
        if self.spawn is not None and self.spawn.answer and not self.spawn.api_error:
            return self.spawn.answer, SOURCE_RESULT
        return None, None

    @property
    def duration(self) -> tuple[float | None, str | None]:
        """How long it ran, and where that comes from. A background agent's comes from its
        ending (or its log), never from its launching call, which returns at once; a
        running agent's is unknown."""
        if self.status == RUNNING:
            return None, None
        if self.background:
            ending = self.ending
            if ending is not None and ending.duration_ms is not None:
                return ending.duration_ms / 1000.0, SOURCE_COMPLETION
            if ending is not None and (span := seconds_between(self.call_started, ending.at)) is not None:
                return span, SOURCE_COMPLETION
        else:
            if self.spawn is not None and self.spawn.duration_ms is not None:
                return self.spawn.duration_ms / 1000.0, SOURCE_RESULT
            if (span := seconds_between(self.call_started, self.call_ended)) is not None:
                return span, SOURCE_CALL
        if self.log_found and (span := seconds_between(self.start, self.end)) is not None:
            return span, SOURCE_LOG
        return None, None

    @property
    def duration_s(self) -> float | None:
        return self.duration[0]

    @property
    def token_figure(self) -> tuple[TokenUsage, str | None]:
        """Its tokens and their source: its log (exact), or its call's result, which counts
        only its last request (a floor); None: unknown."""
        if self.log_found:
            return self.tokens, SOURCE_LOG
        if self.spawn is not None and self.spawn.usage is not None:
            model = self.spawn.model or UNKNOWN_MODEL
            return TokenUsage(((model, usage_of(self.spawn.usage)),)), SOURCE_RESULT
        return TokenUsage(), None

    @property
    def figures(self) -> AgentFigures:
        duration, duration_source = self.duration
        count, count_source = self.tool_call_count
        answer, answer_source = self.answer
        return AgentFigures(
            self.status,
            self.background,
            count,
            count_source,
            answer,
            answer_source,
            duration,
            duration_source,
            self.token_figure[1],
        )

    def as_dict(self, *, calls: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {
            "agent_id": self.agent_id,
            "type": self.agent_type,
            "description": self.description,
            "tool_use_id": self.tool_use_id,
            "parent_agent_id": self.parent_agent_id,
            "layout": self.log.layout,
            "path": str(self.log.path) if self.log.path is not None else None,
            "log_found": self.log_found,
            "start": format_timestamp(self.start),
            "end": format_timestamp(self.end),
            "model": self.model,
            "error": self.error,
            "failures": len(self.failures),
            "spawn_depth": self.spawn_depth,
            "tokens": self.token_figure[0].total.as_dict(),
            **self.figures.as_dict(),
        }
        if calls:
            out["prompt"] = self.prompt
            out["calls"] = [c.as_dict() for c in self.calls]
        return out
