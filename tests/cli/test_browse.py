"""`sessions`, `show`, `events` and `search`, in process."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli import invoke, invoke_json


def test_sessions_all_lists_every_project_with_each_sessions_overview(built):
    doc = invoke_json("sessions", "--all")
    assert doc["version"] == 2 and doc["kind"] == "sessions"
    by_id = {s["id"]: s for s in doc["sessions"]}
    cur = by_id[built.current.session_id]
    assert cur["first_prompt"] == "Please build the feature"
    assert cur["agents"] == 2 and cur["branch"] == "feat/kit" and cur["cwd"] == "/work/proj"
    assert cur["start"] < cur["end"] and cur["duration_s"] > 0
    assert by_id[built.legacy.session_id]["agents"] == 1


def test_sessions_with_a_project_lists_only_that_projects_sessions(built):
    result = invoke("sessions", "--project", "/work/proj")
    assert result.exit_code == 0 and built.current.session_id in result.stdout
    assert built.legacy.session_id not in result.stdout


def test_sessions_limit_keeps_that_many(built):
    assert len(invoke_json("sessions", "--all", "--limit", "1")["sessions"]) == 1


def test_sessions_outside_any_project_is_not_found(built, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)
    missing = invoke("sessions")
    assert missing.exit_code == 3 and "no Claude Code sessions" in missing.stderr


def test_sessions_project_and_all_together_is_a_usage_error(built):
    result = invoke("sessions", "--all", "--project", "/work/proj")
    assert result.exit_code == 2 and result.stderr == "session-kit: --project and --all exclude each other\n"


def test_show_text_names_the_failed_call_and_the_failed_agent(built):
    text = invoke("show", built.current.session_id[:8])
    assert text.exit_code == 0, text.stderr
    assert "ls /nonexistent-dir" in text.stdout and "FAILED" in text.stdout


def test_show_json_counts_tools_compactions_agents_and_tokens(built):
    doc = invoke_json("show", built.current.session_id)
    assert doc["tools"]["Bash"] == 2 and len(doc["compactions"]) == 1
    assert [a["status"] for a in doc["agents"]] == ["ok", "failed"]
    assert doc["tokens"]["messages"] > 0


def test_events_lists_the_main_conversations_and_the_agents_calls_in_order(built):
    doc = invoke_json("events", built.current.session_id)
    names = [(e["name"], e["agent_id"]) for e in doc["events"]]
    assert names == [
        ("Bash", None),
        ("Bash", None),
        ("Write", None),
        ("Read", None),
        ("Edit", None),
        ("Agent", None),
        ("Agent", None),
        ("Bash", built.worker_agent),
        ("ExitPlanMode", None),
    ]


def test_events_errors_keeps_only_failed_calls_with_their_exit_codes(built):
    errors = invoke_json("events", built.current.session_id, "--errors")["events"]
    assert [(e["summary"], e["exit_code"], e["agent_id"]) for e in errors] == [
        ("ls /nonexistent-dir", 2, None),
        ("make check", 3, built.worker_agent),
    ]


def test_events_main_only_leaves_out_the_agents_calls(built):
    main_only = invoke_json("events", built.current.session_id, "--errors", "--main-only")["events"]
    assert [e["summary"] for e in main_only] == ["ls /nonexistent-dir"]


def test_events_tool_filter_ignores_case(built):
    agent_calls = invoke_json("events", built.current.session_id, "--tool", "agent")["events"]
    assert [e["spawned_agent_id"] for e in agent_calls] == [built.plan_agent, built.worker_agent]


def test_events_text_shows_the_exit_code_and_the_error(built):
    text = invoke("events", built.current.session_id, "--errors").stdout
    assert "FAIL exit 2" in text and "No such file or directory" in text


def test_search_finds_text_in_agent_logs(built):
    doc = invoke_json("search", "SENTINEL_failure", "--all")
    assert [(h["session_id"], h["agent_id"]) for h in doc["hits"]] == [(built.current.session_id, built.worker_agent)]


def test_search_tool_filter_looks_only_at_that_tools_fields(built):
    assert invoke_json("search", "parser", "--all", "--tool", "Bash")["hits"][0]["agent_id"] == built.legacy_agent


def test_search_without_a_hit_says_so_and_exits_0(built):
    none = invoke("search", "zzzz-not-there", "--all")
    assert none.exit_code == 0 and "No match" in none.stdout


def test_search_for_nothing_is_a_usage_error(built):
    result = invoke("search", "  ", "--all")
    assert result.exit_code == 2 and result.stderr == "session-kit: empty query\n"


def test_garbage_lines_are_skipped_and_said_so(claude_root: Path, tmp_path: Path):
    garbage = tmp_path / "garbage.jsonl"
    entry = b'{"type":"user","sessionId":"garbage","message":{"role":"user","content":"hi"}}\n'
    garbage.write_bytes(b"\x00\xff not json\n{\n" + b"[" * 5000 + b"\n" + entry)
    for command in ("show", "events"):
        result = invoke(command, str(garbage))
        assert result.exit_code == 0 and result.exception is None
    assert "skipped" in invoke("show", str(garbage)).stderr


def test_a_file_of_garbage_alone_is_not_a_transcript(claude_root: Path, tmp_path: Path):
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_bytes(b"\x00\xff not json\n{\n" + b"[" * 5000 + b"\n")
    result = invoke("show", str(garbage))
    assert result.exit_code == 3 and result.stderr.startswith("session-kit: not a transcript")


def test_a_missing_transcript_file_is_not_found(claude_root: Path, tmp_path: Path):
    assert invoke("show", str(tmp_path / "missing.jsonl")).exit_code == 3


def test_a_missing_claude_root_is_not_found(tmp_path: Path):
    assert invoke("sessions", "--all", "--claude-dir", str(tmp_path / "nope")).exit_code == 3


def test_show_prints_a_compactions_summary_without_the_clients_framing():
    real = Path(__file__).parents[1] / "fixtures" / "real"
    text = invoke("show", "266f", "--claude-dir", str(real)).stdout
    assert "(manual)  SCENARIO-SUMMARY: the session ran Bash" in text
    assert "This session is being continued" not in text
