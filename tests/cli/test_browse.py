"""`sessions`, `show`, `events` and `search`, in process."""

from __future__ import annotations

import os
from datetime import datetime, timezone
from pathlib import Path

import pytest

from tests.support.cli import invoke, invoke_json
from tests.support.transcripts import Transcript


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
    assert "ls /nonexistent-dir" in text.stdout and "finished, 1 failed call" in text.stdout


def test_show_json_counts_tools_compactions_agents_and_tokens(built):
    doc = invoke_json("show", built.current.session_id)
    assert doc["tools"]["Bash"] == 2 and len(doc["compactions"]) == 1
    # status: how each agent ended; a failed tool call inside one is counted apart
    assert [(a["status"], a["failures"]) for a in doc["agents"]] == [("finished", 0), ("finished", 1)]
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


def _dated(root: Path, sid: str, day: int, *, prompt: str = "do it", mtime: float | None = None) -> None:
    t = Transcript(sid, start=datetime(2026, 11, day, 9, 0, 0, tzinfo=timezone.utc))
    t.user(prompt)
    t.say("ok")
    path = t.write_session(root)
    if mtime is not None:
        os.utime(path, (mtime, mtime))


OLD = "01d00000-0000-0000-0000-000000000001"
NEW = "0e100000-0000-0000-0000-000000000002"


def test_sessions_are_sorted_by_last_activity_not_by_file_mtime(claude_root: Path):
    # a plain copy gave the old session the newest mtime
    _dated(claude_root, NEW, 20, mtime=1_000_000_000)
    _dated(claude_root, OLD, 2, mtime=2_000_000_000)
    doc = invoke_json("sessions", "--all")
    assert [s["id"] for s in doc["sessions"]] == [NEW, OLD]
    out = invoke("sessions", "--all").stdout.splitlines()
    assert out[0].startswith("SESSION") and "LAST ACTIVE" in out[0]
    assert out[1].startswith(f"{NEW}  2026-11-20 09:00:02Z")


def test_a_session_with_no_time_shows_none_and_is_listed_last(claude_root: Path):
    _dated(claude_root, OLD, 2, mtime=1_000_000_000)
    timeless = claude_root / "projects" / "-work-proj" / "7e000000-0000-0000-0000-000000000003.jsonl"
    timeless.write_text('{"type":"summary","summary":"Only a title","leafUuid":"elsewhere"}\n')
    os.utime(timeless, (2_000_000_000, 2_000_000_000))  # the newest mtime: never shown, never first
    doc = invoke_json("sessions", "--all")
    assert [(s["id"], s["end"]) for s in doc["sessions"]][-1] == (timeless.stem, None)
    header, *rows = invoke("sessions", "--all", env={"COLUMNS": "200"}).stdout.splitlines()
    assert [row.split()[0] for row in rows] == [OLD, timeless.stem]
    mtime_shown = datetime.fromtimestamp(2_000_000_000, timezone.utc).strftime("%Y-%m-%d")
    assert rows[-1].split()[1] == "-" and mtime_shown not in rows[-1]


def test_sessions_since_and_until_choose_by_time(claude_root: Path):
    _dated(claude_root, NEW, 20)
    _dated(claude_root, OLD, 2)
    assert [s["id"] for s in invoke_json("sessions", "--all", "--since", "2026-11-10")["sessions"]] == [NEW]
    assert [s["id"] for s in invoke_json("sessions", "--all", "--until", "2026-11-10")["sessions"]] == [OLD]
    bad = invoke("sessions", "--all", "--since", "last tuesday")
    assert bad.exit_code == 2 and "'last tuesday' is not a date" in bad.stderr


def test_sessions_all_has_a_project_column_and_a_project_listing_has_none(claude_root: Path):
    _dated(claude_root, NEW, 20)
    assert "PROJECT" in invoke("sessions", "--all").stdout.splitlines()[0]
    assert "PROJECT" not in invoke("sessions", "--project", "/work/proj").stdout.splitlines()[0]


def test_sessions_rows_fit_the_terminal_cutting_the_prompt_never_the_id(claude_root: Path):
    _dated(claude_root, NEW, 20, prompt="a long prompt " * 20)
    for width in (80, 120):
        lines = invoke("sessions", "--all", env={"COLUMNS": str(width)}).stdout.splitlines()
        assert all(len(line) <= width for line in lines), (width, lines)
        assert lines[1].startswith(NEW) and "a long" in lines[1] and lines[1].endswith("…")


def test_sessions_columns_stay_aligned_whatever_the_values(claude_root: Path):
    _dated(claude_root, NEW, 20)
    _dated(claude_root, OLD, 2, prompt="x")
    header, *rows = invoke("sessions", "--all", env={"COLUMNS": "200"}).stdout.splitlines()
    title_at = header.index("TITLE")
    assert all(row[title_at - 2 : title_at] == "  " and row[title_at] != " " for row in rows)


def test_sessions_marks_a_warmup_session(claude_root: Path):
    _dated(claude_root, NEW, 20, prompt="Warmup")
    assert invoke("sessions", "--all").stdout.splitlines()[1].endswith("(warmup)")


def test_show_caps_its_lists_with_a_count_of_the_rest_and_full_lists_all(claude_root: Path):
    t = Transcript(NEW)
    for n in range(30):
        t.user(f"request number {n}")
        t.say("ok")
    t.write_session(claude_root)
    capped = invoke("show", NEW).stdout
    assert "Requests (30):" in capped and "request number 19" in capped and "request number 20" not in capped
    assert "  … and 10 more (--full lists all)\n" in capped
    full = invoke("show", NEW, "--full").stdout
    assert "request number 29" in full and "more (--full" not in full


def test_show_says_one_call_not_one_calls(claude_root: Path):
    t = Transcript(NEW)
    t.user("go")
    t.bash("true", "")
    t.write_session(claude_root)
    assert "Tools (1 call): Bash 1" in invoke("show", NEW).stdout
