"""The restored block holds what matters after an automatic compaction mid-turn, in the real
client, however much the person pasted.

One session. Its first run goes over `--input-format stream-json --permission-prompt-tool
stdio` (default permission mode), so the test answers each permission request as a person
would: an older request with a decision and a constraint ("go with a token bucket, not a
sliding window"; "must stay under 50 ms") and four tasks (TaskCreate, one in progress); then a
request with a long pasted log, a failed Skill fixed by the command it stands for, a subagent
whose answer names two failing tests, and a call the person declines. A second run resumes it
with a low automatic-compaction threshold, so the client compacts in the middle of its turn.
The first main request after that compaction must hold the paste as a few lines with its size,
all four tasks, the decision with its constraint, the declined call as a decision, both failing
tests open and no open failure for the Skill.
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
from .fake_api import Script, agent, bash, text, tool_use
from .routes import Route, plugin_route

DECISION = "Go with a token bucket, not a sliding window."
CONSTRAINT = "The limiter must stay under 50 ms per request."
START = f"BUDGET-START: add rate limiting to the gateway (ticket RL-12). {DECISION} {CONSTRAINT}"
TASKS = [
    "BUDGET-TASK-1: write the token bucket limiter, one bucket per API key, its rate read from the settings",
    "BUDGET-TASK-2: wire the limiter into the middleware and answer 429 with a Retry-After header",
    "BUDGET-TASK-3: add load tests at 2,000 requests per second and record the p99 of the check",
    "BUDGET-TASK-4: document the limiter's settings and its failure modes in the operations guide",
]
LOG = "\n".join(
    f"2026-11-30T10:{n // 60:02d}:{n % 60:02d}Z BUDGET-LOG gateway worker-{n % 8} GET /v1/orders 200 {40 + n % 13} ms"
    for n in range(310)
)
PASTE = f"BUDGET-PASTE: here is the load test log:\n{LOG}\nWhat does it say about the p99?"
DECLINED = "rm -rf build/ dist/"
AGENT_ANSWER = (
    "pytest failed: 2 tests failed in tests/test_limits.py\n"
    "FAILED tests/test_limits.py::test_refill_rate - AssertionError: refilled too early\n"
    "FAILED tests/test_limits.py::test_burst_capacity - AssertionError: 11 requests let through, expected 10"
)
GO = "BUDGET-GO: carry on"
FIRST = "BUDGET-FIRST: look at how the gateway limits requests today"
# What the client writes when a person rejects a call at its prompt (2.1.328). In a `-p` run the
# host answers the prompt (`--permission-prompt-tool stdio`) and the client writes the host's
# message as the call's result (the entry marked `toolDenialKind: permission-rule`): no headless
# run makes the client word a rejection itself, so the host answers with the client's own words.
REJECTED = (
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit,"
    " the new_string was NOT written to the file)."
)
ENV = {"CLAUDE_CODE_ENABLE_TODO_TOOLS": "1"}


def script() -> Script:
    steps = {
        "BUDGET-START": iter(
            [
                [tool_use("TaskCreate", {"subject": s, "description": s, "activeForm": "Working"}) for s in TASKS],
                [tool_use("TaskUpdate", {"taskId": "1", "status": "in_progress"})],
                [text("The tasks are set.")],
            ]
        ),
        "BUDGET-PASTE": iter(
            [
                [tool_use("Skill", {"skill": "commit"})],
                [bash("git commit --allow-empty -m 'Add the limiter'", description="Commit the limiter")],
                [
                    agent(
                        "general-purpose",
                        "BUDGET-AGENT: run the limiter tests",
                        description="Run the limiter tests",
                        background=False,
                    )
                ],
                [bash(DECLINED, description="Clear the build folders")],
                [text("Understood, I will keep them.")],
            ]
        ),
        "BUDGET-FIRST": iter([[text("It has no limiter.")]]),
        # each step's output is long: the context crosses the threshold in the middle of the turn
        "BUDGET-GO": iter([[bash(f"echo BUDGET-STEP-{n}; seq 1 2000", description="A step")] for n in range(12)]),
    }

    def decide(exchange):
        if exchange.conversation != "main":
            return None
        last = exchange.last_human_text or ""
        for key, turns in steps.items():
            if key in last:
                return next(turns, [text("BUDGET-DONE")])
        return None

    return Script(decide=decide, agents={"BUDGET-AGENT": [AGENT_ANSWER]}, compact_summary="Summary: work happened.")


def run_asking(route: Route, prompts: list[str], timeout: float = 300) -> tuple[str, list[dict]]:
    """One run over stream-json, each prompt sent once the previous one's result came; every
    permission the client asks is allowed except the call a person declines (`DECLINED`).
    Returns the session id and the `can_use_tool` requests."""
    claude = route.claude
    command = [str(claude.binary), "-p", "--input-format", "stream-json", "--output-format", "stream-json"]
    command += ["--verbose", "--permission-prompt-tool", "stdio"]
    for plugin in route.plugin_dirs:
        command += ["--plugin-dir", str(plugin)]
    process = subprocess.Popen(
        command,
        cwd=route.project,
        env=client_env(claude.home, claude.fake.base_url, ENV),
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
    waiting = list(prompts)

    def send(event: dict) -> None:
        process.stdin.write(json.dumps(event) + "\n")
        process.stdin.flush()

    def prompt(text_: str) -> None:
        send({"type": "user", "message": {"role": "user", "content": text_}, "parent_tool_use_id": None})

    try:
        prompt(waiting.pop(0))
        for line in process.stdout:
            lines.append(line)
            try:
                event = json.loads(line)
            except ValueError:
                continue
            session_id = event.get("session_id") or session_id
            if event.get("type") == "control_request" and event["request"].get("subtype") == "can_use_tool":
                request = event["request"]
                asked.append(request)
                if DECLINED in json.dumps(request.get("input", {})):
                    answer = {"behavior": "deny", "message": REJECTED}
                else:
                    answer = {"behavior": "allow", "updatedInput": request.get("input", {})}
                send(
                    {
                        "type": "control_response",
                        "response": {"subtype": "success", "request_id": event["request_id"], "response": answer},
                    }
                )
            elif event.get("type") == "result":
                if not waiting:
                    process.stdin.close()
                    break
                prompt(waiting.pop(0))
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
def compacted(claude_binary: Path, tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("memory-budget")
    with plugin_route(claude_binary, tmp, script()) as route:
        for args in (["init", "-q"], ["config", "user.name", "Budget Test"], ["config", "user.email", "b@example.com"]):
            subprocess.run(["git", *args], cwd=route.project, check=True)
        sid, asked = run_asking(route, [FIRST, START, PASTE])
        route.session_id = sid
        # a threshold a little over the session's size (about 21,700 tokens as the fake counts, of a
        # window of about a million): the client compacts in this turn once its steps crossed it
        route.run(GO, resume=sid, env={**ENV, "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": "2.6"}, check=False)
        exchanges = route.fake.message_requests()
        compactions = [i for i, e in enumerate(exchanges) if e.conversation == "compact"]
        assert compactions, route.fake.log_tail()
        later = [e for e in exchanges[compactions[0] :] if e.conversation == "main"]
        assert later, route.fake.log_tail()
        yield route, asked, later[0].text()


def section(block: str, heading: str) -> str:
    return block.split(heading, 1)[1].split("\n\n", 1)[0] if heading in block else ""


def test_the_person_declined_one_call_and_the_transcript_says_so(compacted):
    route, asked, _ = compacted
    assert any(DECLINED in json.dumps(r.get("input", {})) for r in asked)
    transcript = next(route.claude.home.config_dir.glob(f"projects/*/{route.session_id}.jsonl")).read_text()
    assert "doesn't want to proceed" in transcript


def test_the_compaction_came_in_the_middle_of_a_turn(compacted):
    route, _, after = compacted
    assert "working memory" in after, route.fake.log_tail()
    doing = section(after, "What the session was doing at the compaction:")
    assert "BUDGET-STEP-" in doing  # a step of the turn the compaction interrupted


def test_the_paste_is_a_few_lines_with_its_size(compacted):
    _, _, after = compacted
    size = len(LOG.encode()) / 1024
    assert f"[pasted {size:.1f} KB, 310 lines: first lines …]" in after
    assert "What does it say about the p99?" in after
    assert after.count("BUDGET-LOG gateway worker-") <= 3


def test_all_four_tasks_come_back_with_their_status(compacted):
    _, _, after = compacted
    tasks = section(after, "Task list (")
    assert f"[in_progress] {TASKS[0]}" in tasks
    for subject in TASKS[1:]:
        assert f"[pending] {subject}" in tasks


def test_the_decision_comes_back_with_its_constraint(compacted):
    _, _, after = compacted
    block = after.split("working memory, kept", 1)[1]
    assert f"{DECISION} {CONSTRAINT}" in " ".join(block.split())


def test_the_declined_call_is_a_decision_not_a_failure(compacted):
    _, _, after = compacted
    assert f"- declined: Bash: {DECLINED}" in section(after, "Declined by the person")
    assert DECLINED not in section(after, "Failed and not fixed since")


def test_both_failing_tests_are_open_and_the_skill_fixed_by_its_command_is_not(compacted):
    _, _, after = compacted
    failures = section(after, "Failed and not fixed since")
    assert "test_refill_rate" in failures and "test_burst_capacity" in failures
    assert "Skill" not in failures
