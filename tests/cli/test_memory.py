"""`session-kit memory`, in process, on real files."""

from __future__ import annotations

from pathlib import Path

from tests.support.cli import invoke, invoke_json

REAL = Path(__file__).parents[1] / "fixtures" / "real"


def test_memory_shows_what_would_be_restored_with_transcript_lines():
    result = invoke("memory", "266f", "--claude-dir", str(REAL))
    assert result.exit_code == 0, result.stderr
    text = result.stdout
    assert "SCENARIO-START: exercise the tools, two subagents and a plan" in text
    assert "Bash: ls /nonexistent-dir → exit code 2 (transcript line 28)" in text
    assert "- notes.txt (created; 2 changes)" in text and "    /tmp/real-fixture/project" in text
    assert "1. Write notes.txt" in text  # the proposed plan
    assert "characters of the 8400 the restore may use" in text


def test_memory_json_shape_and_saved_only(monkeypatch):
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(REAL))
    assert invoke("scratch", "path", "--session", "266f").exit_code == 0  # a session the kit's hooks know
    doc = invoke_json("memory", "266f", "--claude-dir", str(REAL))
    assert doc["kind"] == "memory" and doc["session_id"].startswith("266f")
    assert doc["settings"] == {"capture": True, "leave_out": [], "source": "default", "problems": []}
    assert doc["memory"]["failures"][0]["exit_code"] == 2 and "pending" not in doc["memory"]
    assert doc["restored_chars"] == len(doc["restored"]) <= doc["limit"]
    again = invoke_json("memory", "266f", "--saved", "--claude-dir", str(REAL))
    assert again["memory"]["offset"] == doc["memory"]["offset"] and again["memory"]["captures"] == 1


def test_memory_with_capture_off_says_so(monkeypatch):
    monkeypatch.setenv("SESSION_KIT_MEMORY", "off")
    result = invoke("memory", "266f", "--claude-dir", str(REAL))
    assert "Memory capture is off (env)" in result.stdout and "SCENARIO-START" not in result.stdout


def test_memory_of_a_session_merely_looked_at_writes_no_scratch_dir(monkeypatch):
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(REAL))
    doc = invoke_json("memory", "266f", "--claude-dir", str(REAL))
    assert doc["memory"]["failures"][0]["exit_code"] == 2  # captured all the same
    assert not Path(doc["scratch_dir"]).exists()
    assert "266f" not in invoke("scratch", "list").stdout
