"""Tool calls paired with their results, and each call's outcome."""

from __future__ import annotations

from pathlib import Path

from session_kit.transcript.calls import (
    STATUS_DECLINED,
    STATUS_ERROR,
    STATUS_OK,
    STATUS_PENDING,
    ToolCall,
    pair_tool_calls,
)
from session_kit.transcript.entries import read_entries
from tests.support.transcripts import Transcript


def calls_of(t: Transcript, tmp_path: Path) -> list[ToolCall]:
    return pair_tool_calls(read_entries(t.write(tmp_path / "s.jsonl")))


def four_outcomes(tmp_path: Path) -> tuple[list[str], list[ToolCall]]:
    """An ok Bash, a failing Bash, an Edit that failed with a tool_use_error, a Read still pending."""
    t = Transcript()
    ok = t.bash("echo hi", "hi\n")
    bad = t.bash("ls /nope", exit_code=2, stderr="ls: cannot access '/nope': No such file or directory")
    wrapped = t.tool_use("Edit", {"file_path": "/a.py", "old_string": "x", "new_string": "y"})
    t.tool_result(wrapped, "<tool_use_error>String to replace not found in file.</tool_use_error>", is_error=True)
    pending = t.tool_use("Read", {"file_path": "/b.py"})
    return [ok, bad, wrapped, pending], calls_of(t, tmp_path)


def split_and_repeated(tmp_path: Path) -> list[ToolCall]:
    t = Transcript()
    a = {"type": "tool_use", "id": "toolu_A", "name": "Bash", "input": {"command": "a"}}
    b = {"type": "tool_use", "id": "toolu_B", "name": "Bash", "input": {"command": "b"}}
    t.assistant({"type": "thinking", "thinking": "hm"}, a, b, message_id="msg_1")
    t.tool_result("toolu_B", "b out")
    t.tool_result("toolu_A", "a out")
    t.tool_result("toolu_A", "repeat")  # a resumed session can repeat a line
    t.tool_result("toolu_unknown", "orphan")
    return calls_of(t, tmp_path)


def test_calls_are_listed_in_the_order_they_were_made(tmp_path: Path):
    ids, calls = four_outcomes(tmp_path)
    assert [c.id for c in calls] == ids


def test_a_call_with_a_result_is_ok_and_has_a_duration(tmp_path: Path):
    _, calls = four_outcomes(tmp_path)
    assert calls[0].status == STATUS_OK and calls[0].duration_s == 1.0


def test_a_non_zero_exit_is_an_error_with_its_code_and_stderr(tmp_path: Path):
    _, calls = four_outcomes(tmp_path)
    assert calls[1].status == STATUS_ERROR and calls[1].exit_code == 2
    assert calls[1].error == "ls: cannot access '/nope': No such file or directory"


def test_a_tool_use_error_is_a_failure_with_its_message_unwrapped(tmp_path: Path):
    _, calls = four_outcomes(tmp_path)
    assert calls[2].failed and calls[2].error == "String to replace not found in file."


def test_a_call_without_a_result_is_pending(tmp_path: Path):
    _, calls = four_outcomes(tmp_path)
    assert calls[3].status == STATUS_PENDING and calls[3].ended is None


def test_exit_code_failure_is_found_without_is_error(tmp_path: Path):
    t = Transcript(dialect="seed")
    call = t.tool_use("Bash", {"command": "make"})
    t.tool_result(call, [{"type": "text", "text": "Exit code 2\nmake: *** No rule"}])
    [c] = calls_of(t, tmp_path)
    assert c.failed and c.exit_code == 2 and c.error == "make: *** No rule"


def test_a_result_without_a_call_makes_no_call(tmp_path: Path):
    calls = split_and_repeated(tmp_path)
    assert [c.id for c in calls] == ["toolu_A", "toolu_B"]


def test_calls_pair_across_split_lines_and_the_first_result_wins(tmp_path: Path):
    calls = split_and_repeated(tmp_path)
    assert [c.output for c in calls] == ["a out", "b out"]


def test_agent_calls_learn_the_agent_they_spawned(tmp_path: Path):
    t = Transcript()
    call = t.tool_use("Agent", {"subagent_type": "Plan", "description": "plan it", "prompt": "Plan X"})
    t.tool_result(call, [{"type": "text", "text": "done"}], extra={"agentId": "a1b2", "status": "completed"})
    [c] = calls_of(t, tmp_path)
    assert c.spawned_agent_id == "a1b2" and c.agent_id is None and c.summary == "[Plan] plan it"


# --- hostile tool output ---------------------------------------------------------------------


def test_an_exit_code_of_more_digits_than_python_prints_is_no_exit_code_and_no_crash(tmp_path: Path):
    t = Transcript()
    call = t.tool_use("Bash", {"command": "x"})
    t.tool_result(call, "Exit code " + "9" * 4301 + "\nboom", is_error=True)
    [c] = calls_of(t, tmp_path)
    assert c.failed and c.exit_code is None


def test_seven_uses_of_one_id_are_seven_calls_paired_in_order_so_no_failure_is_hidden(tmp_path: Path):
    t = Transcript()
    for n in range(7):
        t.tool_use("Bash", {"command": f"step {n}"}, call_id="toolu_same")
        if n in (2, 5):
            t.tool_result("toolu_same", f"Exit code {n}\nstep {n} failed", is_error=True)
        else:
            t.tool_result("toolu_same", f"step {n} ok")
    calls = calls_of(t, tmp_path)
    assert [c.summary for c in calls] == [f"step {n}" for n in range(7)]
    assert [(c.summary, c.exit_code, c.error) for c in calls if c.failed] == [
        ("step 2", 2, "step 2 failed"),
        ("step 5", 5, "step 5 failed"),
    ]


def test_a_tool_name_that_is_not_a_string_is_named_as_unknown(tmp_path: Path):
    t = Transcript()
    t.assistant({"type": "tool_use", "id": "toolu_obj", "name": {"x": 1}, "input": {"command": "x"}})
    [c] = calls_of(t, tmp_path)
    assert c.name == "?"


def test_a_call_the_person_declined_is_declined_not_failed(tmp_path: Path):
    t = Transcript(version="2.0.5")
    t.user("Commit the files")
    declined = t.tool_use("Bash", {"command": "git commit -m 'Add files'"})
    # 2.0.5 wrote a rejection with typed feedback as the feedback alone
    t.tool_result(
        declined,
        "please add transformer.js too first",
        is_error=True,
        extra="Error: please add transformer.js too first",
    )
    failed = t.tool_use("Bash", {"command": "git push"})
    t.tool_result(failed, "Exit code 1\nno upstream", is_error=True, extra="Error: Exit code 1\nno upstream")
    stopped = t.tool_use("Edit", {"file_path": "/a.py"})
    t.tool_result(stopped, "[Request interrupted by user for tool use]", is_error=True)
    calls = pair_tool_calls(read_entries(t.write(tmp_path / "s.jsonl")))
    assert [(c.status, c.failed) for c in calls] == [
        (STATUS_DECLINED, False),
        (STATUS_ERROR, True),
        (STATUS_DECLINED, False),
    ]
    assert calls[0].error == "please add transformer.js too first"
