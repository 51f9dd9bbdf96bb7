"""Capture: what a transcript's lines leave in the working memory, in every dialect, read
incrementally and safely."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from session_kit.memory import fold, record
from session_kit.memory.capture import capture_file, capture_session
from session_kit.memory.settings import MemorySettings
from tests.support.transcripts import Transcript

DIALECTS = ["current", "seed"]


def captured(path: Path, memory: dict | None = None, keeps=lambda part: True) -> dict:
    return capture_file(str(path), memory or record.empty_memory(), keeps=keeps)


def working_session(dialect: str = "current") -> Transcript:
    t = Transcript(dialect=dialect)
    t.user("Fix the parser for TICKET-99 please")
    write = t.tool_use("Write", {"file_path": "/p/parser.py", "content": "x = 1\n"})
    t.tool_result(write, "File created", extra={"type": "create", "filePath": "/p/parser.py"})
    edit = t.tool_use("Edit", {"file_path": "/p/parser.py", "old_string": "1", "new_string": "2"})
    t.tool_result(edit, "updated", extra={"filePath": "/p/parser.py"})
    t.bash(
        "pytest tests/test_parser.py",
        exit_code=1,
        stderr="Traceback (most recent call last):\n"
        '  File "/p/a.py", line 1, in <module>\n    main()\n'
        '  File "/p/b.py", line 5, in main\n    helper()\n'
        '  File "/p/parser.py", line 9, in helper\n    raise ValueError("bad token at 3")\n'
        "ValueError: bad token at 3",
    )
    t.say("Next I will fix the token loop.")
    return t


@pytest.mark.parametrize("dialect", DIALECTS)
def test_a_working_session_leaves_request_files_failure_and_next_step(tmp_path: Path, dialect: str):
    memory = captured(working_session(dialect).write(tmp_path / "s.jsonl"))
    assert memory["requests"]["first"]["text"] == "Fix the parser for TICKET-99 please"
    assert memory["requests"]["first"]["line"] == 1
    assert memory["files"]["/p/parser.py"]["times"] == 2
    (failure,) = memory["failures"]
    assert failure["command"] == "pytest tests/test_parser.py" and failure["exit_code"] == 1
    assert "ValueError: bad token at 3" in failure["error"]
    assert memory["next"]["text"] == "Next I will fix the token loop."


def test_a_traceback_keeps_its_last_frames_and_message_not_its_first_lines(tmp_path: Path):
    memory = captured(working_session().write(tmp_path / "s.jsonl"))
    error = memory["failures"][0]["error"]
    assert '"/p/parser.py", line 9' in error and 'raise ValueError("bad token at 3")' in error
    assert '"/p/a.py"' not in error  # the first frame is not what went wrong


def test_a_later_success_of_the_same_command_fixes_the_failure(tmp_path: Path):
    t = working_session()
    t.bash("pytest  tests/test_parser.py", "1 passed")  # the same command, spaced otherwise
    memory = captured(t.write(tmp_path / "s.jsonl"))
    assert memory["failures"] == []


def test_a_success_of_another_command_does_not(tmp_path: Path):
    t = working_session()
    t.bash("pytest tests/test_other.py", "1 passed")
    assert len(captured(t.write(tmp_path / "s.jsonl"))["failures"]) == 1


def test_noise_and_known_results_are_never_parsed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    t = Transcript()
    t.user("go")
    for _ in range(20):
        t.noise("attachment", size=5000)
        t.noise("api-request", size=5000)
    read = t.tool_use("Read", {"file_path": "/p/big.txt"})
    t.tool_result(read, "y" * 100_000, extra={"type": "text", "file": {"filePath": "/p/big.txt"}})
    parsed: list[bytes] = []
    real = fold.fastjson.loads
    monkeypatch.setattr(fold.fastjson, "loads", lambda raw: parsed.append(raw) or real(raw))
    memory = captured(t.write(tmp_path / "s.jsonl"))
    assert memory["reads"] == [{"path": "/p/big.txt", "line": 42}]
    assert len(parsed) == 2  # the request and the Read call; not the noise, not the 100 kB result
    assert all(len(raw) < 2000 for raw in parsed)


def test_a_second_capture_reads_only_what_was_appended(tmp_path: Path):
    t = working_session()
    path = t.write(tmp_path / "s.jsonl")
    memory = captured(path)
    size, lines = path.stat().st_size, memory["lines"]
    assert memory["offset"] == size
    t.lines.clear()
    t.user("Now also handle commas")
    with path.open("a") as f:
        f.write(t.text())
    memory = captured(path, memory)
    assert memory["requests"]["recent"][-1] == {
        "text": "Now also handle commas",
        "line": lines + 1,
        "at": memory["requests"]["recent"][-1]["at"],
    }
    assert memory["requests"]["first"]["text"] == "Fix the parser for TICKET-99 please"
    assert memory["offset"] == path.stat().st_size


def test_a_half_written_last_line_waits_for_the_next_capture(tmp_path: Path):
    t = working_session()
    whole = t.write(tmp_path / "s.jsonl").read_bytes()
    half = b'{"type":"user","message":{"role":"user","content":"Second req'
    path = tmp_path / "s.jsonl"
    path.write_bytes(whole + half)
    memory = captured(path)
    assert memory["offset"] == len(whole) and memory["skipped"]["malformed"] == 0
    path.write_bytes(whole + half + b'uest"},"timestamp":"2026-11-01T10:00:00Z"}\n')
    memory = captured(path, memory)
    assert memory["requests"]["recent"][-1]["text"] == "Second request"


def test_a_replaced_shorter_file_is_read_again_from_the_start(tmp_path: Path):
    path = working_session().write(tmp_path / "s.jsonl")
    memory = captured(path)
    t = Transcript()
    t.user("A new start")
    t.write(path)
    memory = captured(path, memory)
    assert memory["requests"]["first"]["text"] == "A new start"
    assert memory["failures"] == []


def test_malformed_lines_odd_fields_and_a_foreign_file_give_a_smaller_memory(tmp_path: Path):
    path = tmp_path / "s.jsonl"
    t = working_session()
    t.raw({"type": "assistant", "message": {"content": [{"type": "tool_use", "id": 5, "name": {"x": 1}}]}})
    t.raw({"type": "user", "message": "not a dict", "toolUseResult": [1, 2]})
    path.write_bytes(b"\xff\xfe garbage\n[1,2,3]\n{\n" + t.text().encode() + b'"a string"\n')
    memory = captured(path)
    assert memory["requests"]["first"]["text"].startswith("Fix the parser")
    assert memory["skipped"]["malformed"] >= 2
    (tmp_path / "foreign.txt").write_text("hello\nworld\n")
    assert captured(tmp_path / "foreign.txt")["requests"]["first"] is None


def test_client_text_is_not_a_request(tmp_path: Path):
    t = Transcript()
    t.user(
        "<command-name>/compact</command-name>\n<command-message>compact</command-message>\n<command-args></command-args>"
    )
    t.user("<local-command-stdout>Compacted</local-command-stdout>")
    t.user("[Request interrupted by user]")
    t.user("<bash-input>ls</bash-input>")
    t.user("Caveat: The messages below were generated by the user while running local commands.", isMeta=True)
    t.user("<task-notification><task-id>abc</task-id><status>completed</status></task-notification>")
    t.user("<ide_opened_file>The user opened /p/x.py</ide_opened_file>Explain this file")
    t.user("<command-name>/fix-issue</command-name><command-args>42</command-args>")
    memory = captured(t.write(tmp_path / "s.jsonl"))
    assert [r["text"] for r in memory["requests"]["recent"]] == ["Explain this file", "/fix-issue 42"]


def test_sidechain_entries_are_not_the_sessions_memory(tmp_path: Path):
    t = Transcript()
    t.user("main request")
    t.user("an inline agent's prompt", isSidechain=True)
    memory = captured(t.write(tmp_path / "s.jsonl"))
    assert [r["text"] for r in memory["requests"]["recent"]] == ["main request"]


def test_todos_tasks_and_their_updates(tmp_path: Path):
    t = Transcript()
    todo = t.tool_use(
        "TodoWrite", {"todos": [{"content": "A", "status": "completed"}, {"content": "B", "status": "in_progress"}]}
    )
    t.tool_result(todo, "ok", extra={"oldTodos": [], "newTodos": []})
    assert [(i["subject"], i["status"]) for i in captured(t.write(tmp_path / "a.jsonl"))["tasks"]["items"]] == [
        ("A", "completed"),
        ("B", "in_progress"),
    ]
    t = Transcript()
    for n, subject in enumerate(["one", "two", "three"], 1):
        call = t.tool_use("TaskCreate", {"subject": subject, "description": subject})
        t.tool_result(
            call, f"Task #{n} created successfully: {subject}", extra={"task": {"id": str(n), "subject": subject}}
        )
    update = t.tool_use("TaskUpdate", {"taskId": "2", "status": "completed"})
    t.tool_result(update, "Updated task #2 status")
    gone = t.tool_use("TaskUpdate", {"taskId": "3", "status": "deleted"})
    t.tool_result(gone, "Updated task #3 deleted")
    refused = t.tool_use("TaskUpdate", {"taskId": "1", "status": "completed"})
    t.tool_result(refused, "<tool_use_error>no</tool_use_error>", is_error=True)
    tasks = captured(t.write(tmp_path / "b.jsonl"))["tasks"]
    assert tasks["source"] == "Task"
    assert [(i["id"], i["subject"], i["status"]) for i in tasks["items"]] == [
        ("1", "one", "pending"),
        ("2", "two", "completed"),
    ]


def test_a_plan_is_kept_with_its_answer(tmp_path: Path):
    t = Transcript()
    call = t.tool_use("ExitPlanMode", {"plan": "1. do it"})
    t.tool_result(call, "User has approved your plan.", extra={"plan": "1. do it", "filePath": "/plans/x.md"})
    plan = captured(t.write(tmp_path / "a.jsonl"))["plan"]
    assert (plan["text"], plan["status"], plan["path"]) == ("1. do it", "approved", "/plans/x.md")
    t = Transcript()
    call = t.tool_use("ExitPlanMode", {"plan": "2. other"})
    t.tool_result(call, "The user doesn't want to proceed with this tool use.", is_error=True)
    plan = captured(t.write(tmp_path / "b.jsonl"))["plan"]
    assert plan["status"] == "refused" and "doesn't want to proceed" in plan["reason"]


def test_a_plan_with_empty_input_is_read_from_its_file(tmp_path: Path):
    plan_file = tmp_path / "plans" / "snappy.md"
    plan_file.parent.mkdir()
    plan_file.write_text("# Plan\n1. from the file\n")
    t = Transcript()
    t.attachment("plan_mode", planFilePath=str(plan_file))
    write = t.tool_use("Write", {"file_path": str(plan_file), "content": "# Plan\n1. from the file\n"})
    t.tool_result(write, "ok", extra={"type": "create"})
    memory = captured(t.write(tmp_path / "a.jsonl"))
    assert memory["plan_mode"]["active"] is True and memory["plan"]["status"] == "writing"
    call = t.tool_use("ExitPlanMode", {})
    t.tool_result(call, "approved", extra={"plan": None, "filePath": str(plan_file)})
    memory = captured(t.write(tmp_path / "b.jsonl"))
    assert memory["plan"]["status"] == "approved" and "1. from the file" in memory["plan"]["text"]


def test_subagents_sync_background_and_failed(tmp_path: Path):
    t = Transcript()
    sync = t.tool_use("Agent", {"subagent_type": "Plan", "description": "Design", "prompt": "p"})
    t.tool_result(
        sync,
        [{"type": "text", "text": "[Subagent hand-back] preamble. The report follows:\n  Keep alpha."}],
        extra={"status": "completed", "agentId": "a1"},
    )
    background = t.tool_use("Agent", {"description": "Look", "prompt": "q"})
    t.tool_result(background, "Async agent launched successfully.", extra={"status": "async_launched", "agentId": "a2"})
    failed = t.tool_use("Task", {"subagent_type": "Explore", "description": "Break", "prompt": "r"})
    t.tool_result(failed, "Agent terminated early due to an API error", is_error=True)
    agents = captured(t.write(tmp_path / "a.jsonl"))["agents"]
    assert [(a["type"], a["status"], a["background"], a["answer"], a["error"]) for a in agents] == [
        ("Plan", "finished", False, "Keep alpha.", None),
        ("general-purpose", "running", True, None, None),
        ("Explore", "failed", False, None, "Agent terminated early due to an API error"),
    ]
    t.user(
        "<task-notification>\n<task-id>a2</task-id>\n<status>completed</status>\n<result>Found it.</result>\n</task-notification>"
    )
    agents = captured(t.write(tmp_path / "b.jsonl"))["agents"]
    assert (agents[1]["status"], agents[1]["answer"]) == ("finished", "Found it.")


def test_files_created_edited_and_removed(tmp_path: Path):
    t = Transcript()
    write = t.tool_use("Write", {"file_path": "/p/new.py", "content": ""})
    t.tool_result(write, "created", extra={"type": "create"})
    t.bash("rm /p/old.py /p/new.py", "")
    failed = t.tool_use("Edit", {"file_path": "/p/keep.py", "old_string": "a", "new_string": "b"})
    t.tool_result(failed, "<tool_use_error>String to replace not found</tool_use_error>", is_error=True)
    memory = captured(t.write(tmp_path / "a.jsonl"))
    assert {p: f["change"] for p, f in memory["files"].items()} == {"/p/old.py": "deleted", "/p/new.py": "deleted"}
    assert memory["failures"][0]["key"] == "Edit: /p/keep.py"
    assert memory["failures"][0]["error"] == "String to replace not found"


def test_secrets_are_redacted_in_everything_captured(tmp_path: Path):
    key = "sk-ant-api03-" + "A1b2C3d4" * 10
    t = Transcript()
    t.user(f"use the key {key} for the call")
    t.bash(f"curl -H 'x-api-key: {key}' https://api", exit_code=22, stderr=f"error: denied for {key}")
    t.say(f"I will retry with {key}")
    memory = captured(t.write(tmp_path / "a.jsonl"))
    assert key not in json.dumps(memory)
    assert "[REDACTED" in memory["requests"]["first"]["text"]


def test_left_out_parts_are_not_captured(tmp_path: Path):
    settings = MemorySettings(leave_out=frozenset({"requests", "failures"}))
    memory = captured(working_session().write(tmp_path / "a.jsonl"), keeps=settings.keeps)
    assert memory["requests"]["first"] is None and memory["failures"] == []
    assert memory["files"]


def test_an_agents_compaction_never_touches_the_sessions_memory(tmp_path: Path):
    scratch = tmp_path / "scratch"
    main = working_session().write(tmp_path / "main.jsonl")
    capture_session(str(scratch), str(main), MemorySettings())
    before = (scratch / "memory.json").read_bytes()
    agent = Transcript(agent_id="abc")
    agent.user("the agent's own prompt")
    agent_path = agent.write(tmp_path / "agent-abc.jsonl")
    capture_session(str(scratch), str(agent_path), MemorySettings(), agent_id="abc")
    assert (scratch / "memory.json").read_bytes() == before
    assert json.loads((scratch / "memory-agents" / "abc.json").read_text())["transcript"] == str(agent_path)


def test_the_clients_summary_is_kept_with_its_compaction(tmp_path: Path):
    scratch = tmp_path / "scratch"
    t = working_session()
    t.compact("Summary from the transcript")
    path = str(t.write(tmp_path / "s.jsonl"))
    capture_session(str(scratch), path, MemorySettings(), summary="Summary from the transcript", trigger="manual")
    capture_session(str(scratch), path, MemorySettings(), summary="A later, separate summary", trigger="auto")
    compactions = json.loads((scratch / "memory.json").read_text())["compactions"]
    assert [c["summary"] for c in compactions] == ["Summary from the transcript", None]
    assert [c["client_summary"] for c in compactions] == ["Summary from the transcript", "A later, separate summary"]
    assert compactions[0]["trigger"] == "manual"


def test_a_damaged_memory_file_is_captured_afresh(tmp_path: Path):
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    (scratch / "memory.json").write_text('{"version": 1, "requests": [1], "offset": "x"')
    memory = capture_session(str(scratch), str(working_session().write(tmp_path / "s.jsonl")), MemorySettings())
    assert memory["requests"]["first"]["text"].startswith("Fix the parser")


def test_a_2025_session_with_titles_task_agents_and_string_errors(tmp_path: Path):
    t = Transcript()
    t.summary_2025("A title, not a compaction")
    t.user("Port the CLI to click", isSidechain=False)
    task = t.tool_use("Task", {"subagent_type": "general-purpose", "description": "Survey", "prompt": "look"})
    t.tool_result(
        task, [{"type": "text", "text": "Found 3 entry points"}], extra={"agentId": "x1", "status": "completed"}
    )
    call = t.tool_use("Bash", {"command": "make lint"})
    # 2025 clients wrote some errors only as a string `toolUseResult`, without `is_error`
    t.tool_result(call, "Exit code 2\nmake: *** [lint] Error 1", extra="Error: Exit code 2\nmake: *** [lint] Error 1")
    memory = captured(t.write(tmp_path / "a.jsonl"))
    assert memory["compactions"] == []
    assert memory["requests"]["first"]["text"] == "Port the CLI to click"
    assert memory["agents"][0]["status"] == "finished" and memory["agents"][0]["answer"] == "Found 3 entry points"
    assert memory["failures"][0]["exit_code"] == 2 and "Error 1" in memory["failures"][0]["error"]


def test_every_capture_writes_the_whole_memory_as_text_beside_it(tmp_path: Path):
    scratch = tmp_path / "scratch"
    capture_session(str(scratch), str(working_session().write(tmp_path / "s.jsonl")), MemorySettings())
    text = (scratch / "memory.md").read_text()
    assert "Fix the parser for TICKET-99 please" in text and "pytest tests/test_parser.py" in text


def test_the_first_line_of_a_transcript_that_starts_with_a_bom_is_captured(tmp_path: Path):
    path = working_session().write(tmp_path / "s.jsonl")
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    memory = captured(path)
    assert memory["requests"]["first"]["text"] == "Fix the parser for TICKET-99 please"
    assert memory["requests"]["first"]["line"] == 1 and memory["skipped"]["malformed"] == 0


def test_a_file_rewritten_in_place_with_another_first_line_is_read_again(tmp_path: Path):
    """The client rewrites transcripts (history dropped before a compaction, a self-heal):
    same inode, same size, the same end; another head."""
    t = working_session()
    t.say("padding " * 1000)  # the rewritten start lies far from the end
    path = t.write(tmp_path / "s.jsonl")
    memory = captured(path)
    data = path.read_bytes()
    with path.open("r+b") as f:
        f.write(data.replace(b"TICKET-99", b"TICKET-77"))
    memory = captured(path, memory)
    assert memory["requests"]["first"]["text"] == "Fix the parser for TICKET-77 please"
    assert len(memory["failures"]) == 1


def test_a_file_replaced_by_a_longer_one_is_read_again_from_the_start(tmp_path: Path):
    path = working_session().write(tmp_path / "s.jsonl")
    memory = captured(path)
    t = Transcript()
    t.user("A new start " + "z" * path.stat().st_size)
    t.write(tmp_path / "new.jsonl").replace(path)
    memory = captured(path, memory)
    assert memory["requests"]["first"]["text"].startswith("A new start")
    assert memory["failures"] == [] and memory["skipped"]["malformed"] == 0


def test_a_memory_saved_before_checkpoints_goes_on_from_its_offset(tmp_path: Path):
    t = working_session()
    path = t.write(tmp_path / "s.jsonl")
    memory = captured(path)
    del memory["checkpoint"]  # as an older kit saved it
    t.lines.clear()
    t.user("Now also handle commas")
    with path.open("a") as f:
        f.write(t.text())
    memory = captured(path, memory)
    assert [r["text"] for r in memory["requests"]["recent"]].count("Now also handle commas") == 1
    assert memory["requests"]["first"]["text"] == "Fix the parser for TICKET-99 please"
    assert len(memory["failures"]) == 1


def _as_the_client_writes(entry: dict) -> dict:
    """The entry with `parentUuid` first, as real lines start (the capture's byte filter sees that)."""
    return {"parentUuid": entry.pop("parentUuid", None), **entry}


def test_background_agents_end_by_a_task_status_line_or_a_task_output_poll(tmp_path: Path):
    t = Transcript()
    for agent_id in ("bg1", "bg2"):
        call = t.tool_use("Agent", {"description": f"Work {agent_id}", "prompt": "p", "run_in_background": True})
        t.tool_result(
            call, "Async agent launched successfully.", extra={"status": "async_launched", "agentId": agent_id}
        )
    path = t.write(tmp_path / "a.jsonl")
    memory = captured(path)
    assert [(a["status"], a.get("background"), a.get("duration_s")) for a in memory["agents"]] == [
        ("running", True, None)
    ] * 2
    t.lines.clear()  # what the client appends next, read by the next capture
    ended = t.attachment(
        "task_status", taskId="bg1", taskType="local_agent", description="Work bg1", status="completed"
    )
    t.lines[-1] = _as_the_client_writes(ended)
    poll = t.tool_use("TaskOutput", {"task_id": "bg2", "block": True})
    body = "<retrieval_status>success</retrieval_status>\n\n<task_id>bg2</task_id>\n\n<status>completed</status>"
    t.tool_result(poll, body + "\n\n<output>Done: 3 files.</output>", extra={"retrieval_status": "success"})
    with path.open("a") as out:
        out.write(t.text())
    memory = captured(path, memory)
    assert [(a["id"], a["status"], a["answer"]) for a in memory["agents"]] == [
        ("bg1", "finished", None),
        ("bg2", "finished", "Done: 3 files."),
    ]
    assert all(a["duration_s"] and a["duration_s"] > 1 for a in memory["agents"])  # to its ending, not the launch


def test_a_spawning_call_refused_by_input_validation_leaves_no_agent(tmp_path: Path):
    t = Transcript()
    call = t.tool_use("Task", {"description": "No prompt"})
    t.tool_result(call, "<tool_use_error>InputValidationError: prompt is missing</tool_use_error>", is_error=True)
    memory = captured(t.write(tmp_path / "a.jsonl"))
    assert memory["agents"] == []


def test_a_call_the_person_declined_is_no_open_failure(tmp_path: Path):
    t = Transcript(version="2.0.42")
    t.user("Commit it")
    first = t.tool_use("Bash", {"command": "git commit -am wip"})
    second = t.tool_use("Bash", {"command": "git push"})
    t.tool_result(
        first,
        "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, "
        "the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how "
        "to proceed.",
        is_error=True,
        extra="Error: The user doesn't want to proceed with this tool use.",
    )
    t.tool_result(
        second,
        "The user doesn't want to take this action right now. STOP what you are doing and wait for the user to tell "
        "you how to proceed.",
        is_error=True,
    )
    third = t.tool_use("Bash", {"command": "make test"})
    t.tool_result(third, "Exit code 2\nFAILED tests/test_a.py", is_error=True)
    memory = captured(t.write(tmp_path / "s.jsonl"))
    assert [f["command"] for f in memory["failures"]] == ["make test"]


def test_an_inline_threads_answer_ends_its_agent_before_the_call_has_its_result(tmp_path: Path):
    """A 1.0.x subagent writes its thread into the session's file; its last answer (a turn
    that ends in text) is the agent finished, even where its Task call's result is not
    written yet (a file copied mid-call)."""
    t = Transcript(version="1.0.98")
    t.user("Fix the parser")
    t.tool_use("Task", {"subagent_type": "general-purpose", "description": "Find it", "prompt": "SEARCH it"})
    thread = t.inline_agent()
    thread.user("SEARCH it")
    grep = thread.tool_use("Grep", {"pattern": "def parse"})
    thread.tool_result(grep, "src/parser.py:10:def parse(text):")
    (answer,) = thread.say("It is in src/parser.py.")
    answer["message"]["stop_reason"] = "end_turn"
    memory = captured(t.write(tmp_path / "s.jsonl"))
    assert [(a["status"], a["answer"]) for a in memory["agents"]] == [("finished", "It is in src/parser.py.")]


def test_the_same_session_read_from_another_file_keeps_nothing_of_the_first(tmp_path: Path):
    scratch = tmp_path / "scratch"
    longer = Transcript()
    longer.user("Port the tokenizer")
    write = longer.tool_use("Write", {"file_path": "/p/later.py", "content": "x\n"})
    longer.tool_result(write, "ok", extra={"type": "create"})
    capture_session(str(scratch), str(longer.write(tmp_path / "a" / "s.jsonl")), MemorySettings())
    cut = Transcript()
    cut.user("Port the tokenizer")
    memory = capture_session(str(scratch), str(cut.write(tmp_path / "b" / "s.jsonl")), MemorySettings())
    assert memory["files"] == {} and memory["transcript"] == str(tmp_path / "b" / "s.jsonl")
