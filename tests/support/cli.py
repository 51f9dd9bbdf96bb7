"""Running `session-kit`: in this process through click's test runner (`invoke`), or through
the real entry point in a subprocess (`run`), for the few tests that need the real process
(exit codes, stderr, a closed pipe, the installed script)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner, Result

from session_kit.cli import main

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


def invoke(*args: str, env: dict[str, str] | None = None, input: str | None = None) -> Result:
    """`session-kit ARGS` in this process (fast): what most CLI tests use. The result has
    `exit_code`, `stdout` and `stderr` apart."""
    return CliRunner().invoke(main, list(args), env=env, input=input, prog_name="session-kit")


def invoke_json(*args: str, **kw) -> dict:
    result = invoke(*args, "--json", **kw)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)
