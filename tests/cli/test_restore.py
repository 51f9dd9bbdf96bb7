"""`session-kit restore`: a deleted session put back where `claude --resume` finds it."""

from __future__ import annotations

import json
import os
import time

from tests.support.cli import invoke
from tests.support.sessions import Built, delete_as_the_client_does


def test_restore_puts_the_session_back_where_resume_finds_it(built: Built):
    sid = built.current.session_id
    transcript = built.root / "projects" / "-work-proj" / f"{sid}.jsonl"
    original = transcript.read_bytes()
    old = time.time() - 90 * 86400
    os.utime(transcript, (old, old))
    invoke("archive")
    delete_as_the_client_does(built.root, sid)
    result = invoke("restore", sid)
    assert result.exit_code == 0, result.output
    assert transcript.read_bytes() == original
    assert time.time() - transcript.stat().st_mtime < 600, "restored files are new to the client's clean-up"
    assert f"cd /work/proj && claude --resume {sid}" in result.stdout
    agent = built.root / "projects" / "-work-proj" / sid / "subagents" / f"agent-{built.worker_agent}.jsonl"
    assert agent.is_file()
    again = json.loads(invoke("restore", sid, "--json").stdout)
    assert again["written"] == [] and len(again["kept"]) >= 3


def test_restore_of_a_session_never_archived_is_not_found(built: Built):
    result = invoke("restore", "ffffffff")
    assert result.exit_code == 3 and "no archived session" in result.stderr
    assert invoke("restore", "../x").exit_code == 2
