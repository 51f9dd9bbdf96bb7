"""How the text outputs show a tool call's outcome and an agent's status (`show`, `events`,
`debug-agent`, `info`): one formatter for each, so the commands never word them apart."""

from __future__ import annotations

from session_kit import api
from session_kit.cli.output import clip

# How the text outputs mark a call's status.
CALL_MARKS = {api.STATUS_OK: "ok", api.STATUS_ERROR: "FAIL", api.STATUS_PENDING: "…"}


def call_outcome(call: api.ToolCall) -> tuple[str, str, str]:
    """(duration, mark, exit code) of a tool call as the text outputs show them."""
    took = f"{call.duration_s:.1f}s" if call.duration_s is not None else "-"
    mark = CALL_MARKS[call.status]
    code = f" exit {call.exit_code}" if call.exit_code is not None and call.failed else ""
    return took, mark, code


def agent_status(run: api.AgentRun, *, error_chars: int | None = None) -> str:
    """`ok`, or `FAILED (N failed calls, ended in error[: why])`; the why only with
    `error_chars`; `, log not found` after either for an agent known only from its call."""
    gone = ", log not found" if not run.log_found else ""
    if not run.failed:
        return api.AGENT_OK + gone
    why = []
    if run.failures:
        why.append(f"{len(run.failures)} failed call{'s' if len(run.failures) != 1 else ''}")
    if run.ended_in_error:
        why.append("ended in error" + (f": {clip(run.error, error_chars)}" if error_chars else ""))
    return f"FAILED ({', '.join(why)})" + gone
