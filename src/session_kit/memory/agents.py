"""The subagents in the working memory: what each spawning call, its result and a background
agent's ending leave there.

Owns: the memory's `agents` list (`record`'s shape): an item per spawning call, with its
status (`base.agents`' words and its one rule, `agent_status`, which the session model
`sessions.agent_run` decides by too), whether it ran in the background, its tool calls,
duration and answer, each read from the lines by the kit's one reading of them
(`transcript.agent_signals`, loaded on first use): a call refused or declined before it
started is no agent; an "API Error: …" answer is a failure; a background agent's duration
comes from its ending, never from its launching call. Standard library only. Does not parse
lines (`fold`) or word the restore (`restore`).
"""

from __future__ import annotations

import os

from session_kit.base.agents import FINISHED, RUNNING, STOPPED, agent_status
from session_kit.memory.text import agent_signals, clip, redact, result_text, seconds_between_times

MAX_AGENTS = 40
MAX_ANSWER = 400
# How a background agent's ending starts (2.0.67 wrote `<agent-notification>`).
NOTIFICATIONS = ("<task-notification>", "<agent-notification>")
NOTIFICATION_MARKS = tuple(n.encode() for n in NOTIFICATIONS)


def agent_started(agents: list[dict], call_id: str, tool_input: dict, line: int, at: str | None) -> None:
    """A spawning call: an agent that runs until a line says otherwise."""
    kind = tool_input.get("subagent_type")
    description = tool_input.get("description")
    agents.append(
        {
            "id": None,
            "call": call_id,
            "type": kind if isinstance(kind, str) and kind else "general-purpose",
            "description": clip(redact(description if isinstance(description, str) else ""), 200),
            "status": RUNNING,
            "background": False,
            "calls": None,
            "duration_s": None,
            "answer": None,
            "error": None,
            "line": line,
            "at": at,
        }
    )
    del agents[:-MAX_AGENTS]


def agent_answered(
    agents: list[dict],
    call_id: str | None,
    extra: object,
    block: dict | None,
    *,
    failed: bool,
    at: str | None,
    denial: str | None = None,
) -> dict | None:
    """The spawning call's result (its entry marked `denial`: `base.declines.denial_kind`);
    returns the agent it ended (None: none, or still running)."""
    agent = next((a for a in reversed(agents) if a["call"] == call_id), None)
    if agent is None:
        return None
    signals = agent_signals()
    text = result_text(block.get("content")) if block is not None else ""
    said = signals.spawn_result(extra, text, is_error=failed, denial=denial)
    if said.rejected:  # refused before it started: it spawned nothing
        agents.remove(agent)
        return None
    agent["id"] = said.agent_id or agent["id"]
    if said.background:
        agent["background"] = True  # it runs on: its ending says how it went, and how long
        return None
    agent["status"] = agent_status(
        spawned=True,
        call_failed=failed and not said.interrupted,
        interrupted=said.interrupted,
        ended_in_error=said.api_error,
    )
    if failed or said.api_error:
        agent["error"] = _kept(text if failed else said.answer)
    if said.tool_uses is not None:
        agent["calls"] = said.tool_uses
    if said.duration_ms is not None:
        agent["duration_s"] = said.duration_ms / 1000.0
    else:
        agent["duration_s"] = seconds_between_times(agent.get("at"), at)
    if said.answer and not said.api_error:
        agent["answer"] = _kept(said.answer)
        agent["_said"] = said.answer  # whole, for the failures it reports; never saved (`fold`)
    return agent


def thread_answered(agents: list[dict], entry: dict) -> dict | None:
    """A 1.0.x inline thread's last answer (a sidechain assistant line that ends its turn with
    text and no call): it ends the agent its spawning call started, when that call is the one
    still waiting (its result, which would say the same, may not be written yet). Returns
    the agent it ended."""
    message = entry.get("message")
    if entry.get("type") != "assistant" or not isinstance(message, dict) or message.get("stop_reason") != "end_turn":
        return None
    blocks = message.get("content")
    blocks = blocks if isinstance(blocks, list) else []
    text = " ".join(b.get("text", "") for b in blocks if isinstance(b, dict) and b.get("type") == "text")
    if not text.strip() or any(isinstance(b, dict) and b.get("type") == "tool_use" for b in blocks):
        return None
    waiting = [a for a in agents if a["status"] == RUNNING and not a.get("background")]
    if len(waiting) != 1:
        return None  # several at once: which thread is whose is the session model's to link
    agent = waiting[0]
    agent["status"] = FINISHED
    agent["answer"] = _kept(text)
    return agent


def agent_ended(agents: list[dict], ending: object) -> dict | None:
    """A background agent's ending (`agent_signals.Completion`); a poll that says it still
    runs changes nothing. Returns the agent it ended."""
    agent = next(
        (
            a
            for a in reversed(agents)
            if a["id"] == ending.agent_id or (ending.tool_use_id and a["call"] == ending.tool_use_id)
        ),
        None,
    )
    if agent is None or ending.status == RUNNING:
        return None
    agent["id"] = agent["id"] or ending.agent_id
    agent["status"] = agent_status(spawned=True, background=True, ending=ending.status)
    agent["background"] = True
    if ending.answer:
        agent["answer"] = _kept(ending.answer)
        agent["_said"] = ending.answer
    if ending.tool_uses is not None and agent.get("calls") is None:
        agent["calls"] = ending.tool_uses
    if ending.duration_ms is not None:
        agent["duration_s"] = ending.duration_ms / 1000.0
    elif agent.get("duration_s") is None and ending.at is not None:
        agent["duration_s"] = seconds_between_times(agent.get("at"), ending.at)
    return agent


def agent_stopped(agents: list[dict], task_id: str, at: object) -> dict | None:
    """A `TaskStop`/`KillShell` call that worked: the background agent it names was stopped."""
    signals = agent_signals()
    return agent_ended(agents, signals.Completion(task_id, STOPPED, signals.TASK_STOP, at))


def ended_by_their_logs(agents: list[dict], transcript: str) -> None:
    """Background agents no line has ended yet, whose own log's meta file says `finished`:
    the agent model's rule (`sessions.agent_run.AgentRun.status`), read from
    `<session>/subagents/agent-<id>.meta.json` beside the transcript (bounded)."""
    from session_kit.base import fastjson, fileio, layout

    project, session = os.path.split(os.path.splitext(transcript)[0])
    for agent in agents:
        if agent["status"] != RUNNING or not agent.get("background") or not agent.get("id"):
            continue
        safe = "".join(c for c in agent["id"] if c.isalnum() or c in "-_")
        try:
            log = layout.agent_log_path(project, session, safe)
            meta = fastjson.loads(fileio.read_small(layout.meta_path(log), 64 * 1024))
        except (OSError, ValueError, UnicodeDecodeError, RecursionError):
            continue
        if isinstance(meta, dict):
            agent["status"] = agent_status(spawned=True, background=True, meta_finished=meta.get("finished") is True)


def notified(content: object) -> bool:
    """A user entry that is a background task's notification (its text, or its first block)."""
    if isinstance(content, list):
        content = next((b.get("text") for b in content if isinstance(b, dict) and b.get("type") == "text"), None)
    return isinstance(content, str) and any(n in content[:300] for n in NOTIFICATIONS)


def _kept(text: str) -> str:
    return clip(redact(" ".join(text.split())), MAX_ANSWER)
