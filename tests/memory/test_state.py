"""The memory holds the state at the compaction, not the history: agents as they stand,
failures still open (fixed by a later success of the same family of command), failures agents
and hooks reported, the plan a session keeps in a file, every standing instruction, and none
of the kit's own commands."""

from __future__ import annotations

import json
from pathlib import Path

from session_kit.memory import record, restore
from session_kit.memory.capture import capture_file, capture_session
from session_kit.memory.settings import MemorySettings
from tests.support.transcripts import Transcript


def captured(path: Path, memory: dict | None = None) -> dict:
    return capture_file(str(path), memory or record.empty_memory(), keeps=lambda part: True)


def block(memory: dict, limit: int | None = restore.LIMIT) -> str:
    return restore.render(
        memory, {"values": {}, "notes": []}, limit=limit, memory_file="/s/memory.md", read_plan=lambda p: None
    )


def test_a_background_agent_whose_log_says_finished_is_not_shown_running(tmp_path: Path):
    t = Transcript()
    call = t.tool_use("Agent", {"description": "Survey", "prompt": "p", "run_in_background": True})
    t.tool_result(call, "Async agent launched successfully.", extra={"status": "async_launched", "agentId": "bg7"})
    path = t.write(tmp_path / f"{t.session_id}.jsonl")
    subagents = tmp_path / t.session_id / "subagents"
    subagents.mkdir(parents=True)
    (subagents / "agent-bg7.meta.json").write_text(json.dumps({"agentType": "general-purpose", "finished": True}))
    memory = captured(path)
    assert [a["status"] for a in memory["agents"]] == ["finished"]
    assert "still running" not in block(memory)


def test_a_background_agent_no_line_or_log_has_ended_is_still_running(tmp_path: Path):
    t = Transcript()
    call = t.tool_use("Agent", {"description": "Survey", "prompt": "p", "run_in_background": True})
    t.tool_result(call, "Async agent launched successfully.", extra={"status": "async_launched", "agentId": "bg8"})
    memory = captured(t.write(tmp_path / f"{t.session_id}.jsonl"))
    assert 'agent "Survey": still running in the background' in block(memory)


def test_a_failure_fixed_by_a_modified_command_is_not_open(tmp_path: Path):
    t = Transcript()
    t.bash("git add dist/bundle.js", exit_code=1, stderr="The following paths are ignored: dist/bundle.js")
    t.bash("git add -f dist/bundle.js", "")
    t.bash("pytest tests/test_x.py", exit_code=1, stderr="E   assert 1 == 2")
    t.bash("cd /work/proj && python -m pytest tests/test_x.py -k test_one -q", "1 passed")
    t.bash("npm test -- src/a.test.js", exit_code=1, stderr="Error: expected true")
    t.bash("npm run build", "")  # another subcommand: npm test is still open
    memory = captured(t.write(tmp_path / "s.jsonl"))
    assert [f["command"] for f in memory["failures"]] == ["npm test -- src/a.test.js"]


def test_a_success_on_another_target_does_not_fix_a_failure(tmp_path: Path):
    t = Transcript()
    t.bash("pytest tests/test_x.py", exit_code=1, stderr="E   assert 1 == 2")
    t.bash("pytest tests/test_y.py", "1 passed")
    t.bash("git add src/a.py", exit_code=128, stderr="fatal: pathspec 'src/a.py' did not match any files")
    t.bash("git add src/b.py", "")
    memory = captured(t.write(tmp_path / "s.jsonl"))
    assert [f["command"] for f in memory["failures"]] == ["pytest tests/test_x.py", "git add src/a.py"]


def test_a_failed_skill_is_fixed_by_the_command_it_stood_for(tmp_path: Path):
    t = Transcript()
    skill = t.tool_use("Skill", {"skill": "commit-commands:commit"})
    t.tool_result(skill, "<tool_use_error>Unknown skill: commit-commands:commit</tool_use_error>", is_error=True)
    t.bash("git commit -m 'Fix the parser'", "[main 1a2b3c] Fix the parser")
    assert captured(t.write(tmp_path / "s.jsonl"))["failures"] == []


def test_an_edit_that_failed_is_fixed_by_a_write_of_the_same_file(tmp_path: Path):
    t = Transcript()
    edit = t.tool_use("Edit", {"file_path": "/p/a.py", "old_string": "x", "new_string": "y"})
    t.tool_result(edit, "<tool_use_error>String to replace not found</tool_use_error>", is_error=True)
    write = t.tool_use("Write", {"file_path": "/p/a.py", "content": "y\n"})
    t.tool_result(write, "ok", extra={"type": "update"})
    assert captured(t.write(tmp_path / "s.jsonl"))["failures"] == []


def test_a_failure_an_agent_reports_is_open_until_a_run_fixes_it(tmp_path: Path):
    t = Transcript()
    call = t.tool_use("Agent", {"subagent_type": "test-runner", "description": "Run the tests", "prompt": "p"})
    answer = "pytest failed: 1 test failure in tests/test_x.py::test_parse (AssertionError)"
    t.tool_result(call, [{"type": "text", "text": answer}], extra={"status": "completed", "agentId": "t1"})
    path = t.write(tmp_path / "s.jsonl")
    memory = captured(path)
    (failure,) = memory["failures"]
    assert failure["tool"] == "agent" and "test_parse" in failure["error"]
    text = block(memory)
    assert "Run the tests" in text.split("Failed and not fixed")[1] and "test_parse" in text
    t.bash("pytest tests/test_x.py", "1 passed")
    assert captured(t.write(path))["failures"] == []


def test_an_agent_that_reports_no_failure_leaves_none(tmp_path: Path):
    t = Transcript()
    call = t.tool_use("Agent", {"subagent_type": "test-runner", "description": "Run the tests", "prompt": "p"})
    t.tool_result(call, [{"type": "text", "text": "All green: 12 passed, 0 failed."}], extra={"agentId": "t2"})
    assert captured(t.write(tmp_path / "s.jsonl"))["failures"] == []


def test_hook_feedback_that_blocked_is_an_open_failure_until_the_hook_passes(tmp_path: Path):
    t = Transcript()
    t.user("go")
    t.attachment(
        "hook_blocking_error",
        hookName="Stop",
        hookEvent="Stop",
        blockingError={"blockingError": "lint failed: src/a.py:3: unused import os", "command": "./lint.sh"},
    )
    path = t.write(tmp_path / "s.jsonl")
    memory = captured(path)
    assert [(f["tool"], f["key"]) for f in memory["failures"]] == [("hook", "hook: Stop")]
    assert "unused import os" in block(memory)
    t.attachment("hook_success", hookName="Stop", hookEvent="Stop", content="Success")
    assert captured(t.write(path))["failures"] == []


def test_a_working_document_is_the_plan_with_its_open_items_as_they_are_on_disk(tmp_path: Path):
    plan = tmp_path / "proj" / ".impl" / "plan.md"
    plan.parent.mkdir(parents=True)
    written = "# Plan\n- [x] read the parser\n- [ ] fix the comma split\n- [ ] rerun the tests\n"
    plan.write_text(written)
    t = Transcript(cwd=str(tmp_path / "proj"))
    t.user("Fix the parser")
    write = t.tool_use("Write", {"file_path": str(plan), "content": written})
    t.tool_result(write, "ok", extra={"type": "create"})
    plan.write_text(written.replace("- [ ] fix the comma split", "- [x] fix the comma split"))  # done since
    memory = captured(t.write(tmp_path / "s.jsonl"))
    (doc,) = memory["documents"].values()
    assert (doc["done"], doc["total"]) == (2, 3)
    text = block(memory)
    assert "the plan followed: .impl/plan.md" in text and "[ ] rerun the tests" in text
    assert "[ ] fix the comma split" not in text


def test_without_task_tools_the_working_documents_checklist_is_the_task_list(tmp_path: Path):
    todo = tmp_path / "TODO.md"
    todo.write_text("- [x] one\n- [ ] two\n")
    t = Transcript()
    read = t.tool_use("Read", {"file_path": str(todo)})
    t.tool_result(read, "- [x] one\n- [ ] two\n", extra={"type": "text"})
    text = block(captured(t.write(tmp_path / "s.jsonl")))
    assert f"Task list (the checklist in {todo}" in text
    assert "- [pending] two" in text and "- [completed] one" in text


def test_a_file_with_a_checklist_is_a_working_document_whatever_its_name(tmp_path: Path):
    doc = tmp_path / "issue-42.md"
    doc.write_text("- [ ] step one\n")
    t = Transcript()
    write = t.tool_use("Write", {"file_path": str(doc), "content": "- [ ] step one\n"})
    t.tool_result(write, "ok", extra={"type": "create"})
    other = t.tool_use("Write", {"file_path": str(tmp_path / "main.py"), "content": "print(1)\n"})
    t.tool_result(other, "ok", extra={"type": "create"})
    assert list(captured(t.write(tmp_path / "s.jsonl"))["documents"]) == [str(doc)]


def test_a_standing_constraint_from_an_older_request_is_kept(tmp_path: Path):
    t = Transcript()
    t.user("Port the CLI to click")
    t.user("Go ahead. Never edit anything under migrations/ and always run ruff before a commit.")
    for n in range(8):
        t.user(f"Next step {n}")
    memory = captured(t.write(tmp_path / "s.jsonl"))
    text = block(memory)
    assert "Never edit anything under migrations/ and always run ruff before a commit." in text
    assert "Port the CLI to click" in text and "Next step 7" in text


def test_a_long_pasted_request_is_excerpted_and_short_ones_are_kept(tmp_path: Path):
    t = Transcript()
    t.user("Fix the flaky test")
    t.user("Here is the log:\n" + "\n".join(f"line {n} of the pasted log " + "x" * 60 for n in range(400)))
    t.user("Only touch tests/, please")
    t.user("And keep the old API")
    text = block(captured(t.write(tmp_path / "s.jsonl")))
    assert len(text) <= restore.LIMIT
    assert "Fix the flaky test" in text and "Only touch tests/, please" in text and "And keep the old API" in text
    assert "Here is the log:\n    [pasted 34.3 KB, 400 lines: first lines …]" in text
    assert "line 2 of the pasted log" in text and "line 3 of the pasted log" not in text


def test_a_big_memory_uses_the_whole_budget(tmp_path: Path):
    t = Transcript()
    for n in range(6):
        t.user(f"Request {n}: " + "words " * 800)
    for n in range(40):
        t.bash(f"pytest tests/test_{n}.py", exit_code=1, stderr="E   assert False\n" * 30)
    text = block(captured(t.write(tmp_path / "s.jsonl")))
    assert restore.LIMIT * 0.95 <= len(text) <= restore.LIMIT


def test_the_kits_own_commands_are_not_requests(tmp_path: Path):
    t = Transcript()
    t.user("Fix the parser")
    for command in ("sessions-search", "session-info"):
        t.user(f"<command-name>/session-kit:{command}</command-name><command-args>parser</command-args>")
    t.user("<command-name>/debug-agent</command-name><command-args></command-args>")
    memory = captured(t.write(tmp_path / "s.jsonl"))
    assert [r["text"] for r in memory["requests"]["recent"]] == ["Fix the parser"]


def test_the_assistants_words_are_its_stated_intent_once_tool_calls_followed_them(tmp_path: Path):
    t = Transcript()
    t.say("Next I will run the tests.")
    t.bash("pytest", "3 passed")
    path = t.write(tmp_path / "s.jsonl")
    memory = captured(path)
    assert memory["next"] is None and "last words" not in (block(memory) or "")
    doing = (block(memory) or "").split("What the session was doing at the compaction:")[1]
    assert "last stated intent" in doing and "run the tests" in doing and "pytest" in doing
    t.say("All done; next, update the changelog.")
    assert captured(t.write(path))["next"]["text"] == "All done; next, update the changelog."


def _doing(memory: dict) -> str:
    return (block(memory) or "").split("What the session was doing at the compaction:")[1]


def test_the_stated_intent_is_of_the_turn_of_the_latest_request_or_none(tmp_path: Path):
    t = Transcript()
    t.user("Keep the old fixtures, do not delete them")
    t.say("Understood, I will keep them.")
    t.user("Now make the limiter configurable")
    t.bash("grep -rn limit src/", "src/limits.py:3: LIMIT = 10")
    path = t.write(tmp_path / "s.jsonl")
    memory = captured(path)
    assert "intent" not in memory["doing"], memory["doing"]
    assert "I will keep them" not in _doing(memory)
    t.say("Now let me move the limit into the settings.")
    t.tool_use("Edit", {"file_path": "/w/src/limits.py", "old_string": "LIMIT = 10", "new_string": "x"})
    memory = captured(t.write(path))
    assert memory["doing"]["intent"]["text"] == "Now let me move the limit into the settings."


def test_an_intent_a_capture_before_kept_is_spent_by_a_later_request(tmp_path: Path):
    t = Transcript()
    t.user("Keep the old fixtures")
    t.say("Understood, I will keep them.")
    t.bash("ls tests/fixtures", "old.json")
    path = t.write(tmp_path / "s.jsonl")
    memory = captured(path)
    assert memory["doing"]["intent"]["text"] == "Understood, I will keep them."
    t.user("Now make the limiter configurable")
    t.bash("grep -rn limit src/", "src/limits.py:3: LIMIT = 10")
    memory = captured(t.write(path), memory)
    assert "intent" not in memory["doing"] and "I will keep them" not in _doing(memory)


def test_the_words_of_a_capture_before_are_dropped_by_a_call_after_it(tmp_path: Path):
    t = Transcript()
    t.say("Next I will run the tests.")
    path = t.write(tmp_path / "s.jsonl")
    memory = captured(path)
    t.lines.clear()
    t.bash("pytest", "3 passed")
    with path.open("a") as out:
        out.write(t.text())
    assert captured(path, memory)["next"] is None


def test_plan_mode_is_off_once_the_mode_changes_or_the_plan_is_approved(tmp_path: Path):
    t = Transcript()
    t.attachment("plan_mode", planFilePath="/plans/a.md")
    t.permission_mode("plan")
    t.permission_mode("acceptEdits")
    memory = captured(t.write(tmp_path / "a.jsonl"))
    assert memory["plan_mode"]["active"] is False and "Plan mode is on" not in (block(memory) or "")
    t = Transcript()
    t.attachment("plan_mode", planFilePath="/plans/b.md")
    call = t.tool_use("ExitPlanMode", {"plan": "1. do it"})
    t.tool_result(call, "User has approved your plan.", extra={"plan": "1. do it", "filePath": "/plans/b.md"})
    assert captured(t.write(tmp_path / "b.jsonl"))["plan_mode"]["active"] is False


def test_a_compaction_told_by_the_transcript_and_by_the_hook_counts_once(tmp_path: Path):
    scratch = tmp_path / "scratch"
    t = Transcript()
    t.user("go")
    t.compact("This session is being continued from a previous conversation. Summary: worked on X.")
    path = str(t.write(tmp_path / "s.jsonl"))
    capture_session(str(scratch), path, MemorySettings(), summary="Summary: worked on X.", trigger="manual")
    compactions = json.loads((scratch / "memory.json").read_text())["compactions"]
    assert len(compactions) == 1 and compactions[0]["client_summary"] == "Summary: worked on X."


def test_a_compaction_the_hook_tells_before_its_boundary_is_read_counts_once(tmp_path: Path):
    scratch = tmp_path / "scratch"
    t = Transcript()
    t.user("go")
    path = t.write(tmp_path / "s.jsonl")
    capture_session(str(scratch), str(path), MemorySettings(), summary="Summary: worked on X.", trigger="auto")
    t.compact("This session is being continued. Summary: worked on X.", trigger="auto")
    t.write(path)
    capture_session(str(scratch), str(path), MemorySettings())
    assert len(json.loads((scratch / "memory.json").read_text())["compactions"]) == 1


def test_the_block_repeats_nothing_the_client_re_attaches_and_no_agent_ids(tmp_path: Path):
    t = Transcript(cwd="/work/proj")
    for n in range(8):
        read = t.tool_use("Read", {"file_path": f"/work/proj/src/m{n}.py"})
        t.tool_result(read, "x", extra={"type": "text"})
    call = t.tool_use("Agent", {"subagent_type": "Explore", "description": "Map it", "prompt": "p"})
    t.tool_result(call, [{"type": "text", "text": "Mapped."}], extra={"status": "completed", "agentId": "a1b2c3d4e5"})
    text = block(captured(t.write(tmp_path / "s.jsonl")))
    assert "src/m2.py" in text and "src/m0.py" in text
    assert "src/m3.py" not in text and "src/m7.py" not in text  # the latest five: the client's own
    assert "a1b2c3d4e5" not in text and "/work/proj/src" not in text


def test_an_unrelated_subcommand_of_an_unknown_program_fixes_nothing(tmp_path: Path):
    t = Transcript()
    t.bash("erk exec setup-impl", "TypeError: unexpected keyword argument", exit_code=1)
    t.bash("erk exec impl-signal started", "ok")
    (failure,) = captured(t.write(tmp_path / "s.jsonl"))["failures"]
    assert "setup-impl" in failure["command"]


def test_a_failed_skill_is_fixed_by_a_commit_made_with_a_here_document(tmp_path: Path):
    t = Transcript()
    skill = t.tool_use("Skill", {"skill": "handgemacht:commit"})
    t.tool_result(skill, "Bash command failed for pattern git log", is_error=True)
    t.bash("git add a.py && git commit -m \"$(cat <<'EOF'\nfeat: a\nEOF\n)\"", "1 file changed")
    assert captured(t.write(tmp_path / "s.jsonl"))["failures"] == []


def test_each_failing_test_an_agent_reports_stays_open(tmp_path: Path):
    t = Transcript()
    for test in ("test_one", "TestB::test_two"):
        call = t.tool_use("Agent", {"subagent_type": "devrun", "description": "Run pytest", "prompt": "p"})
        t.tool_result(
            call, [{"type": "text", "text": f"pytest failed: 1 test\nTest: `{test}`"}], extra={"agentId": test}
        )
    keys = sorted(f["key"] for f in captured(t.write(tmp_path / "s.jsonl"))["failures"])
    assert keys == ["agent: devrun test: test_one", "agent: devrun test: test_two"]


def test_the_issue_trackers_item_in_progress_is_the_plan_and_what_the_session_was_doing(tmp_path: Path):
    t = Transcript()
    t.user("Work on bead kit-7.")
    t.bash("bd show kit-7", "epic")
    t.bash("bd update kit-7.2 --status in_progress", "ok")
    t.tool_use("Edit", {"file_path": "/w/a.py", "old_string": "a", "new_string": "b"})  # no result yet
    text = block(captured(t.write(tmp_path / "s.jsonl"))) or ""
    plan = text.split("The plan:")[1]
    assert plan.splitlines()[1].startswith("- the plan followed: the bd issue tracker's kit-7 (in progress: kit-7.2")
    doing = text.split("What the session was doing at the compaction:")[1]
    assert "kit-7.2" in doing and "running at the compaction: /w/a.py" in doing


def test_a_command_file_the_session_edits_is_never_its_plan(tmp_path: Path):
    t = Transcript()
    t.user("go")
    t.tool_result(t.tool_use("Read", {"file_path": "/w/.impl/plan.md"}), "1→plan")
    edit = t.tool_use(
        "Edit", {"file_path": "/w/.claude/commands/x/plan-save.md", "old_string": "a", "new_string": "- [ ] b"}
    )
    t.tool_result(edit, "ok")
    memory = captured(t.write(tmp_path / "s.jsonl"))
    assert list(memory["documents"]) == ["/w/.impl/plan.md"]


def test_a_task_update_running_at_the_compaction_is_in_the_list(tmp_path: Path):
    t = Transcript()
    create = t.tool_use("TaskCreate", {"subject": "Run CI"})
    t.tool_result(create, "Task #1 created successfully: Run CI")
    t.tool_use("TaskUpdate", {"taskId": "1", "status": "in_progress"})  # the compaction came before its result
    memory = captured(t.write(tmp_path / "s.jsonl"))
    assert [(i["subject"], i["status"]) for i in memory["tasks"]["items"]] == [("Run CI", "in_progress")]


def test_a_call_the_person_declined_is_their_decision_not_a_failure(tmp_path: Path):
    t = Transcript()
    t.user("Clean up the build")
    call = t.tool_use("Bash", {"command": "rm -rf build/ dist/"})
    said = (
        "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a "
        "file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\n"
        "keep dist/, only clear build/"
    )
    t.tool_result(call, said, is_error=True, extra=f"Error: {said}")
    memory = captured(t.write(tmp_path / "s.jsonl"))
    text = block(memory)
    assert memory["failures"] == []
    assert "Failed and not fixed since" not in text
    assert "- declined: Bash: rm -rf build/ dist/ (transcript line 2) — the person said:" in text
    assert "keep dist/, only clear build/" in text
