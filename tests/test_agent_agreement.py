"""Memory, `debug-agent`, `show` and the view's model say the same of every agent: its status,
tool calls, answer and duration, for every way an agent runs and ends (a log present, a log gone,
background agents ended by a notification or by a TaskOutput poll, one still running), and none
of them lists what is not an agent (a call refused by input validation, a warmup log, the
client's compaction summariser's log)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from session_kit.memory import record
from session_kit.memory.capture import capture_file
from session_kit.sessions.store import find_session_by_id
from session_kit.view.build import ViewOptions, build_page
from session_kit.view.model import MAIN
from tests.support.cli import invoke_json
from tests.support.transcripts import Transcript

ANSWER = "The parser drops the last token."
USAGE = {"input_tokens": 40, "output_tokens": 9}


@dataclass(frozen=True)
class Expected:
    status: str
    calls: int | None
    answer: str | None
    duration_s: float | None


def _spawn(t: Transcript, description: str, **extra_input) -> str:
    return t.tool_use(
        "Agent",
        {"subagent_type": "Explore", "description": description, "prompt": f"{description}, please", **extra_input},
    )


def _agent_log(t: Transcript, root: Path, agent_id: str, description: str, *, calls: int, answer: str) -> None:
    a = Transcript(t.session_id, agent_id=agent_id, start=t.clock)
    a.user(f"{description}, please")
    for n in range(calls):
        a.bash(f"grep -n token src/parser{n}.py", "12: token")
    a.say(answer)
    a.write_subagent(root, t, meta={"agentType": "Explore", "description": description})


def log_present(t: Transcript, root: Path) -> Expected:
    call = _spawn(t, "Find the bug")
    _agent_log(t, root, "a10g", "Find the bug", calls=2, answer=ANSWER)
    t.tick(30)
    extra = {"status": "completed", "agentId": "a10g", "totalToolUseCount": 2, "totalDurationMs": 31000}
    t.tool_result(call, [{"type": "text", "text": ANSWER}], extra={**extra, "usage": USAGE})
    return Expected("finished", 2, ANSWER, 31.0)


def log_gone_with_result(t: Transcript, root: Path) -> Expected:
    call = _spawn(t, "Find the bug")
    t.tick(40)
    extra = {"status": "completed", "agentId": "g0ne", "totalToolUseCount": 7, "totalDurationMs": 42500}
    t.tool_result(call, [{"type": "text", "text": ANSWER}], extra={**extra, "usage": USAGE})
    return Expected("finished", 7, ANSWER, 42.5)


def _launch(t: Transcript, agent_id: str) -> str:
    call = _spawn(t, "Run the suite", run_in_background=True)
    t.tool_result(
        call,
        f"Async agent launched successfully.\nagentId: {agent_id} (use it to check on the agent)",
        extra={"status": "async_launched", "agentId": agent_id, "description": "Run the suite"},
    )
    return call


def background_by_notification(t: Transcript, root: Path) -> Expected:
    _launch(t, "bgn1")
    _agent_log(t, root, "bgn1", "Run the suite", calls=3, answer="All 12 tests pass.")
    t.say("It runs; I will wait.")
    t.tick(60)
    note = (
        "<task-notification>\n<task-id>bgn1</task-id>\n<status>completed</status>\n"
        '<summary>Agent "Run the suite" completed</summary>\n<result>All 12 tests pass.</result>\n'
        "<usage>total_tokens: 5120\ntool_uses: 3\nduration_ms: 63000</usage>\n</task-notification>"
    )
    t.attachment("queued_command", prompt=note, commandMode="task-notification")
    return Expected("finished", 3, "All 12 tests pass.", 63.0)


def background_by_task_output(t: Transcript, root: Path) -> Expected:
    launch = _launch(t, "bgt2")
    launched_at = t.clock
    for status, retrieval in (("running", "timeout"), ("completed", "success")):
        poll = t.tool_use("TaskOutput", {"task_id": "bgt2", "block": True, "timeout": 30000})
        t.tick(20)
        body = f"<retrieval_status>{retrieval}</retrieval_status>\n\n<task_id>bgt2</task_id>\n\n"
        body += f"<task_type>local_agent</task_type>\n\n<status>{status}</status>"
        task = {"task_id": "bgt2", "task_type": "local_agent", "status": status}
        if status == "completed":
            body += "\n\n<output>Migration written.</output>"
            task["output"] = "Migration written."
        result = t.tool_result(poll, body, extra={"retrieval_status": retrieval, "task": task})
    assert launch
    took = (t.clock - launched_at).total_seconds() + 1  # from the launching call's start
    assert result["timestamp"]
    return Expected("finished", None, "Migration written.", took)


def background_still_running(t: Transcript, root: Path) -> Expected:
    _launch(t, "bgr3")
    t.say("It runs in the background.")
    return Expected("running", None, None, None)


def _stamp(t: Transcript) -> str:
    return t.tick().isoformat().replace("+00:00", "Z")


def background_by_an_enqueued_notification(t: Transcript, root: Path) -> Expected:
    """2.1.6x enqueues the ending mid-turn as a `queue-operation` line and no user line repeats
    it; 2.0.67 wrote `<agent-notification>` (seen in real erk sessions)."""
    _launch(t, "bgq4")
    launched_at = t.clock
    t.say("It runs; I will wait.")
    t.tick(50)
    note = (
        "<agent-notification>\n<agent-id>bgq4</agent-id>\n<output-file>/tmp/claude/tasks/bgq4.output</output-file>\n"
        '<status>completed</status>\n<summary>Agent "Run the suite" completed.</summary>\n'
        "Read the output file to retrieve the full result.\n</agent-notification>"
    )
    t.raw({"type": "queue-operation", "operation": "enqueue", "timestamp": _stamp(t), "content": note})
    took = (t.clock - launched_at).total_seconds() + 1
    t.raw({"type": "queue-operation", "operation": "remove", "timestamp": _stamp(t)})
    return Expected("finished", None, 'Agent "Run the suite" completed.', took)


def background_stopped_by_task_stop(t: Transcript, root: Path) -> Expected:
    _launch(t, "bgs5")
    launched_at = t.clock
    t.tick(30)
    stop = t.tool_use("TaskStop", {"task_id": "bgs5"})
    said = "Successfully stopped task: bgs5 (Run the suite)"
    t.tool_result(stop, json.dumps({"message": said}), extra={"message": said})
    return Expected("stopped", None, None, (t.clock - launched_at).total_seconds() + 1)


def log_ends_in_an_api_error(t: Transcript, root: Path) -> Expected:
    """Its log's last line is a `<synthetic>` "API Error: …" message (no error flag), and its
    call's result, marked completed, holds that error as its whole answer."""
    call = _spawn(t, "Find the bug")
    error = 'API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}'
    a = Transcript(t.session_id, agent_id="a5yn", start=t.clock)
    a.user("Find the bug, please")
    a.bash("grep -n token src/parser.py", "12: token")
    [last] = a.say(error)
    last["message"]["model"] = "<synthetic>"
    a.write_subagent(root, t, meta={"agentType": "Explore", "description": "Find the bug"})
    t.clock = a.clock
    extra = {"status": "completed", "agentId": "a5yn", "totalToolUseCount": 1, "totalDurationMs": 9000}
    t.tool_result(call, [{"type": "text", "text": error}], extra=extra)
    return Expected("failed", 1, None, 9.0)


def declined_call(t: Transcript, root: Path) -> None:
    call = _spawn(t, "Find the bug")
    t.tool_result(
        call, "The user doesn't want to proceed with this tool use. The tool use was rejected.", is_error=True
    )


def rejected_call(t: Transcript, root: Path) -> None:
    call = t.tool_use("Task", {"description": "No prompt"})
    t.tool_result(
        call,
        "<tool_use_error>InputValidationError: Task failed due to the following issue:\n"
        "The required parameter `prompt` is missing</tool_use_error>",
        is_error=True,
        extra="InputValidationError: [{'path': ['prompt'], 'message': 'Required'}]",
    )


def inline_1_0(t: Transcript, root: Path) -> Expected:
    call = t.tool_use("Task", {"subagent_type": "general-purpose", "description": "Find it", "prompt": "SEARCH it"})
    thread = t.inline_agent()
    thread.user("SEARCH it")
    grep = thread.tool_use("Grep", {"pattern": "def parse"})
    thread.tool_result(grep, "src/parser.py:10:def parse(text):")
    thread.say(ANSWER)
    t.clock = thread.clock
    content = [{"type": "text", "text": ANSWER}]
    extra = {"content": content, "totalDurationMs": 5000, "totalToolUseCount": 1, "totalTokens": 49, "usage": USAGE}
    t.tool_result(call, content, extra=extra)
    return Expected("finished", 1, ANSWER, 5.0)


def warmup_log(t: Transcript, root: Path) -> None:
    warm = Transcript(t.session_id, agent_id="warm1", version="2.0.30")
    warm.user("Warmup")
    warm.say("I'm ready to help.")
    warm.write_legacy_agent(root, t)


COMPACTION_PROMPT = "Your task is to create a detailed summary of the conversation so far, paying close attention"


def compaction_summariser_log(t: Transcript, root: Path) -> None:
    """2.1.x writes the compaction summariser's request as `subagents/agent-acompact-<id>.jsonl`
    (seen in real 2.1.39 files): context copied from the session, then the summary request."""
    summary = Transcript(t.session_id, agent_id="acompact-9f2e1d", start=t.clock)
    summary.user("<system-reminder>PostToolUse:Edit hook additional context: ok</system-reminder>")
    summary.tick(1200)  # the copied context is much older than the request
    summary.user(COMPACTION_PROMPT)
    summary.say("<analysis>The person asked to fix the parser.</analysis><summary>1. Fix the parser</summary>")
    summary.write_subagent(root, t)


CASES: dict[str, Callable[[Transcript, Path], Expected | None]] = {
    "log present": log_present,
    "log gone, its result kept": log_gone_with_result,
    "background, ended by its notification": background_by_notification,
    "background, ended by a TaskOutput poll": background_by_task_output,
    "background, still running": background_still_running,
    "background, ended by an enqueued notification": background_by_an_enqueued_notification,
    "background, stopped by TaskStop": background_stopped_by_task_stop,
    "its log ends in an API error": log_ends_in_an_api_error,
    "a call refused by input validation": rejected_call,
    "a call the person declined": declined_call,
    "1.0.x inline thread": inline_1_0,
    "warmup log": warmup_log,
    "the compaction summariser's log": compaction_summariser_log,
}


def _build(root: Path, case: str) -> tuple[Transcript, Expected | None]:
    version = "1.0.98" if case == "1.0.x inline thread" else "2.0.30" if case == "warmup log" else "2.1.330"
    t = Transcript(version=version)
    t.user("Fix the parser")
    expected = CASES[case](t, root)
    t.say("Done.")
    t.write_session(root)
    return t, expected


def _figures(status, calls, answer, duration) -> tuple:
    return (status, calls, answer, round(duration, 1) if duration is not None else None)


def _memory(path: Path) -> list[tuple]:
    memory = capture_file(str(path), record.empty_memory(), keeps=lambda part: True)
    return [_figures(a["status"], a.get("calls"), a.get("answer"), a.get("duration_s")) for a in memory["agents"]]


def _agent_json(agents: list[dict]) -> list[tuple]:
    return [_figures(a["status"], a["tool_calls"], a.get("final_answer"), a["duration_s"]) for a in agents]


def _view(root: Path, session_id: str) -> list[tuple]:
    page, _, _ = build_page(find_session_by_id(root, session_id), ViewOptions())
    agents = [getattr(t, "agent", None) for t in page.threads if t.key != MAIN]
    assert None not in agents, "every agent thread carries the agent model's figures"
    return [_figures(a.status, a.calls, a.answer, a.duration_s) for a in agents if a is not None]


@pytest.mark.parametrize("case", list(CASES))
def test_memory_debug_agent_show_and_view_agree_on_every_agent(claude_root: Path, case: str):
    t, expected = _build(claude_root, case)
    want = [] if expected is None else [_figures(expected.status, expected.calls, expected.answer, expected.duration_s)]
    path = find_session_by_id(claude_root, t.session_id).path
    assert _memory(path) == want, "memory"
    assert _agent_json(invoke_json("show", t.session_id)["agents"]) == want, "show"
    assert _agent_json(invoke_json("debug-agent", t.session_id, "--all").get("agents", [])) == want, "debug-agent"
    assert _view(claude_root, t.session_id) == want, "view"


def test_an_agent_without_its_log_says_its_figures_come_from_its_result(claude_root: Path):
    t, _ = _build(claude_root, "log gone, its result kept")
    (agent,) = invoke_json("show", t.session_id)["agents"]
    assert (agent["tool_calls"], agent.get("final_answer"), agent["duration_s"]) == (7, ANSWER, 42.5)
    assert (agent["tool_calls_source"], agent["answer_source"], agent["duration_source"]) == ("result",) * 3
    assert agent["tokens_source"] == "result" and agent["tokens_floor"] is True
    usage = invoke_json("show", t.session_id)["usage"]
    assert usage["agents"][0]["floor"] is True and usage["total"]["floor"] is True


def test_a_background_agents_duration_is_its_endings_never_its_launching_calls(claude_root: Path):
    t, _ = _build(claude_root, "background, ended by its notification")
    (agent,) = invoke_json("show", t.session_id)["agents"]
    assert agent["duration_s"] == 63.0 and agent["duration_source"] == "completion" and agent["background"] is True


def test_a_call_refused_by_input_validation_is_no_agent(claude_root: Path):
    t, _ = _build(claude_root, "a call refused by input validation")
    assert invoke_json("show", t.session_id)["agents"] == []
    events = invoke_json("events", t.session_id)["events"]
    assert [(e["name"], e["status"]) for e in events] == [("Task", "error")]  # the call itself stays


def test_show_marks_a_floor_of_tokens_in_its_text(claude_root: Path):
    from tests.support.cli import invoke

    t, _ = _build(claude_root, "log gone, its result kept")
    out = invoke("show", t.session_id).stdout
    assert "  tokens:    ≥" in out and "agent g0ne: ≥49 tokens" in out
    assert "7 calls (from its result), 42.5s (from its result), finished, log not found" in out


def test_memory_and_the_session_model_agree_on_a_real_clients_agents():
    from session_kit.sessions.session import Session

    real = Path(__file__).resolve().parent / "fixtures" / "real"
    for path in sorted((real / "projects").glob("*/*.jsonl")):
        runs = Session(find_session_by_id(real, path.stem)).agents
        model = [_figures(r.status, *r.tool_call_count[:1], r.answer[0], r.duration_s) for r in runs]
        assert model and _memory(path) == model


def test_the_compaction_summarisers_log_is_billed_but_no_agent_of_the_conversation(claude_root: Path):
    from tests.support.cli import invoke

    t, _ = _build(claude_root, "the compaction summariser's log")
    show = invoke_json("show", t.session_id)
    assert show["agents"] == []
    billed = show["usage"]["total"]["tokens"]["output"]
    assert billed > show["usage"]["main"]["tokens"]["output"], "its request is billed"
    [kind] = {a["type"] for a in show["usage"]["agents"]}
    assert kind == "compaction"
    debug = invoke_json("debug-agent", t.session_id, "--all")
    assert [(w["agent_id"], w["kind"]) for w in debug["warmups"]] == [("acompact-9f2e1d", "compaction")]
    assert "1 compaction summariser's log left out" in invoke("debug-agent", t.session_id, "--all").stdout
    [row] = invoke_json("sessions", "--all")["sessions"]
    assert row["agents"] == 0
    [usage_row] = invoke_json("usage", "--by", "session")["rows"]
    assert usage_row["tokens"]["output"] == billed
