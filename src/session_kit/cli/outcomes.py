"""How the text outputs show a tool call's outcome, an agent's status and a plan's source
(`show`, `events`, `debug-agent`, `info`, `plan`): one formatter for each, so the commands
never word them apart."""

from __future__ import annotations

from typing import TYPE_CHECKING

from session_kit import api
from session_kit.cli.text import clip, plural

if TYPE_CHECKING:  # types for annotations alone: nothing at run time loads their modules
    from session_kit.sessions.agents import AgentRun
    from session_kit.transcript.calls import ToolCall

# How the text outputs mark a call's status.
CALL_MARKS = {api.STATUS_OK: "ok", api.STATUS_ERROR: "FAIL", api.STATUS_DECLINED: "declined", api.STATUS_PENDING: "…"}


def call_outcome(call: ToolCall) -> tuple[str, str, str]:
    """(duration, mark, exit code) of a tool call as the text outputs show them."""
    took = f"{call.duration_s:.1f}s" if call.duration_s is not None else "-"
    mark = CALL_MARKS[call.status]
    code = f" exit {call.exit_code}" if call.exit_code is not None and call.failed else ""
    return took, mark, code


# Where an agent's figure came from, when not from its own log.
FROM = {"result": "from its result", "completion": "from its ending", "call": "from its call"}


def agent_status(run: AgentRun, *, error_chars: int | None = None) -> str:
    """Its status, in the words of every output (`finished`, `failed`, `stopped`, `running`
    (`in the background`), `unknown`), then what more there is to say: `finished, 1 failed
    call`, `failed, API Error: …` (why, only with `error_chars`), `, log not found` for an
    agent known only from its call."""
    said = [run.status + (" in the background" if run.status == api.AGENT_RUNNING and run.background else "")]
    if run.failures:
        said.append(plural(len(run.failures), "failed call"))
    if run.ended_in_error and error_chars:
        said.append(clip(run.error, error_chars))
    if not run.log_found:
        said.append("log not found")
    return ", ".join(said)


def agent_calls(run: AgentRun) -> str:
    """`3 calls`, `3 calls (from its result)` for an agent without its log, or `calls unknown`."""
    count, source = run.tool_call_count
    if count is None:
        return "calls unknown"
    where = f" ({FROM[source]})" if source in FROM else ""
    return f"{plural(count, 'call')}{where}"


def agent_duration(run: AgentRun) -> str:
    """`12.3s`, `12.3s (from its result)`, or `-` (unknown: still running, or nothing says)."""
    seconds, source = run.duration
    if seconds is None:
        return "-"
    where = f" ({FROM[source]})" if source in FROM else ""
    return f"{seconds:.1f}s{where}"


def agent_answer(run: AgentRun) -> str | None:
    """Its final answer, marked when it is not from its log."""
    text, source = run.answer
    if text is None:
        return None
    return f"({FROM[source]}) {text}" if source in FROM else text


def plan_source(source: str) -> str:
    """Where a plan came from, as `plan` and `info` name it (the plans' module loads only here:
    `show` and `events` never pay for it)."""
    names = {
        api.SOURCE_EXIT_PLAN_MODE: "ExitPlanMode",
        api.SOURCE_PLAN_AGENT: "Plan agent",
        api.SOURCE_PLAN_FILE: "plan file",
    }
    return names[source]
