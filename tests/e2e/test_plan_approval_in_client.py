"""An approved plan survives `/compact` in the real client.

`-p` refuses ExitPlanMode, so the first turn is driven the way an SDK host drives the client:
`--input-format stream-json --output-format stream-json --permission-prompt-tool stdio`, in
plan mode. The model (the fake's script) calls ExitPlanMode with a plan; the client asks on
stdout with a `control_request` of subtype `can_use_tool`; the test answers on stdin with a
`control_response` that allows it; the model goes on. Then `/compact` (its summary keeps no
plan) and a follow-up: the first request after the compaction must carry the plan, approved,
in the kit's working memory, and the transcript must record the approval.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
from pathlib import Path

import pytest

from .client import client_env
from .fake_api import Script, exit_plan_mode, text
from .routes import Route, plugin_route
from .transcript import read_entries, result_text, tool_results, tool_uses

START = "APPROVE-START: plan the parser work, then carry it out"
AFTER = "APPROVE-AFTER: continue"
PLAN = "APPROVE-PLAN\n1. Add the parser\n2. Test it"
GOING_ON = "APPROVE-GOING-ON: the plan is approved, starting step 1."


def script() -> Script:
    return Script(
        main={
            "APPROVE-START": [[text("Here is the plan."), exit_plan_mode(PLAN)], GOING_ON],
            "APPROVE-AFTER": ["Continuing."],
        },
        compact_summary="Summary: some planning happened.",
    )


def run_approving(route: Route, prompt: str, timeout: float = 300) -> tuple[str, list[dict]]:
    """One turn over stream-json in plan mode, allowing every tool the client asks about.

    Returns the session id and the `can_use_tool` requests the client sent."""
    claude = route.claude
    command = [str(claude.binary), "-p", "--input-format", "stream-json", "--output-format", "stream-json"]
    command += ["--verbose", "--permission-prompt-tool", "stdio", "--permission-mode", "plan"]
    for plugin in route.plugin_dirs:
        command += ["--plugin-dir", str(plugin)]
    process = subprocess.Popen(
        command,
        cwd=route.project,
        env=client_env(claude.home, claude.fake.base_url),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    timer = threading.Timer(timeout, lambda: os.killpg(process.pid, signal.SIGKILL))
    timer.start()
    asked: list[dict] = []
    lines: list[str] = []
    session_id = ""
    try:
        user = {"type": "user", "message": {"role": "user", "content": prompt}, "parent_tool_use_id": None}
        process.stdin.write(json.dumps(user) + "\n")
        process.stdin.flush()
        for line in process.stdout:
            lines.append(line)
            try:
                event = json.loads(line)
            except ValueError:
                continue
            session_id = event.get("session_id") or session_id
            if event.get("type") == "control_request" and event["request"].get("subtype") == "can_use_tool":
                asked.append(event["request"])
                allow = {"behavior": "allow", "updatedInput": event["request"].get("input", {})}
                answer = {"subtype": "success", "request_id": event["request_id"], "response": allow}
                process.stdin.write(json.dumps({"type": "control_response", "response": answer}) + "\n")
                process.stdin.flush()
            elif event.get("type") == "result":
                process.stdin.close()
                break
        process.wait(timeout=60)
    finally:
        timer.cancel()
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    stderr = process.stderr.read()
    assert session_id and process.returncode == 0, (
        f"exit {process.returncode}\n{stderr[-2000:]}\n{''.join(lines)[-3000:]}\n{claude.fake.log_tail()}"
    )
    return session_id, asked


@pytest.fixture(scope="module")
def approved(claude_binary: Path, tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("plan-approved")
    with plugin_route(claude_binary, tmp, script()) as route:
        sid, asked = run_approving(route, START)
        route.session_id = sid
        route.run("/compact", resume=sid)
        route.run(AFTER, resume=sid)
        after = [r for r in route.fake.main_requests() if AFTER in r.last_human_text]
        assert after, route.fake.log_tail()
        yield route, asked, after[0].text()


def restored_block(request_text: str) -> str:
    """The kit's quoted working memory in a request (empty when there is none)."""
    marker = "working memory, kept from before the context was compacted"
    if marker not in request_text:
        return ""
    after = request_text.split(marker, 1)[1]
    return after.split("<session-kit-quote", 1)[1].split("</session-kit-quote", 1)[0]


def test_the_client_asks_the_host_and_the_transcript_records_the_approval(approved):
    route, asked, _ = approved
    assert [a["tool_name"] for a in asked] == ["ExitPlanMode"]
    entries = read_entries(route.claude.transcript_path(route.session_id))
    calls = [block for _, block in tool_uses(entries, "ExitPlanMode")]
    assert [c["id"] for c in calls] == [asked[0]["tool_use_id"]]
    assert calls[0]["input"].get("plan") == PLAN
    entry, result = tool_results(entries)[calls[0]["id"]]
    assert not result.get("is_error") and "User has approved" in result_text(result)
    assert entry["toolUseResult"].get("filePath")  # the plan-mode file the approval names
    # the model was told, and went on
    told = [r for r in route.fake.main_requests() if "User has approved" in r.text()]
    assert told and GOING_ON in json.dumps([e for e in entries if e.get("type") == "assistant"])


def test_after_compact_the_first_request_carries_the_approved_plan(approved):
    route, _, after = approved
    summaries = [e for e in route.fake.exchanges if e.conversation == "compact"]
    assert summaries and all("APPROVE-PLAN" not in json.dumps(e.reply) for e in summaries)
    memory = restored_block(after)
    assert memory, route.fake.log_tail()
    plan = memory.split("The plan:", 1)[1].split("\n\n", 1)[0] if "The plan:" in memory else ""
    assert "- the plan (approved" in plan, memory
    assert all(f"    {line}" in plan.splitlines() for line in PLAN.splitlines()), memory
    assert "Plan mode is on" not in memory  # approving the plan left plan mode
    assert START in memory
