"""The slash-command files (`commands/*.md`): every `!` line exits 0 and says what happened.

The client aborts a whole slash command when its `!` line exits non-zero, so the file's own
fallback text would never reach the model (seen: `/preprocess-session` on a short session,
exit 6; any kit command as the first prompt of a new session, exit 3; the kit uninstalled,
127). Each line is run here by bash, as the client runs it.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

COMMANDS = sorted((Path(__file__).resolve().parents[1] / "commands").glob("*.md"))
BANG_LINE = re.compile(r"!`([^`]+)`")


def bang_lines(path: Path) -> list[str]:
    return [m.group(1).replace("${CLAUDE_SESSION_ID}", "sid-1") for m in BANG_LINE.finditer(path.read_text())]


def run_line(line: str, path_dirs: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "-c", line], capture_output=True, text=True, env={"PATH": path_dirs}, timeout=30)


def fake_kit(folder: Path, *, exit_code: int) -> str:
    script = folder / "session-kit"
    script.write_text(f"#!/bin/sh\necho 'session-kit: nothing to preprocess: too short' >&2\nexit {exit_code}\n")
    script.chmod(0o755)
    return f"{folder}:/usr/bin:/bin"


@pytest.mark.parametrize("command", COMMANDS, ids=lambda p: p.stem)
def test_each_kit_command_has_one_line_that_runs_the_kit(command: Path):
    assert [line.split()[0] for line in bang_lines(command)] == ["session-kit"]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda p: p.stem)
def test_a_line_whose_kit_is_not_installed_exits_0_and_says_so(command: Path):
    (line,) = bang_lines(command)
    done = run_line(line, "/usr/bin:/bin")
    assert done.returncode == 0
    assert "session-kit: command not found" in done.stdout and "session-kit exit status 127" in done.stdout


@pytest.mark.parametrize("code", [3, 6])
@pytest.mark.parametrize("command", COMMANDS, ids=lambda p: p.stem)
def test_a_line_whose_kit_fails_exits_0_with_the_error_and_the_status(command: Path, code: int, tmp_path: Path):
    (line,) = bang_lines(command)
    done = run_line(line, fake_kit(tmp_path, exit_code=code))
    assert done.returncode == 0
    assert done.stdout == f"session-kit: nothing to preprocess: too short\nsession-kit exit status {code}\n"


@pytest.mark.parametrize("command", COMMANDS, ids=lambda p: p.stem)
def test_a_line_whose_kit_succeeds_prints_only_its_output(command: Path, tmp_path: Path):
    (line,) = bang_lines(command)
    done = run_line(line, fake_kit(tmp_path, exit_code=0))
    assert done.returncode == 0 and "exit status" not in done.stdout


@pytest.mark.parametrize("command", COMMANDS, ids=lambda p: p.stem)
def test_the_status_line_is_allowed_where_the_kit_is(command: Path):
    assert "Bash(echo session-kit:*)" in command.read_text()
