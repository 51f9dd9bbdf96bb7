from __future__ import annotations

from pathlib import Path

from tests.support.transcripts import Transcript

from session_kit.transcript.entries import read_entries
from session_kit.transcript.calls import STATUS_ERROR, STATUS_OK, STATUS_PENDING, pair_tool_calls
from session_kit.transcript.compactions import find_compactions, split_generations
from session_kit.transcript.tokens import TokenTally
from session_kit.transcript.tools import summarize_input


def calls_of(t: Transcript, tmp_path: Path):
    return pair_tool_calls(read_entries(t.write(tmp_path / "s.jsonl")))


def test_calls_pair_with_results_and_outcomes(tmp_path: Path):
    t = Transcript()
    ok = t.bash("echo hi", "hi\n")
    bad = t.bash("ls /nope", exit_code=2, stderr="ls: cannot access '/nope': No such file or directory")
    wrapped = t.tool_use("Edit", {"file_path": "/a.py", "old_string": "x", "new_string": "y"})
    t.tool_result(wrapped, "<tool_use_error>String to replace not found in file.</tool_use_error>", is_error=True)
    pending = t.tool_use("Read", {"file_path": "/b.py"})
    calls = calls_of(t, tmp_path)
    assert [c.id for c in calls] == [ok, bad, wrapped, pending]
    assert calls[0].status == STATUS_OK and calls[0].duration_s == 1.0
    assert calls[1].status == STATUS_ERROR and calls[1].exit_code == 2
    assert calls[1].error == "ls: cannot access '/nope': No such file or directory"
    assert calls[2].failed and calls[2].error == "String to replace not found in file."
    assert calls[3].status == STATUS_PENDING and calls[3].ended is None


def test_exit_code_failure_is_found_without_is_error(tmp_path: Path):
    t = Transcript(dialect="seed")
    call = t.tool_use("Bash", {"command": "make"})
    t.tool_result(call, [{"type": "text", "text": "Exit code 2\nmake: *** No rule"}])
    [c] = calls_of(t, tmp_path)
    assert c.failed and c.exit_code == 2 and c.error == "make: *** No rule"


def test_pairing_spans_split_assistant_lines_and_ignores_repeats(tmp_path: Path):
    t = Transcript()
    a = {"type": "tool_use", "id": "toolu_A", "name": "Bash", "input": {"command": "a"}}
    b = {"type": "tool_use", "id": "toolu_B", "name": "Bash", "input": {"command": "b"}}
    t.assistant({"type": "thinking", "thinking": "hm"}, a, b, message_id="msg_1")
    t.tool_result("toolu_B", "b out")
    t.tool_result("toolu_A", "a out")
    t.tool_result("toolu_A", "repeat")  # a resumed session can repeat a line
    t.tool_result("toolu_unknown", "orphan")
    calls = calls_of(t, tmp_path)
    assert [c.id for c in calls] == ["toolu_A", "toolu_B"]
    assert [c.output for c in calls] == ["a out", "b out"]


def test_agent_calls_learn_their_agent_id(tmp_path: Path):
    t = Transcript()
    call = t.tool_use("Agent", {"subagent_type": "Plan", "description": "plan it", "prompt": "Plan X"})
    t.tool_result(call, [{"type": "text", "text": "done"}], extra={"agentId": "a1b2", "status": "completed"})
    [c] = calls_of(t, tmp_path)
    assert c.spawned_agent_id == "a1b2" and c.agent_id is None and c.summary == "[Plan] plan it"


def test_input_summaries_per_tool():
    assert summarize_input("Bash", {"command": "ls  -la\n/tmp"}) == "ls -la /tmp"
    assert summarize_input("Read", {"file_path": "/a/b.py"}) == "/a/b.py"
    assert summarize_input("Write", {"file_path": "/a", "content": "héllo"}) == "/a (6 bytes)"
    assert summarize_input("Grep", {"pattern": "TODO", "path": "src"}) == "TODO in src"
    assert summarize_input("Glob", {"pattern": "**/*.py"}) == "**/*.py"
    assert summarize_input("Task", {"subagent_type": "Explore", "description": "look"}) == "[Explore] look"
    assert summarize_input("Agent", {"description": "d"}) == "[general-purpose] d"
    assert summarize_input("MysteryTool", {"b": 1, "a": 2}) == "keys: a, b"
    assert len(summarize_input("Bash", {"command": "x" * 1000})) == 160


def test_tokens_count_once_per_message_id(tmp_path: Path):
    t = Transcript()
    t.assistant({"type": "text", "text": "a"}, {"type": "text", "text": "b"}, {"type": "text", "text": "c"},
                usage={"input_tokens": 7, "output_tokens": 3})
    t.say("d")  # a second message with the builder's default usage
    tally = TokenTally()
    for e in read_entries(t.write(tmp_path / "s.jsonl")):
        tally.add(e)
    assert tally.messages == 2
    assert tally.input == 7 + 10 and tally.output == 3 + 5


def test_compactions_and_generations(tmp_path: Path):
    t = Transcript()
    t.user("first")
    t.compact("S1", trigger="auto", pre_tokens=150000)
    t.user("second")
    t.compact("S2")
    t.user("third")
    entries = list(read_entries(t.write(tmp_path / "s.jsonl")))
    comps = find_compactions(entries)
    assert [(c.trigger, c.pre_tokens, c.summary) for c in comps] == [("auto", 150000, "S1"), ("manual", 12345, "S2")]
    gens = split_generations(entries)
    assert [[e.text for e in g if e.is_user_prompt] for g in gens] == [["first"], ["second"], ["third"]]


def test_2025_summaries_count_as_compactions(tmp_path: Path):
    t = Transcript()
    t.summary_2025("what happened before")
    t.user("go on")
    comps = find_compactions(read_entries(t.write(tmp_path / "s.jsonl")))
    assert [(c.dialect, c.summary) for c in comps] == [("2025", "what happened before")]
