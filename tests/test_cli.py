"""The CLI through its real entry point, in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from tests.support.cli import run, run_json
from tests.support.sessions import build

@pytest.fixture
def built(claude_root: Path):
    return build(claude_root)


def test_sessions_all_json(built):
    doc = run_json("sessions", "--all")
    assert doc["version"] == 1 and doc["kind"] == "sessions"
    by_id = {s["id"]: s for s in doc["sessions"]}
    cur = by_id[built.current.session_id]
    assert cur["first_prompt"] == "Please build the feature"
    assert cur["agents"] == 2 and cur["branch"] == "feat/kit" and cur["cwd"] == "/work/proj"
    assert cur["start"] < cur["end"] and cur["duration_s"] > 0
    assert by_id[built.legacy.session_id]["agents"] == 1


def test_sessions_of_the_current_project_and_limit(built, tmp_path: Path):
    proc = run("sessions", "--project", "/work/proj")
    assert proc.returncode == 0 and built.current.session_id in proc.stdout
    assert built.legacy.session_id not in proc.stdout
    assert len(run_json("sessions", "--all", "--limit", "1")["sessions"]) == 1
    missing = run("sessions", cwd=tmp_path)
    assert missing.returncode == 3 and "no Claude Code sessions" in missing.stderr


def test_show_text_and_json(built):
    text = run("show", built.current.session_id[:8])
    assert text.returncode == 0, text.stderr
    assert "ls /nonexistent-dir" in text.stdout and "FAILED" in text.stdout
    doc = run_json("show", built.current.session_id)
    assert doc["tools"]["Bash"] == 2 and len(doc["compactions"]) == 1
    assert [a["status"] for a in doc["agents"]] == ["ok", "failed"]
    assert doc["tokens"]["messages"] > 0


def test_events_with_filters(built):
    doc = run_json("events", built.current.session_id)
    names = [(e["name"], e["agent_id"]) for e in doc["events"]]
    assert names == [
        ("Bash", None), ("Bash", None), ("Write", None), ("Read", None), ("Edit", None),
        ("Agent", None), ("Agent", None), ("Bash", built.worker_agent), ("ExitPlanMode", None),
    ]
    errors = run_json("events", built.current.session_id, "--errors")["events"]
    assert [(e["summary"], e["exit_code"], e["agent_id"]) for e in errors] == [
        ("ls /nonexistent-dir", 2, None), ("make check", 3, built.worker_agent)
    ]
    main_only = run_json("events", built.current.session_id, "--errors", "--main-only")["events"]
    assert [e["summary"] for e in main_only] == ["ls /nonexistent-dir"]
    agent_calls = run_json("events", built.current.session_id, "--tool", "agent")["events"]
    assert [e["spawned_agent_id"] for e in agent_calls] == [built.plan_agent, built.worker_agent]
    text = run("events", built.current.session_id, "--errors").stdout
    assert "FAIL exit 2" in text and "No such file or directory" in text


def test_search(built):
    doc = run_json("search", "SENTINEL_failure", "--all")
    assert [(h["session_id"], h["agent_id"]) for h in doc["hits"]] == [(built.current.session_id, built.worker_agent)]
    assert run_json("search", "parser", "--all", "--tool", "Bash")["hits"][0]["agent_id"] == built.legacy_agent
    none = run("search", "zzzz-not-there", "--all")
    assert none.returncode == 0 and "No match" in none.stdout


def test_ambiguous_prefix_and_not_found_exit_codes(built, claude_root: Path):
    from tests.support.transcripts import Transcript

    t = Transcript("c0ffee00-9999-0000-0000-000000000000")
    t.user("x")
    t.write_session(claude_root)
    amb = run("show", "c0ffee00")
    assert amb.returncode == 4
    assert amb.stderr.count("\n") == 1 and "c0ffee00-1111" in amb.stderr and "c0ffee00-9999" in amb.stderr
    nf = run("show", "deadbeef")
    assert nf.returncode == 3 and nf.stderr.startswith("session-kit: no session matches")
    usage = run("sessions", "--limit", "0")
    assert usage.returncode == 2


def test_bad_input_never_gives_a_traceback(claude_root: Path, tmp_path: Path):
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_bytes(b"\x00\xff not json\n{\n" + b"[" * 5000 + b"\n")
    for args in (("show", str(garbage)), ("events", str(garbage)), ("show", str(tmp_path / "missing.jsonl"))):
        proc = run(*args)
        assert "Traceback" not in proc.stderr
        assert proc.returncode in (0, 3)
    assert "skipped" in run("show", str(garbage)).stderr
    assert run("show", str(tmp_path / "missing.jsonl")).returncode == 3
    assert run("sessions", "--all", "--claude-dir", str(tmp_path / "nope")).returncode == 3


def test_current_session_from_session_context(built):
    doc = run_json("show", "current", env={"SESSION_CONTEXT": f"session_id={built.legacy.session_id}"})
    assert doc["id"] == built.legacy.session_id


def test_doctor(built, claude_root: Path):
    proc = run("doctor", "--json")
    assert proc.returncode == 1  # nothing installed yet
    doc = json.loads(proc.stdout)
    assert doc["claude_root"] == str(claude_root) and doc["sessions"] == 2 and doc["projects"] == 2
    assert doc["installed"] == [] and doc["ok"] is False
    assert "session-kit install" in run("doctor").stdout


def test_help_documents_exit_codes():
    out = run("--help").stdout
    assert "Exit codes" in out and "4 ambiguous" in out
    assert "Exit codes" in run("search", "--help").stdout
