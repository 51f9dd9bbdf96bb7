"""Running the kit's real `session-kit` entry point in a subprocess, for the few tests that
need the real process (exit codes, stderr, the installed script)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

EXE = Path(sys.executable).with_name("session-kit")


def run(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    command = [str(EXE)] if EXE.exists() else [sys.executable, "-m", "session_kit"]
    return subprocess.run(
        [*command, *args], capture_output=True, text=True, cwd=cwd, env={**os.environ, **(env or {})}, timeout=60
    )


def run_json(*args: str, **kw) -> dict:
    proc = run(*args, "--json", **kw)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)
