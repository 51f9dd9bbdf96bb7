"""The plugin's one environment per machine: in the user cache, found by the plugin's hooks and
commands and by its copy run from a shell alike; built in the background from the session's
start (said to the person, not the model); a command started meanwhile waits for that build."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from session_kit import __version__

REPO = Path(__file__).parents[2]
BIN = REPO / "bin" / "session-kit"


def env_dir(cache: Path) -> Path:
    """Where bin/session-kit keeps its environment under the user cache `cache`."""
    sums = subprocess.run(["cksum"], stdin=(REPO / "pyproject.toml").open("rb"), capture_output=True, check=True)
    return cache / "claude-session-kit" / f"plugin-env-{__version__}-{sums.stdout.split()[0].decode()}"


def ready_env(venv: Path) -> None:
    """A built environment whose interpreter says it ran."""
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_text('#!/bin/sh\necho "RAN $0 $*"\n')
    (venv / "bin" / "python").chmod(0o755)
    (venv / ".ready").touch()


def command(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path / "home"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "SESSION_KIT_PYTHON": "/bin/false",  # building an environment fails at once
        **env,
    }
    return subprocess.run([str(BIN), *args], capture_output=True, text=True, env=environ, timeout=60)


def test_the_plugin_and_its_copy_run_from_a_shell_use_the_same_environment(tmp_path: Path):
    venv = env_dir(tmp_path / "cache")
    ready_env(venv)
    in_plugin = command(tmp_path, "doctor", CLAUDE_PLUGIN_DATA=str(tmp_path / "plugin-data"))
    from_shell = command(tmp_path, "doctor")
    assert in_plugin.stdout == from_shell.stdout == f"RAN {venv}/bin/python -m session_kit doctor\n"
    assert not (tmp_path / "plugin-data").exists()


def test_prepare_starts_the_build_in_the_background_and_says_so_in_one_line(tmp_path: Path):
    started = time.monotonic()
    proc = command(tmp_path, "--prepare")
    venv = env_dir(tmp_path / "cache")
    assert proc.returncode == 0 and time.monotonic() - started < 10 and proc.stderr == ""
    (line,) = proc.stdout.splitlines()
    assert line.startswith("session-kit: building the kit's environment in the background") and str(venv) in line
    log = Path(f"{venv}.log")
    for _ in range(100):  # the detached build runs (and, with /bin/false for Python, fails)
        if "could not prepare" in (log.read_text() if log.exists() else ""):
            break
        time.sleep(0.1)
    assert "could not prepare" in log.read_text()


def test_prepare_says_nothing_when_the_environment_is_ready_or_being_built(tmp_path: Path):
    venv = env_dir(tmp_path / "cache")
    ready_env(venv)
    assert command(tmp_path, "--prepare").stdout == ""
    shutil.rmtree(venv)
    venv.parent.mkdir(parents=True, exist_ok=True)
    Path(f"{venv}.building").symlink_to(str(os.getpid()))  # a live build
    proc = command(tmp_path, "--prepare")
    assert proc.returncode == 0 and proc.stdout == "" and not Path(f"{venv}.log").exists()


def test_a_command_waits_for_the_build_under_way_instead_of_starting_a_second(tmp_path: Path):
    venv = env_dir(tmp_path / "cache")
    venv.parent.mkdir(parents=True)
    builder = subprocess.Popen(["sleep", "30"])
    Path(f"{venv}.building").symlink_to(str(builder.pid))
    try:
        waiting = subprocess.Popen(
            [str(BIN), "--version"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache")},
        )
        time.sleep(1.5)
        assert waiting.poll() is None  # still waiting
        ready_env(venv)  # the build under way finishes
        out, err = waiting.communicate(timeout=30)
    finally:
        builder.kill()
    assert out == f"RAN {venv}/bin/python -m session_kit --version\n"
    assert err.startswith("session-kit: waiting for the kit's environment") and "first use" not in err


def test_a_build_left_by_a_dead_process_does_not_block(tmp_path: Path):
    venv = env_dir(tmp_path / "cache")
    venv.parent.mkdir(parents=True)
    dead = subprocess.Popen(["true"])
    dead.wait()
    Path(f"{venv}.building").symlink_to(str(dead.pid))
    proc = command(tmp_path, "--version")
    assert proc.returncode == 1 and "could not prepare" in proc.stderr and "waiting" not in proc.stderr


def fake_plugin(tmp_path: Path, prepare_says: str) -> Path:
    """A plugin copy whose bin/session-kit --prepare says `prepare_says`, with the kit's hooks."""
    root = tmp_path / "plugin"
    (root / "hooks").mkdir(parents=True)
    shutil.copy2(REPO / "hooks" / "run-hook", root / "hooks" / "run-hook")
    (root / "src").symlink_to(REPO / "src")
    (root / "bin").mkdir()
    (root / "bin" / "session-kit").write_text(f'#!/bin/sh\n[ "$1" = --prepare ] && echo "{prepare_says}"\n')
    (root / "bin" / "session-kit").chmod(0o755)
    return root


def test_the_session_start_hook_tells_the_person_and_not_the_model(tmp_path: Path):
    root = fake_plugin(tmp_path, "session-kit: building PREPARE-LINE")
    event = {"session_id": "5e550000-0000-0000-0000-00000000bbbb", "cwd": str(tmp_path), "source": "startup"}
    proc = subprocess.run(
        [str(root / "hooks" / "run-hook"), "session-start"],
        input=json.dumps(event),
        capture_output=True,
        text=True,
        timeout=60,
        env={
            "PATH": "/usr/bin:/bin",
            "HOME": str(tmp_path),
            "CLAUDE_PLUGIN_ROOT": str(root),
            "SESSION_KIT_HOME": str(tmp_path / "state"),
            "SESSION_KIT_PYTHON": sys.executable,
        },
    )
    answer = json.loads(proc.stdout)
    assert answer["systemMessage"] == "session-kit: building PREPARE-LINE"
    assert "PREPARE-LINE" not in answer["hookSpecificOutput"]["additionalContext"]
    assert "this session's id is" in answer["hookSpecificOutput"]["additionalContext"]
