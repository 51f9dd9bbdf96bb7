"""Symlink loops in the Claude root (`a -> b -> a`, a link to a folder above it) in
`projects/`, in a project, and as `subagents/workflows`: every command skips them with a
note and reads the rest; nothing is listed twice."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.sessions import Built, build

EXE = Path(sys.executable).with_name("session-kit")


@pytest.fixture
def looped(claude_root: Path) -> Built:
    built = build(claude_root)
    projects = claude_root / "projects"
    project = next(projects.glob(f"*/{built.current.session_id}.jsonl")).parent
    subagents = project / built.current.session_id / "subagents"
    for where in (projects, project, subagents):
        os.symlink("loop-b", where / "loop-a")
        os.symlink("loop-a", where / "loop-b")
        os.symlink("0ddba11", where / "0ddba11")  # named like a session's folder
    os.symlink(".", projects / "again")
    os.symlink(str(projects), project / "1ace0000-0000-4000-8000-000000000000")
    (subagents / "workflows").mkdir(exist_ok=True)
    os.symlink("..", subagents / "workflows" / "run-up")
    return built


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(EXE), *args], capture_output=True, text=True, timeout=120, cwd=cwd)


COMMANDS = [
    ["sessions", "--all", "--json"],
    ["search", "SENTINEL_FAILURE", "--all", "--json"],
    ["search", "SENTINEL_FAILURE", "--all", "--scan", "--json"],
    ["usage", "--json"],
    ["usage", "--no-index", "--json"],
    ["export", "--output-dir", "{tmp}/export"],
    ["show", "{sid}", "--json"],
    ["events", "{sid}", "--json"],
    ["info", "{sid}", "--json"],
    ["debug-agent", "{sid}", "--json"],
    ["view", "{sid}", "-o", "{tmp}/view.html"],
    ["preprocess", "{sid}", "--stdout"],
]


@pytest.mark.parametrize("command", COMMANDS, ids=[" ".join(c[:2]) for c in COMMANDS])
def test_every_command_skips_symlink_loops_with_a_note(looped: Built, command: list[str], tmp_path: Path):
    args = [a.format(tmp=tmp_path, sid=looped.current.session_id) for a in command]
    proc = run(*args, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr
    assert "symlink loop" in proc.stderr


def test_a_link_back_up_lists_no_session_or_agent_twice(looped: Built, tmp_path: Path):
    found = json.loads(run("search", "SENTINEL_FAILURE", "--all", "--json", cwd=tmp_path).stdout)
    assert found["total"] == 1
    info = json.loads(run("info", looped.current.session_id, "--json", cwd=tmp_path).stdout)
    agents = [a["agent_id"] for a in info["agents"]] if "agents" in info else []
    assert len(agents) == len(set(agents))
