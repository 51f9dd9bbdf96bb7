"""A budget per session in the real client (issue 42), the kit given with `--plugin-dir`: the
fake API reports usage (a request's body/4 input tokens) until the session passes its budget;
past 80% the person gets one `systemMessage`; past 100% the next tool call is denied with a
reason naming the budget and how to raise it, and the next prompt is blocked with the same
reason, never reaching the model; `session-kit budget --raise` lets the session go on.

The budget is set from what the first prompt spent (`session-kit budget --json`), so it holds
whatever the client's system prompt weighs: the first prompt's spend is 90% of it, so the
second prompt is let through with the 80% notice, and its first request (which carries the
whole conversation again) passes the budget before its tool call runs.

The client queues its transcript writes and flushes them every 100 ms: the PreToolUse of that
first call often fires before the message asking for it is in the file (seen in 2 of 12 runs
as the call running). The kit's hook waits for the call's own message; the model is scripted
to ask again after the denial, and that second call's PreToolUse comes after a whole tool
round, when the message that passed the budget is surely written: each is checked alone."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .fake_api import Script, bash
from .routes import Route, plugin_route

HOOK_EVENTS = ["--output-format", "stream-json", "--verbose", "--include-hook-events"]


def kit(route: Route, *args: str, env: dict | None = None) -> subprocess.CompletedProcess[str]:
    environment = {**route.home.env(), "PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin", **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "session_kit", *args], capture_output=True, text=True, env=environment, timeout=60
    )


def hook_outputs(run, event: str) -> list[dict]:
    """What the kit's hooks of `event` answered, from `--include-hook-events`."""
    found = []
    for line in run.stdout.splitlines():
        if '"hook_response"' not in line or f'"{event}"' not in line:
            continue
        output = json.loads(line).get("output") or ""
        for part in output.splitlines():
            if part.strip().startswith("{"):
                found.append(json.loads(part))
    return found


@pytest.fixture(scope="module")
def capped(claude_binary: Path, tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("budget")
    script = Script(
        main={
            "CAP-WARM": ["Warm."],
            "CAP-RUN": [[bash("echo $((6*7))-CAP-ONE")], [bash("echo $((6*7))-CAP-TWO")], "Stopped as told."],
            "CAP-BLOCKED": ["NEVER-ASKED"],
            "CAP-AGAIN": [[bash("echo $((6*7))-CAP-FOUR")], "Done."],
        }
    )
    with plugin_route(claude_binary, tmp, script) as route:
        first = route.run("CAP-WARM: get ready")
        sid = first.session_id
        warm = json.loads(kit(route, "budget", sid, "--json").stdout)
        budget = str(int(warm["spent_tokens"] / 0.9))
        env = {"SESSION_KIT_SESSION_BUDGET": budget}
        ran = route.run("CAP-RUN: run the three steps", resume=sid, env=env, args=HOOK_EVENTS)
        blocked = route.run("CAP-BLOCKED: one more thing", resume=sid, env=env, args=HOOK_EVENTS, check=False)
        raised = kit(route, "budget", sid, "--raise", "1m", env=env)
        again = route.run("CAP-AGAIN: go on", resume=sid, env=env, args=HOOK_EVENTS)
        yield route, {"sid": sid, "budget": int(budget), "ran": ran, "blocked": blocked, "raised": raised}, again


def result_of(fake, command: str) -> str | None:
    """What the next request carries as the result of the call whose command holds `command`."""
    for exchange in fake.main_requests():
        messages = (exchange.body or {}).get("messages") or []
        blocks = [b for m in messages if isinstance(m.get("content"), list) for b in m["content"]]
        calls = {
            b.get("id")
            for b in blocks
            if b.get("type") == "tool_use" and command in str((b.get("input") or {}).get("command"))
        }
        for block in blocks:
            if block.get("type") == "tool_result" and block.get("tool_use_id") in calls:
                content = block.get("content")
                if isinstance(content, list):
                    content = " ".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
                return str(content)
    return None


def assert_denied_with_the_reason(route, runs, command: str) -> None:
    fake = route.fake
    assert fake.requests_containing(f"echo $((6*7))-{command}"), fake.log_tail()  # the model asked
    assert not fake.requests_containing(f"42-{command}"), fake.log_tail()  # denied, never ran
    reason = result_of(fake, command)  # the denial reaches the model in the next request
    assert reason and "its budget of" in reason, fake.log_tail()
    assert f"session-kit budget --session {runs['sid']} --raise 500k" in reason
    assert "SESSION_KIT_SESSION_BUDGET" in reason and "Make no more tool calls" in reason


def test_past_the_budget_the_next_tool_call_is_denied_with_the_reason(capped):
    """The call after a whole tool round: the message that passed the budget is in the file."""
    route, runs, _again = capped
    assert_denied_with_the_reason(route, runs, "CAP-TWO")


def test_the_call_whose_own_message_passes_the_budget_is_denied_too(capped):
    """Its PreToolUse may fire before the client has written that message: the hook waits."""
    route, runs, _again = capped
    assert_denied_with_the_reason(route, runs, "CAP-ONE")


def test_past_80_percent_the_person_is_told_once(capped):
    _route, runs, _again = capped
    answers = hook_outputs(runs["ran"], "PreToolUse") + hook_outputs(runs["ran"], "UserPromptSubmit")
    notices = [a["systemMessage"] for a in answers if "systemMessage" in a]
    assert len(notices) == 1 and "90% of its budget of" in notices[0], runs["ran"].stdout[-3000:]


def test_past_the_budget_the_next_prompt_is_blocked_with_the_reason_and_never_reaches_the_model(capped):
    route, runs, _again = capped
    assert not route.fake.requests_containing("CAP-BLOCKED"), route.fake.log_tail()
    blocks = [a for a in hook_outputs(runs["blocked"], "UserPromptSubmit") if a.get("decision") == "block"]
    assert blocks, runs["blocked"].stdout[-3000:] + runs["blocked"].stderr[-2000:]
    assert "its budget of" in blocks[0]["reason"] and "--raise" in blocks[0]["reason"]


def test_raising_the_budget_lets_the_session_go_on(capped):
    route, runs, again = capped
    assert runs["raised"].returncode == 0, runs["raised"].stderr
    assert "raised by 1M tokens for this session" in runs["raised"].stdout
    assert route.fake.requests_containing("NEVER-ASKED") == []
    assert route.fake.requests_containing("42-CAP-FOUR"), route.fake.log_tail()
    assert not [a for a in hook_outputs(again, "UserPromptSubmit") if a.get("decision") == "block"]
