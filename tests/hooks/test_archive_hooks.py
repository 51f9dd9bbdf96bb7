"""The archive through the hooks as the client runs them: SessionEnd (and a resumed start)
copy the session into the archive in a child the client does not wait for; never an error."""

from __future__ import annotations

import os
import time
from pathlib import Path

from session_kit.archive import generations, layout
from tests.hooks.test_handlers import hook
from tests.support.sessions import build


def _settled(state: str, rel: str, size: int) -> bool:
    """Whether the background copy reached `size` bytes of `rel` within a bounded wait."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        entry = layout.archived(layout.base_dir(state, os.environ["CLAUDE_CONFIG_DIR"]), rel)
        if entry is not None and entry.size == size:
            return True
        time.sleep(0.05)
    return False


def _end(transcript: Path, sid: str, **env: str):
    return hook(
        "session-end",
        {"session_id": sid, "cwd": "/work/proj", "transcript_path": str(transcript), "reason": "other"},
        env=env,
    )


def test_session_end_archives_the_session_and_its_agents_in_the_background(claude_root: Path):
    built = build(claude_root)
    sid = built.current.session_id
    transcript = claude_root / "projects" / "-work-proj" / f"{sid}.jsonl"
    done = _end(transcript, sid)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    state = os.environ["SESSION_KIT_HOME"]
    assert _settled(state, f"projects/-work-proj/{sid}.jsonl", transcript.stat().st_size)
    agent = f"projects/-work-proj/{sid}/subagents/agent-{built.worker_agent}.jsonl"
    assert _settled(state, agent, (claude_root / agent).stat().st_size)
    assert (
        generations.read_original(layout.base_dir(state, str(claude_root)), f"projects/-work-proj/{sid}.jsonl")
        == transcript.read_bytes()
    )


def test_a_resumed_start_archives_what_was_added(claude_root: Path):
    built = build(claude_root)
    sid = built.current.session_id
    transcript = claude_root / "projects" / "-work-proj" / f"{sid}.jsonl"
    state = os.environ["SESSION_KIT_HOME"]
    _end(transcript, sid)
    assert _settled(state, f"projects/-work-proj/{sid}.jsonl", transcript.stat().st_size)
    with transcript.open("ab") as f:
        f.write(b'{"type":"user","message":{"role":"user","content":"again"}}\n')
    event = {"session_id": sid, "cwd": "/work/proj", "source": "resume", "transcript_path": str(transcript)}
    assert hook("session-start", event).returncode == 0
    assert _settled(state, f"projects/-work-proj/{sid}.jsonl", transcript.stat().st_size)


def test_archiving_turned_off_archives_nothing(claude_root: Path):
    built = build(claude_root)
    sid = built.current.session_id
    transcript = claude_root / "projects" / "-work-proj" / f"{sid}.jsonl"
    assert _end(transcript, sid, SESSION_KIT_ARCHIVE="off").returncode == 0
    time.sleep(0.3)
    assert (
        layout.archived(
            layout.base_dir(os.environ["SESSION_KIT_HOME"], str(claude_root)), f"projects/-work-proj/{sid}.jsonl"
        )
        is None
    )


def test_a_transcript_outside_a_claude_root_is_logged_never_an_error(tmp_path: Path):
    odd = tmp_path / "elsewhere.jsonl"
    odd.write_text('{"type":"user"}\n')
    done = _end(odd, "s-odd")
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    log = Path(os.environ["SESSION_KIT_HOME"]) / "logs" / "hooks.log"
    assert "archive skipped" in log.read_text()


def test_session_end_with_no_transcript_file_does_nothing(tmp_path: Path):
    done = _end(tmp_path / "gone.jsonl", "s-gone")
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
