"""A session's subagents as they are now: what `session-kit agents` shows.

Owns: putting the two sources together, one agent each: the agent model
(`sessions.agent_run.AgentRun`, read from the transcript and the agent logs: type, prompt,
calls, answer, tokens, how it ended) and the hooks' live record (`state.live_agents`: when
SubagentStart and SubagentStop fired, the last message SubagentStop gave, budget denials);
each agent's live status (`base.agents`' words: what the transcript says of how it ended,
else the hooks' word: running, or stalled: running with a log that has not grown for the
threshold, `base.agents.live_status`), its elapsed time, what it is
doing (its latest tool call) and its budget; and reading a threshold given as `10`, `0.5`
(minutes), `30s`, `2m` or `1h`. An agent the hooks saw start before its log was written is
shown from the record alone. Does not print.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from session_kit.base.agents import ENDED, FAILED, FINISHED, RUNNING, STALLED, STOPPED, UNKNOWN, live_status
from session_kit.base.timestamps import mtime
from session_kit.errors import BadSetting, KitError
from session_kit.sessions.agent_run import AgentRun
from session_kit.sessions.session import Session
from session_kit.sessions.store import SessionRef
from session_kit.state import live_agents as live
from session_kit.state.budgets import agent_budget
from session_kit.state.scratch import SessionScratch
from session_kit.transcript.agent_signals import SOURCE_LOG, SOURCE_RESULT

SOURCE_HOOKS = "hooks"  # a figure from the hooks' live record
# The words of the live view, in the order its counts are given.
LIVE_STATUSES = (RUNNING, STALLED, FINISHED, FAILED, STOPPED, UNKNOWN)


@dataclass(frozen=True, slots=True)
class LiveAgent:
    agent_id: str
    agent_type: str | None
    description: str | None
    status: str  # `base.agents`' words: finished, failed, stopped, running, stalled, unknown
    background: bool
    started: float | None  # seconds since the epoch
    ended: float | None
    elapsed_s: float | None
    idle_s: float | None  # since its log last grew (running and stalled agents)
    tokens: int | None
    tokens_floor: bool
    last_message: str | None
    last_message_source: str | None
    doing: str | None  # its latest tool call, `Name: summary`
    tool_calls: int | None
    budget: int | None
    denied_calls: int
    sources: tuple[str, ...]  # where it is known from: `log`, `result`, `hooks`
    tool_use_id: str | None = None  # the call that spawned it

    @property
    def over_budget(self) -> bool:
        """Past its budget: by its tokens now, or by the hook that denied it a call."""
        if self.denied_calls:
            return True
        return self.budget is not None and self.tokens is not None and self.tokens > self.budget

    def as_dict(self) -> dict[str, Any]:
        return {
            "agent_id": self.agent_id,
            "tool_use_id": self.tool_use_id,
            "type": self.agent_type,
            "description": self.description,
            "status": self.status,
            "background": self.background,
            "started": _iso(self.started),
            "ended": _iso(self.ended),
            "elapsed_s": _round(self.elapsed_s),
            "idle_s": _round(self.idle_s),
            "tokens": self.tokens,
            "tokens_floor": self.tokens_floor,
            "last_message": self.last_message,
            "last_message_source": self.last_message_source,
            "doing": self.doing,
            "tool_calls": self.tool_calls,
            "budget": self.budget,
            "over_budget": self.over_budget,
            "denied_calls": self.denied_calls,
            "sources": list(self.sources),
        }


@dataclass(frozen=True, slots=True)
class LiveAgents:
    ref: SessionRef
    agents: tuple[LiveAgent, ...]
    stalled_after_s: float
    at: float
    hooks_seen: bool  # the hooks recorded this session's agents (else: the transcript alone)

    def count(self, status: str) -> int:
        return sum(1 for a in self.agents if a.status == status)

    def as_dict(self) -> dict[str, Any]:
        counts = {s: self.count(s) for s in LIVE_STATUSES}
        return {
            "session_id": self.ref.id,
            "path": str(self.ref.path),
            "at": _iso(self.at),
            "stalled_after_s": self.stalled_after_s,
            "hooks_seen": self.hooks_seen,
            "counts": counts,
            "agents": [a.as_dict() for a in self.agents],
        }


def _iso(t: float | None) -> str | None:
    if t is None:
        return None
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + f".{int(t % 1 * 1000):03d}Z"


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def parse_threshold(text: str) -> float:
    """Seconds, from `10` or `0.5` (minutes), `30s`, `2m`, `1h`."""
    raw = text.strip().lower()
    scale = 60.0
    for suffix, factor in (("s", 1.0), ("m", 60.0), ("h", 3600.0)):
        if raw.endswith(suffix):
            raw, scale = raw[: -len(suffix)], factor
            break
    try:
        value = float(raw) * scale
    except ValueError:
        value = -1.0
    if not value > 0 or value != value or value == float("inf"):
        raise KitError(f"--stalled-after must be a positive number of minutes (10, 0.5) or 30s, 2m, 1h; not {text!r}")
    return value


def _mtime(path: str | None) -> float | None:
    if not path:
        return None
    try:
        return mtime(os.stat(path))
    except OSError:
        return None


def _timestamp(value: Any) -> float | None:
    return value.timestamp() if value is not None else None


def _doing(run: AgentRun | None) -> str | None:
    if run is None or not run.calls:
        return None
    call = run.calls[-1]
    return f"{call.name}: {call.summary}" if call.summary else call.name


def _one(
    agent_id: str,
    run: AgentRun | None,
    record: Mapping[str, Any],
    *,
    log_path: str | None,
    now: float,
    stalled_after_s: float,
    budget_of: Any,
) -> LiveAgent:
    log_mtime = _mtime(log_path)
    started = live.parse_iso(record.get("started"))
    stopped = live.parse_iso(record.get("stopped"))
    if run is not None:
        started = started if started is not None else _timestamp(run.start or run.call_started)
    status = live_status(
        stopped=bool(record.get("stopped")),
        last_activity=live.last_activity(record, log_mtime),
        now=now,
        stalled_after_s=stalled_after_s,
    )
    if run is not None:
        if run.status in ENDED:
            status = run.status  # the transcript says how it ended, with or without the hooks
        elif run.status == UNKNOWN and not record:
            status = UNKNOWN  # nothing started it and nothing ended it: no hooks to ask either
        elif not record:  # no hooks: the log alone says whether it still moves
            status = live_status(
                stopped=False, last_activity=log_mtime or started, now=now, stalled_after_s=stalled_after_s
            )
    ended = stopped
    if ended is None and run is not None and status in ENDED:
        ended = _timestamp(run.end) if run.end is not None else log_mtime
    running = status in (RUNNING, STALLED)
    elapsed = None
    if started is not None:
        elapsed = max(0.0, (now if running else (ended or now)) - started)
    if not running and run is not None and run.duration_s is not None:
        elapsed = run.duration_s
    message, message_source = None, None
    if isinstance(record.get("last_message"), str) and record["last_message"]:
        message, message_source = record["last_message"], SOURCE_HOOKS
    elif run is not None:
        message, message_source = run.answer
    tokens, floor = None, False
    if run is not None:
        usage, source = run.token_figure
        if source is not None:
            tokens, floor = usage.total.tokens, source == SOURCE_RESULT
    agent_type = (run.agent_type if run is not None else None) or record.get("type")
    denied = record.get("denied") if isinstance(record.get("denied"), dict) else {}
    sources = []
    if run is not None:
        sources.append(SOURCE_LOG if run.log_found else SOURCE_RESULT)
    if record:
        sources.append(SOURCE_HOOKS)
    return LiveAgent(
        agent_id=agent_id,
        agent_type=agent_type if isinstance(agent_type, str) else None,
        description=run.description if run is not None else None,
        status=status,
        background=run.background if run is not None else False,
        started=started,
        ended=None if running else ended,
        elapsed_s=elapsed,
        idle_s=(now - (log_mtime or started)) if running and (log_mtime or started) is not None else None,
        tokens=tokens,
        tokens_floor=floor,
        last_message=message,
        last_message_source=message_source,
        doing=_doing(run) if running else None,
        tool_calls=run.tool_call_count[0] if run is not None else None,
        budget=budget_of(agent_type if isinstance(agent_type, str) else None),
        denied_calls=int(denied.get("calls") or 0),
        sources=tuple(sources),
        tool_use_id=run.tool_use_id if run is not None else None,
    )


def _warn(problem: str) -> None:
    """A malformed budget: one note on stderr (the command line shows each once)."""
    import warnings

    warnings.warn(problem, BadSetting, stacklevel=2)


def live_agents(
    ref: SessionRef,
    *,
    state_root: str,
    env: Mapping[str, str] | None = None,
    stalled_after_s: float | None = None,
    now: float | None = None,
) -> LiveAgents:
    """Each subagent of the session as it is now (see the module's docstring)."""
    env = os.environ if env is None else env
    now = time.time() if now is None else now
    threshold = live.stalled_after_s(state_root) if stalled_after_s is None else stalled_after_s
    scratch = SessionScratch.for_session(ref.id, project_key=ref.project.name, root=state_root)
    records = live.read_live(scratch.path) if scratch.exists() else {}
    runs = {run.agent_id: run for run in Session(ref).agents}
    budgets: dict[str | None, int | None] = {}

    def budget_of(agent_type: str | None) -> int | None:
        if agent_type not in budgets:
            budgets[agent_type] = agent_budget(state_root, env, agent_type, warn=_warn)
        return budgets[agent_type]

    agents = []
    for agent_id in [*runs, *(a for a in records if a not in runs)]:
        run = runs.get(agent_id)
        record = records.get(agent_id, {})
        log_path = str(run.log.path) if run is not None and run.log.path is not None else None
        if log_path is None:
            log_path = live.find_agent_log(str(ref.path), ref.id, agent_id)
        agents.append(
            _one(
                agent_id,
                run,
                record,
                log_path=log_path,
                now=now,
                stalled_after_s=threshold,
                budget_of=budget_of,
            )
        )
    agents.sort(key=lambda a: (a.started is None, a.started or 0.0))
    return LiveAgents(ref, tuple(agents), threshold, now, bool(records))
