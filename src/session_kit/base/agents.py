"""How a subagent stands: the one status vocabulary, and the one rule that decides it.

Owns: the words every command, the memory, the live view, the status line and the JSON use for
an agent (`FINISHED`, `FAILED`, `STOPPED`, `RUNNING`, `UNKNOWN`, and the live view's `STALLED`:
a running agent whose log went silent); the client's own words for a background task's state,
read as ours (`client_word`); the task a stopping call names (`TaskStop`, `KillShell`: the
tools are `base.tools.STOPS_TASK`); an answer that is the client's API error; the compaction summariser's
id (no agent of the conversation); and the decision itself (`agent_status`, `live_status`),
on plain values, so the session model (`sessions.agent_run`), the memory (`memory.agents`) and
the live view (`queries.live_agents`, the status line) cannot word or decide it apart.
Standard library only (and the tool table, `base.tools`): the hooks and the status line load it.
Does not read lines (`transcript.agent_signals` does) or files.
"""

from __future__ import annotations

from session_kit.base.tools import STOPS_TASK

FINISHED = "finished"  # it gave its answer
FAILED = "failed"  # its spawning call failed, a notification says so, or it ended on an API error
STOPPED = "stopped"  # stopped on purpose: TaskStop or KillShell, a `killed` notification, interrupted
RUNNING = "running"  # started, and nothing says it ended (yet)
UNKNOWN = "unknown"  # no spawning call and no ending to judge by (a log that just stops)
STALLED = "stalled"  # the live view's: running, its log silent past the threshold
STATUSES = (FINISHED, FAILED, STOPPED, RUNNING, UNKNOWN)
ENDED = (FINISHED, FAILED, STOPPED)

# The client's word in a notification, a `task_status` attachment or a `TaskOutput` result.
_CLIENT_WORDS = {
    "completed": FINISHED,
    "success": FINISHED,
    "done": FINISHED,
    "failed": FAILED,
    "error": FAILED,
    "timeout": FAILED,
    "killed": STOPPED,
    "stopped": STOPPED,
    "cancelled": STOPPED,
    "canceled": STOPPED,
    "interrupted": STOPPED,
    "running": RUNNING,
    "pending": RUNNING,
    "in_progress": RUNNING,
    "started": RUNNING,
}

API_ERROR = "API Error"  # how the client's `<synthetic>` error message (and an agent's answer then) starts
COMPACTION_PREFIX = "acompact-"  # the compaction summariser's agent id (`agent-acompact-*.jsonl`)


def client_word(word: object) -> str | None:
    """Our status for the client's word (None: not a word we know)."""
    return _CLIENT_WORDS.get(word.strip().lower()) if isinstance(word, str) else None


def stopped_task(tool: object, tool_input: object) -> str | None:
    """The task a `TaskStop`/`KillShell` call stops (None: not such a call)."""
    key = STOPS_TASK.get(tool) if isinstance(tool, str) else None
    value = tool_input.get(key) if key is not None and isinstance(tool_input, dict) else None
    return value.strip() or None if isinstance(value, str) else None


def is_api_error(text: object) -> bool:
    """A text that is the client's API error ("API Error: 404 …"), not an answer."""
    return isinstance(text, str) and text.lstrip().startswith(API_ERROR)


def is_compaction_agent(agent_id: object) -> bool:
    """The client's compaction summariser: it runs as an agent, but is none of the conversation."""
    return isinstance(agent_id, str) and agent_id.startswith(COMPACTION_PREFIX)


def agent_status(
    *,
    spawned: bool,
    background: bool = False,
    call_failed: bool = False,
    call_pending: bool = False,
    ending: str | None = None,
    ended_in_error: bool = False,
    interrupted: bool = False,
    answered: bool = False,
    meta_finished: bool = False,
) -> str:
    """How an agent stands, from what is known of it:

    `spawned`: a spawning call of the conversation started it; `background`: that call returned
    at once (`async_launched`); `call_failed`: its result is an error (a call refused before it
    started spawned nothing: not an agent at all); `call_pending`: it has no result yet;
    `ending`: the latest word of a line that ends a background task (a notification, a
    `task_status`, a `TaskOutput` result, a `TaskStop`), in our words; `ended_in_error`: its
    log's last message, or its whole answer, is the client's API error; `interrupted`: the
    person stopped it; `answered`: its log ends in a finished answer (`end_turn`);
    `meta_finished`: its `.meta.json` says `finished`.

    Stopped on purpose wins; then failed (an API error as its answer fails even a result the
    client marked completed); then how it ended; an agent no call started and no line ended
    is unknown.
    """
    if ending == STOPPED or interrupted:
        return STOPPED
    if call_failed or ending == FAILED or ended_in_error:
        return FAILED
    if ending == FINISHED or meta_finished:
        return FINISHED
    if background:
        return RUNNING
    if not spawned:
        return UNKNOWN
    if call_pending:
        return FINISHED if answered else RUNNING
    return FINISHED


def live_status(*, stopped: bool, last_activity: float | None, now: float, stalled_after_s: float) -> str:
    """The live view's word for an agent the hooks saw: `finished` once SubagentStop fired;
    `stalled` when its log (or, before it has one, its start: `last_activity`) is older than
    the threshold; else `running`."""
    if stopped:
        return FINISHED
    if last_activity is not None and now - last_activity >= stalled_after_s:
        return STALLED
    return RUNNING
