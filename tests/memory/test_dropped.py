"""What a compaction dropped: the memory just before each compaction against the client's
summary of it; what the summary does not mention is listed."""

from __future__ import annotations

from pathlib import Path

from session_kit.memory.capture import memories_at_compactions
from session_kit.memory.dropped import lost
from tests.support.cli import invoke, invoke_json
from tests.support.transcripts import Transcript

REAL = Path(__file__).parents[1] / "fixtures" / "real"


def compacted_session() -> Transcript:
    t = Transcript()
    t.user("Port the tokenizer to Rust. Never touch the migrations folder.")
    write = t.tool_use("Write", {"file_path": "/p/src/tokenizer.rs", "content": "fn main() {}\n"})
    t.tool_result(write, "ok", extra={"type": "create"})
    t.bash("cargo test tokenizer_tests", exit_code=101, stderr="error: test failed, to rerun pass `--lib`")
    t.compact("Summary: the person asked to port the tokenizer to Rust; tokenizer.rs was written.")
    t.user("Now the lexer")
    t.compact("Summary: nothing of note.")
    return t


def test_each_compaction_is_compared_with_the_memory_just_before_it(tmp_path: Path):
    pairs = memories_at_compactions(str(compacted_session().write(tmp_path / "s.jsonl")), keeps=lambda p: True)
    assert [c["line"] for _, c in pairs] == [6, 9]
    first, second = (lost(memory, compaction["summary"]) for memory, compaction in pairs)
    assert first[0] == [
        ("first request", "Port the tokenizer to Rust. Never touch the migrations folder."),  # half of it
        ("standing instruction", "Never touch the migrations folder."),
        ("open failure", "cargo test tokenizer_tests"),
    ]
    assert first[1] == 4  # the request, its instruction, the file, the failure
    assert ("latest request", "Now the lexer") in second[0] and ("changed file", "/p/src/tokenizer.rs") in second[0]


def test_a_summary_that_names_a_fact_keeps_it():
    memory = {
        "requests": {"first": {"text": "Fix the comma split in mytok", "line": 1}, "constraints": []},
        "files": {"/p/mytok.py": {}},
        "failures": [{"tool": "Bash", "command": "python3 -m pytest tests/test_mytok.py -q"}],
    }
    summary = "We fixed the comma split in mytok.py; pytest on test_mytok.py still fails."
    assert lost(memory, summary) == ([], 3)


def test_memory_dropped_lists_what_the_real_clients_summary_lost():
    result = invoke("memory", "266f", "--dropped", "--claude-dir", str(REAL))
    assert result.exit_code == 0, result.stderr
    text = result.stdout
    assert "compaction 1 (manual, transcript line " in text
    assert "- open failure: ls /nonexistent-dir" in text
    assert "changed file" not in text  # the summary names notes.txt
    doc = invoke_json("memory", "266f", "--dropped", "--claude-dir", str(REAL))
    assert doc["kind"] == "memory-dropped" and doc["compactions"][0]["summary_source"] == "transcript"
    assert {"kind": "open failure", "text": "ls /nonexistent-dir"} in doc["compactions"][0]["lost"]


def test_memory_dropped_on_a_session_never_compacted(tmp_path: Path):
    t = Transcript()
    t.user("hello")
    root = tmp_path / "claude"
    path = root / "projects" / "-work-proj" / f"{t.session_id}.jsonl"
    path.parent.mkdir(parents=True)
    t.write(path)
    result = invoke("memory", t.session_id, "--dropped", "--claude-dir", str(root))
    assert result.exit_code == 0 and "has not been compacted" in result.stdout


def test_the_summary_the_postcompact_hook_kept_is_the_one_compared(tmp_path: Path):
    from session_kit.memory.capture import capture_session
    from session_kit.memory.settings import MemorySettings
    from session_kit.state.scratch import SessionScratch

    t = compacted_session()
    root = tmp_path / "claude"
    path = root / "projects" / "-work-proj" / f"{t.session_id}.jsonl"
    path.parent.mkdir(parents=True)
    t.write(path)
    state = tmp_path / "state"
    ref = invoke_json("memory", t.session_id, "--claude-dir", str(root), env={"SESSION_KIT_HOME": str(state)})
    scratch = SessionScratch.for_session(t.session_id, project_key="-work-proj", root=str(state))
    assert ref["scratch_dir"] == scratch.path
    hook_summary = "Never touch the migrations folder; cargo test tokenizer_tests fails."
    capture_session(scratch.path, str(path), MemorySettings(), summary=hook_summary)
    doc = invoke_json(
        "memory", t.session_id, "--dropped", "--claude-dir", str(root), env={"SESSION_KIT_HOME": str(state)}
    )
    first, second = doc["compactions"]
    assert (first["summary_source"], second["summary_source"]) == ("transcript", "hook")  # the latest's
    assert [item["kind"] for item in second["lost"]] == ["first request", "latest request", "changed file"]


def test_a_summary_that_tells_tasks_agents_and_tests_together_keeps_them():
    memory = {
        "tasks": {
            "items": [
                {"id": "1", "subject": "Phase 1: Core data model - roadmap.py", "status": "completed"},
                {"id": "2", "subject": "Update documentation references", "status": "completed"},
                {"id": "3", "subject": "Simplify ObjectivePlansScreen._fetch_plans", "status": "completed"},
                {"id": "9", "subject": "Run CI and submit PR", "status": "pending"},
            ]
        },
        "agents": [{"type": "Explore", "description": "Find remaining old field refs", "status": "finished"}],
        "failures": [
            {
                "tool": "agent",
                "key": "agent: devrun test: test_migrate_v2_to_v4",
                "command": 'test_migrate_v2_to_v4 (devrun agent "Run fast CI checks" reported)',
            }
        ],
    }
    summary = (
        "All implementation tasks (Tasks #1-#2) are completed; Phase 1 too. Updated `_fetch_plans`. "
        "The explore agent confirmed nothing is left. `test_migrate_v2_to_v4` still fails."
    )
    assert lost(memory, summary) == ([("task (pending)", "Run CI and submit PR")], 5)


def test_a_spent_plan_is_not_called_lost():
    memory = {
        "plan": {"status": "approved", "path": "/h/.claude/plans/old-plan.md", "line": 10},
        "tracker": {"program": "bd", "shown": ["x-1"], "current": "x-1.3", "claimed_line": 90},
    }
    assert lost(memory, "Working on x-1.3.") == ([], 0)
