"""`session-kit agents --watch` as a person runs it: one report after the other into a pipe,
until interrupted, and out with exit 0."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.support.cli import EXE
from tests.support.transcripts import Transcript

SID = "5e55101d-aaaa-bbbb-cccc-000000000003"


def test_watch_prints_a_fresh_report_each_interval_until_interrupted(claude_root: Path):
    t = Transcript(SID, cwd="/work/proj")
    t.user("go")
    t.tool_use("Agent", {"subagent_type": "Explore", "description": "Look", "prompt": "look"})
    t.write_session(claude_root)
    a = Transcript(SID, agent_id="w1", start=t.clock)
    a.user("look")
    a.bash("ls", "x")
    a.write_subagent(claude_root, t)
    command = [str(EXE)] if EXE.exists() else [sys.executable, "-m", "session_kit"]
    proc = subprocess.Popen(
        [*command, "agents", SID, "--watch", "--interval", "0.2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ),
        # a test run started in the background (`cmd &`) ignores SIGINT, and its children would too
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    time.sleep(3.0)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert out.count(f"Session {SID}: 1 agent · 1 running") >= 2, out
    assert "\x1b[" not in out and "Traceback" not in err  # into a pipe: no redraw, no traceback
