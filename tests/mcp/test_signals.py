"""`session-kit mcp` ends at once on SIGINT, as Claude Code first asks it to (then SIGTERM
100 ms later), with no traceback, while its stdin is still open."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path

from .client import EXE, session_env

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
}


def test_sigint_ends_the_server_at_once_without_a_traceback(claude_root: Path):
    server = subprocess.Popen(
        [str(EXE), "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**session_env(claude_root), "PATH": "/usr/bin:/bin"},
    )
    try:
        server.stdin.write(json.dumps(INITIALIZE).encode() + b"\n")
        server.stdin.flush()
        assert b'"id":1' in server.stdout.readline().replace(b" ", b"")  # up and answering
        asked = time.monotonic()
        server.send_signal(signal.SIGINT)
        server.wait(timeout=10)
        assert time.monotonic() - asked < 1.0
        assert b"Traceback" not in server.stderr.read()
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
