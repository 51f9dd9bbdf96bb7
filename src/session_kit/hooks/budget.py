"""The budget per session, before each prompt and each tool call. Standard library only (plus
`state` and `usage.spend`, loaded only when a budget is set).

Owns: what UserPromptSubmit and PreToolUse answer for the session's budget (`check`): under
80% nothing; past 80% one `systemMessage` to the person (once per budget: a raised budget
warns again); at 100% a new prompt is blocked (`decision: block`) and every tool call of the
main thread and of its subagents is denied (`permissionDecision: deny`), each with one reason
naming the budget and how to raise it. Nothing already running is stopped. Spend is
`usage.spend`'s, the budget `state.budgets`'; a transcript the hook cannot read lets
everything go on, with one warning. A tool call is counted with the message that asked for it:
the client queues its transcript writes and flushes them every 100 ms (`FLUSH_INTERVAL_MS` in
2.1.328), so PreToolUse often fires before that message is in the file; the check waits for
the call's id in the transcript (a subagent's call: its log), at most `CALL_WAIT_S`
(`wait_for_call`). Does not count (`usage.spend`) or set the budget (`session-kit budget`).
"""

from __future__ import annotations

import os

from session_kit.base import fastjson
from session_kit.state import root as state

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from session_kit.hooks.hookio import HookEvent

NOTICE_FILE = "notice.json"  # in the session's budget folder: the budget the 80% notice was given for
SLASH = ("/budget", "/session-kit:budget")  # the person asking where the budget stands is never blocked
# Measured with 2.1.328 (30 runs, 2 cores shared): the call's line came 0-90 ms after its
# PreToolUse fired. Ten flush intervals; a call that never shows up costs this once.
CALL_WAIT_S, CALL_WAIT_STEP_S = 1.0, 0.01
TAIL_BYTES = 1 << 20  # of the file, where the newest call's line is looked for


class Verdict:
    """`over`: the reason to block or deny with; `notice`: the one message past 80%."""

    __slots__ = ("over", "notice")

    def __init__(self, over: str | None = None, notice: str | None = None) -> None:
        self.over = over
        self.notice = notice


def check(event: HookEvent, env: Mapping[str, str], root: str) -> Verdict:
    """The session's budget against what it spent, for the event's session."""
    from session_kit.hooks.start import session_budget_may_be_set

    if not session_budget_may_be_set(env, root):
        return Verdict()
    from session_kit.hooks import quick
    from session_kit.hooks.hookio import session_id_in
    from session_kit.state import budgets

    def warn(problem: str) -> None:
        budgets.warn_once(root, problem)

    session_id = session_id_in(event, env)
    sources = quick.sources(root, session_id, env)  # before they are read: a change after is seen
    cap, _base = budgets.session_cap(root, env, session_id, warn=warn)
    transcript = event.transcript_path
    if cap is None or transcript is None:
        if transcript is not None:
            quick.write_summary(
                budgets.budget_dir(root, session_id), transcript=transcript, sources_then=sources, cap=None
            )
        return Verdict()
    from session_kit.base.budget import USD, human
    from session_kit.usage.spend import log_folders, readable, spend

    folder = budgets.budget_dir(root, session_id)
    if event.tool_use_id:
        calls = _calls_file(event, transcript, session_id)
        if readable(calls):  # a file that cannot be read is never waited on
            wait_for_call(calls, event.tool_use_id)
    listed = log_folders(transcript, session_id)  # before the count: a log added meanwhile is seen
    spent = spend(folder, transcript, session_id, state_root=root, price=cap.unit == USD)
    if spent.unreadable:
        warn(f"budget: cannot read the transcript {transcript}; the session's budget is not enforced for it")
        return Verdict()
    quick.write_summary(
        folder,
        transcript=transcript,
        sources_then=sources,
        cap=cap,
        spent=spent,
        folders_then=listed,
        warn_at=budgets.WARN_AT,
    )
    amount = (spent.usd or 0.0) if cap.unit == USD else spent.tokens
    where = "SESSION_KIT_SESSION_BUDGET or session.budget in the kit's config"
    if amount >= cap.amount:
        return Verdict(
            over=(
                f"session-kit: this session has spent {human(amount, cap.unit)}, its budget of "
                f"{human(cap.amount, cap.unit)} ({where}). To go on, the person runs "
                f"`session-kit budget --session {session_id} --raise {'$2' if cap.unit == USD else '500k'}` "
                "(or `--off`) in a shell; until then new prompts and tool calls are refused."
            )
        )
    if amount >= cap.amount * budgets.WARN_AT and _first_notice(folder, cap):
        share = int(amount * 100 // cap.amount)
        return Verdict(
            notice=(
                f"session-kit: this session has spent {human(amount, cap.unit)}, {share}% of its budget of "
                f"{human(cap.amount, cap.unit)}; at 100% new prompts and tool calls are refused "
                "(`session-kit budget --raise` to raise it)."
            )
        )
    return Verdict()


def _calls_file(event: HookEvent, transcript: str, session_id: str) -> str:
    """Where the event's tool call is written: the transcript, or the subagent's log."""
    if event.agent_id is None:
        return transcript
    from session_kit.state import live_agents

    found = live_agents.find_agent_log(transcript, session_id, event.agent_id)
    return found or live_agents.agent_log_path(transcript, session_id, event.agent_id)


def wait_for_call(path: str, tool_use_id: str, *, wait_s: float = CALL_WAIT_S) -> bool:
    """Wait until `path` holds the whole line of tool call `tool_use_id` (the message that
    asked for it, with its usage); False when it is not there after `wait_s`, and it is counted
    as it stands."""
    import time

    needle = b'"' + tool_use_id.encode("utf-8", "replace") + b'"'
    end = time.monotonic() + wait_s
    start = None
    while True:
        try:
            with open(path, "rb") as f:
                size = os.fstat(f.fileno()).st_size
                start = max(0, size - TAIL_BYTES) if start is None else start
                f.seek(start)
                data = f.read(size - start)
        except OSError:
            data = b""
        at = data.find(needle)
        if at >= 0 and data.find(b"\n", at) >= 0:
            return True
        if time.monotonic() >= end:
            return False
        time.sleep(CALL_WAIT_STEP_S)


def _first_notice(folder: str, cap: object) -> bool:
    """True once per budget amount: the 80% notice is given once (again after a raise)."""
    from session_kit.base import fileio

    path = os.path.join(folder, NOTICE_FILE)
    with state.locked(path):
        try:
            given = fileio.read_json(path, 4096)
        except (OSError, ValueError):
            given = None
        key = [cap.amount, cap.unit]
        if given == key:
            return False
        fileio.write_json(path, key, sync=False)
    return True


def prompt_answer(event: HookEvent, env: Mapping[str, str], root: str, prompt: str | None) -> dict:
    """UserPromptSubmit's part: `{"decision": "block", "reason"}` past the budget (not for the
    `/budget` command), `{"systemMessage"}` at the 80% notice, else nothing."""
    verdict = check(event, env, root)
    if verdict.over:
        if prompt is not None and prompt.lstrip().startswith(SLASH):
            return {}
        return {"decision": "block", "reason": verdict.over}
    return {"systemMessage": verdict.notice} if verdict.notice else {}


def tool_answer(verdict: Verdict) -> str:
    if verdict.over:
        reason = verdict.over + " Make no more tool calls: stop now and tell the person where the work stands."
        specific = {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": reason}
        return fastjson.dumps({"hookSpecificOutput": specific}) + "\n"
    if verdict.notice:
        return fastjson.dumps({"systemMessage": verdict.notice}) + "\n"
    return ""
