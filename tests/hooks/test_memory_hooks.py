"""The working memory through the hooks as the client runs them: captured at PreCompact and
PostCompact, put back once at the next SessionStart, never an error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from session_kit.state.root import locked
from tests.hooks.test_handlers import context_of, hook, start
from tests.support.transcripts import Transcript

SID = "0b0517bb-6500-41fb-bb47-c24234dda094"


@pytest.fixture
def state_root(isolated_home: Path) -> Path:
    import os

    return Path(os.environ["SESSION_KIT_HOME"])


@pytest.fixture
def env_file(tmp_path: Path) -> Path:
    path = tmp_path / "hook-env.sh"
    path.write_text("")
    return path


@pytest.fixture
def transcript(tmp_path: Path) -> Path:
    t = Transcript(SID)
    t.user("Make the importer skip blank rows (ticket IMP-12)")
    t.bash("python -m pytest tests/test_importer.py", exit_code=1, stderr="E   KeyError: 'name'\n1 failed")
    return t.write(tmp_path / f"{SID}.jsonl")


def event(transcript: Path, **extra) -> dict:
    return {"session_id": SID, "cwd": "/work/proj", "transcript_path": str(transcript), **extra}


def scratch_of(state_root: Path) -> Path:
    return state_root / "projects" / "-work-proj" / "sessions" / SID


def settled(memory_file: Path) -> Path:
    """`memory_file` once the capture the hook left running in the background is done (the
    hook hands its lock to that process)."""
    with locked(str(memory_file), timeout=30):
        return memory_file


def test_pre_compact_captures_and_the_compact_start_restores_once(state_root, env_file, transcript):
    start(SID, env_file)
    done = hook("pre-compact", event(transcript, trigger="auto", hook_event_name="PreCompact"))
    assert done.returncode == 0 and done.stderr == b""
    assert (
        json.loads(settled(scratch_of(state_root) / "memory.json").read_text())["offset"] == transcript.stat().st_size
    )
    text = context_of(start(SID, env_file, source="compact"))
    assert "ticket IMP-12" in text and "python -m pytest tests/test_importer.py" in text and "KeyError: 'name'" in text
    assert len(text) < 9000
    assert "IMP-12" not in context_of(start(SID, env_file, source="resume"))


def test_post_compact_keeps_the_clients_summary(state_root, env_file, transcript):
    start(SID, env_file)
    hook("pre-compact", event(transcript, trigger="manual"))
    assert hook("post-compact", event(transcript, compact_summary="The summary text")).returncode == 0
    memory = json.loads(settled(scratch_of(state_root) / "memory.json").read_text())
    assert memory["compactions"][-1]["client_summary"] == "The summary text"


def test_a_subagents_compaction_leaves_the_session_alone(state_root, env_file, transcript, tmp_path):
    start(SID, env_file)
    agent = Transcript(SID, agent_id="a1")
    agent.user("agent work")
    path = agent.write(tmp_path / "agent-a1.jsonl")
    assert hook("pre-compact", event(path, agent_id="a1", trigger="auto")).returncode == 0
    scratch = scratch_of(state_root)
    assert not (scratch / "memory.json").exists() and not (scratch / "restore-pending").exists()
    assert settled(scratch / "memory-agents" / "a1.json").is_file()


@pytest.mark.parametrize("where", ["missing", "folder", "binary"])
def test_a_missing_or_foreign_transcript_is_no_error(state_root, env_file, tmp_path, where):
    start(SID, env_file)
    path = tmp_path / "t.jsonl"
    if where == "folder":
        path.mkdir()
    elif where == "binary":
        path.write_bytes(bytes(range(256)) * 100)
    done = hook("pre-compact", event(path, trigger="auto"))
    assert done.returncode == 0 and done.stderr == b""
    assert context_of(start(SID, env_file, source="compact")).count("session-kit") >= 1


def test_capture_off_restores_only_what_was_saved_by_hand(state_root, env_file, transcript):
    start(SID, env_file)
    (state_root / "config.json").write_text(json.dumps({"memory": {"capture": False}}))
    hook("pre-compact", event(transcript, trigger="auto"))
    assert not settled(scratch_of(state_root) / "memory.json").exists()
    assert "IMP-12" not in context_of(start(SID, env_file, source="compact"))


def test_the_hook_does_not_wait_for_the_capture_and_the_start_after_it_does(state_root, env_file, tmp_path):
    start(SID, env_file)
    t = Transcript(SID)
    t.user("a request before a long history")
    for n in range(3000):
        t.bash(f"echo {n}", "x" * 2000)
    t.user("THE LATEST REQUEST")
    path = t.write(tmp_path / "big.jsonl")
    done = hook("pre-compact", event(path, trigger="auto"))
    assert done.returncode == 0 and done.stderr == b""
    # whatever the timing, the start after the compaction sees the whole capture
    assert "THE LATEST REQUEST" in context_of(start(SID, env_file, source="compact"))


def test_a_compaction_hooks_output_ends_before_its_capture_is_handed_over(state_root, env_file, transcript):
    """The capture's child is forked only once the hook has let go of its output: a child
    forked earlier held the client's pipe until it was scheduled (measured: PostCompact 30 ms
    of wall time for 18 ms of its own CPU on 2 busy cores)."""
    import os
    import select
    import subprocess
    import sys

    from tests.hooks.test_handlers import RUN

    start(SID, env_file)
    memory_file = scratch_of(state_root) / "memory.json"
    with locked(str(memory_file), timeout=30):  # a capture still running: the hand-over waits
        proc = subprocess.Popen(
            [sys.executable, "-I", "-S", str(RUN), "post-compact"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=os.environ.copy(),
        )
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(json.dumps(event(transcript, hook_event_name="PostCompact", trigger="manual")).encode())
        proc.stdin.close()
        readable, _, _ = select.select([proc.stdout], [], [], 10)
        assert readable and proc.stdout.read() == b""  # the end of its output, while it waits
        assert proc.poll() is None
    assert proc.wait(timeout=30) == 0
    assert json.loads(settled(memory_file).read_text())["offset"] == transcript.stat().st_size
