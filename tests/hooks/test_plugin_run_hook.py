"""The plugin's `hooks/run-hook`: the real interpreter behind a version manager's shim is
resolved once and started directly, and resolved again when it is gone."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).parents[2]
RUN_HOOK = REPO / "hooks" / "run-hook"


@pytest.fixture
def shimmed(tmp_path: Path) -> tuple[dict[str, str], Path, Path]:
    """A PATH whose python3 is a shim (as pyenv's) that logs each time it runs; the env for a
    plugin hook; the log; the cache file."""
    shims = tmp_path / "shims"
    shims.mkdir()
    log = tmp_path / "shim.log"
    shim = shims / "python3"
    shim.write_text(f'#!/bin/sh\necho ran >> "{log}"\nexec "{sys.executable}" "$@"\n')
    shim.chmod(0o755)
    data = tmp_path / "plugin-data"
    env = {
        "PATH": f"{shims}:/usr/bin:/bin",
        "HOME": os.environ["HOME"],
        "CLAUDE_PLUGIN_DATA": str(data),
        "SESSION_KIT_HOME": str(tmp_path / "state"),
    }
    return env, log, data / "python3-path"


def hook(env: dict[str, str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    event = {
        "session_id": "5e550000-0000-0000-0000-00000000aaaa",
        "transcript_path": str(tmp_path / "t.jsonl"),
        "cwd": str(tmp_path),
        "hook_event_name": "UserPromptSubmit",
        "prompt": "hello",
    }
    return subprocess.run(
        [str(RUN_HOOK), "user-prompt-submit"],
        input=json.dumps(event),
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def runs(log: Path) -> int:
    return len(log.read_text().splitlines()) if log.exists() else 0


def test_the_shim_runs_once_then_the_real_interpreter_is_started_directly(shimmed, tmp_path: Path):
    env, log, cache = shimmed
    for _ in range(3):
        assert hook(env, tmp_path).returncode == 0
    assert runs(log) == 1
    assert Path(cache.read_text().strip()).resolve() == Path(sys.executable).resolve()


def test_an_interpreter_that_is_gone_is_resolved_again(shimmed, tmp_path: Path):
    env, log, cache = shimmed
    cache.parent.mkdir(parents=True)
    cache.write_text("/nonexistent/python3.99\n")
    proc = hook(env, tmp_path)
    assert proc.returncode == 0 and runs(log) == 1 and "/nonexistent" not in cache.read_text()


def test_without_any_python_the_hook_says_so_and_exits_0(tmp_path: Path):
    env = {"PATH": str(tmp_path), "HOME": os.environ["HOME"], "CLAUDE_PLUGIN_DATA": str(tmp_path / "d")}
    proc = subprocess.run(
        ["/bin/sh", str(RUN_HOOK), "session-start"], input="{}", capture_output=True, text=True, env=env
    )
    assert proc.returncode == 0 and "install Python 3.10+" in proc.stderr
