"""Which sessions are running: the client's registry of live processes, or files just written."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from session_kit.claude.live import RECENT_S, running_sessions, written_recently


def test_a_session_is_running_while_its_registered_process_lives(tmp_path: Path):
    registry = tmp_path / "sessions"
    registry.mkdir()
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    (registry / f"{os.getpid()}.json").write_text(json.dumps({"pid": os.getpid(), "sessionId": "live"}))
    (registry / "1.json").write_text(json.dumps({"pid": int(gone.stdout), "sessionId": "crashed"}))
    (registry / "2.json").write_text("{half")
    (registry / "3.json").write_text(json.dumps({"pid": "x", "sessionId": "odd"}))
    assert running_sessions(tmp_path) == {"live"}
    assert running_sessions(tmp_path / "nowhere") == set()


def test_a_file_written_just_now_may_be_a_running_sessions(tmp_path: Path):
    path = tmp_path / "s.jsonl"
    path.write_text("{}\n")
    assert written_recently([path])
    old = time.time() - RECENT_S - 60
    os.utime(path, (old, old))
    assert not written_recently([path, tmp_path / "missing"])
