"""The hooks that watch a session's subagents live. Standard library only (plus `state`).

Owns: SubagentStart and SubagentStop (the agent's start, stop, log and last message kept in the
session's live record: `state.live_agents`); PreToolUse: the budget per session first
(`hooks.budget`: every call, the main thread's too), then the budget per subagent (a call made
inside a subagent, `agent_id` in the event, whose log has used more tokens than its type's
budget, or whose log cannot be read, is denied with `permissionDecision: deny` and a reason
naming the budget; no budget set, nothing is read); and the cold-cache notice a resumed
session's SessionStart gives the person (`cold_cache_notice`). The agent's tokens are counted
the status line's way (`usage.filecount.count_file`, loaded only when a budget is set, for a
subagent's call), from where the last count stopped, with the most it was ever counted at,
which a shortened or deleted log cannot lower (`agents.json` in the session's budget folder,
`state.budgets.budget_dir`, outside the scratch dir an agent's environment names).
`run.py` starts these three hooks here (`main`), without the other hooks' handlers: PreToolUse
runs before every tool call, and a subagent's start and stop need only its live record.
"""

from __future__ import annotations

import os

from session_kit.base import fastjson
from session_kit.hooks.hookio import HookEvent, project_path_in, run, session_id_in
from session_kit.state import root as state

# The rest of the state package is loaded by the functions that use it: PreToolUse runs before
# every tool call, and on the main thread (or with no budget set) it needs none of it.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

COUNT_FILE = "agents.json"  # in the session's budget folder (`state.budgets.budget_dir`)
MAX_COUNT_BYTES = 64 << 20
WAIT_STEPS, WAIT_STEP_S = 20, 0.025  # at most half a second for a log not written yet


def _scratch(event: HookEvent, env: Mapping[str, str], root: str) -> tuple[str, str]:
    """`(session id, path)` of the event's session's scratch dir, made to exist (as
    `SessionScratch.for_session(...).create()`, without loading the work state's module)."""
    from session_kit.state.current import project_key_for

    session_id = session_id_in(event, env)
    _key, path = state.scratch_location(root, session_id, project_key_for(project_path_in(event, env)))
    return session_id, state.ensure_dir(path, root=root)


def subagent_start(event: HookEvent, env: Mapping[str, str], root: str) -> str:
    from session_kit.state import live_agents

    if event.agent_id:
        _sid, path = _scratch(event, env, root)
        live_agents.record_start(path, event.agent_id, agent_type=event.agent_type)
    return ""


def subagent_stop(event: HookEvent, env: Mapping[str, str], root: str) -> str:
    from session_kit.state import live_agents

    if event.agent_id:
        _sid, path = _scratch(event, env, root)
        live_agents.record_stop(
            path,
            event.agent_id,
            agent_type=event.agent_type,
            log=event.agent_transcript_path,
            last_message=event.last_assistant_message,
        )
    return ""


def agent_tokens(folder: str, log: str, agent_id: str) -> int:
    """The most tokens the agent's log has been counted at (each API message once, its last
    line's usage), brought up to date from where the last count stopped: a log shortened or
    deleted since never lowers it. Kept in the session's budget folder, outside every scratch
    dir (`state.budgets.budget_dir`)."""
    from session_kit.base import fileio
    from session_kit.usage.filecount import count_file, record_tokens
    from session_kit.usage.spend import KEEP

    path = os.path.join(folder, COUNT_FILE)
    with state.locked(path):
        try:
            counts = fileio.read_json(path, MAX_COUNT_BYTES)
        except (OSError, ValueError):
            counts = {}
        counts = counts if isinstance(counts, dict) else {}
        before = counts.get(agent_id)
        before = before if isinstance(before, dict) else {}
        seen = before.get("record") if isinstance(before.get("record"), dict) else {}
        high = before.get("high") if type(before.get("high")) is int else 0
        was = seen.get("checkpoint")  # `count_file` brings a record up to date in place
        try:
            record = count_file(log, seen, main=False, keep=KEEP)
        except (TypeError, ValueError, KeyError, AttributeError):  # a damaged record: count again
            record = count_file(log, {}, main=False, keep=KEEP)
        tokens = max(high, record_tokens(record))
        if record is not seen or record.get("checkpoint") != was or tokens != high:
            counts[agent_id] = {"record": record, "high": tokens}
            fileio.write_json(path, counts, sync=False)
    return tokens


CALL_LINE_WAIT_S = 0.2  # two of the client's 100 ms writes


def _wait_for_log(log: str) -> None:
    """Wait a moment for an agent's log that is not written yet: the client may run a
    subagent's first PreToolUse before it has written the log (seen with 2.1.328); a log that
    is there is counted as it is, without waiting."""
    import time

    for _ in range(WAIT_STEPS):
        if os.path.lexists(log):
            return
        time.sleep(WAIT_STEP_S)


def _deny(reason: str) -> str:
    specific = {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": reason}
    return fastjson.dumps({"hookSpecificOutput": specific}) + "\n"


def pre_tool_use(event: HookEvent, env: Mapping[str, str], root: str) -> str:
    """The session's budget (every call), then the budget per subagent (a subagent's call)."""
    from session_kit.hooks import budget

    verdict = budget.check(event, env, root)
    if verdict.over is None and event.agent_id is not None:
        denied = _agent_over(event, env, root)
        if denied:
            return denied
    return budget.tool_answer(verdict)


def _agent_over(event: HookEvent, env: Mapping[str, str], root: str) -> str | None:
    from session_kit.state import budgets

    agent_id = event.agent_id
    if agent_id is None or not budgets.agent_budget_may_be_set(root, env):
        return None
    from session_kit.state import live_agents

    agent_type = event.agent_type
    budget = budgets.agent_budget(root, env, agent_type, warn=lambda problem: budgets.warn_once(root, problem))
    transcript = event.transcript_path
    if budget is None or transcript is None:
        return None
    session_id, scratch_path = _scratch(event, env, root)
    log = live_agents.find_agent_log(transcript, session_id, agent_id)
    if log is None:  # not written yet: where the client will write it
        log = live_agents.agent_log_path(transcript, session_id, agent_id)
        _wait_for_log(log)
    elif event.tool_use_id:
        # The client writes its logs every 100 ms, often after this hook started: the message
        # asking for this call (with its usage) is waited for a little, as the session's budget
        # waits for it (`budget.wait_for_call`), never the whole of a fixed pause.
        from session_kit.hooks.budget import wait_for_call

        wait_for_call(log, event.tool_use_id, wait_s=CALL_LINE_WAIT_S)
    from session_kit.usage.spend import readable

    where = "SESSION_KIT_AGENT_BUDGET or the kit's config, agents.budget"
    if not readable(log):  # a budget that cannot be counted is a budget spent
        live_agents.record_denied(scratch_path, agent_id, agent_type=agent_type, budget=budget, tokens=budget + 1)
        return _deny(
            f"session-kit: this subagent's log cannot be read, so its budget of {budget:,} tokens ({where}) "
            "counts as spent. Make no more tool calls: stop now and report what you have found so far."
        )
    tokens = agent_tokens(budgets.budget_dir(root, session_id), log, agent_id)
    if tokens <= budget:
        return None
    live_agents.record_denied(scratch_path, agent_id, agent_type=agent_type, budget=budget, tokens=tokens)
    return _deny(
        f"session-kit: this subagent has used {tokens:,} tokens, past its budget of {budget:,} tokens "
        f"({where}). Make no more tool calls: stop now and report what you have found so far."
    )


def cold_cache_notice(event: HookEvent) -> str | None:
    """What a resumed session's first turn will cost to write the prompt cache again, when
    the client says the cache has likely expired (its own estimate), for the person only."""
    if not event.cache_expired:
        return None
    usd = event.cache_write_usd
    seconds = event.idle_seconds
    idle = ""
    if seconds is not None and seconds >= 60:
        minutes = int(seconds // 60)
        idle = f" after {minutes // 60}h {minutes % 60}m idle" if minutes >= 60 else f" after {minutes}m idle"
    tokens = event.context_tokens
    size = f" ({tokens:,} tokens)" if tokens is not None and tokens > 0 else ""
    if usd is not None:
        cost = f"about ${usd:,.2f}" if usd >= 0.01 else f"about ${usd:.4f}"
        return f"session-kit: the prompt cache is cold{idle}; the next turn re-writes it{size}: {cost} (the client's estimate)."
    return f"session-kit: the prompt cache is cold{idle}; the next turn re-writes it{size}."


# By the hook's argument (`base.hook_events.HOOK_EVENTS`): the hooks `run.py` starts here.
HOOKS = {"subagent-start": subagent_start, "subagent-stop": subagent_stop, "pre-tool-use": pre_tool_use}


def main(argv: list[str], *, stdin: object = None, env: Mapping[str, str] | None = None) -> int:
    """Run the hook `argv[0]` (one of `HOOKS`; PreToolUse without one); always returns 0
    (`hookio.run`)."""
    return run(argv[0] if argv else "pre-tool-use", HOOKS, stdin=stdin, env=env)
