"""What the real entry point prints on a terminal (a pty) and into a pipe: colour, width, JSON."""

from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import termios

import pytest

from tests.support.cli import EXE, run
from tests.support.sessions import Built

ESC = "\x1b["


def on_terminal(*args: str, env: dict[str, str] | None = None, columns: int = 100) -> str:
    """`session-kit ARGS` with stdout on a pty of `columns` columns; what it printed there."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
    environ = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "COLUMNS", "TERM")}
    environ.update({"TERM": "xterm-256color", **(env or {})})
    proc = subprocess.Popen([str(EXE), *args], stdout=follower, stderr=subprocess.PIPE, env=environ)
    os.close(follower)
    chunks = []
    while True:
        try:
            data = os.read(leader, 65536)
        except OSError:  # the pty closed: the process is done
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=60)
    os.close(leader)
    return b"".join(chunks).decode().replace("\r\n", "\n")


@pytest.fixture(autouse=True)
def installed_script():
    if not EXE.exists():
        pytest.fail(f"the installed entry point {EXE} is missing")


def test_failures_are_coloured_on_a_terminal(built: Built):
    out = on_terminal("events", built.current.session_id, "--errors")
    assert f"{ESC}31m" in out and "exit 2" in out


@pytest.mark.parametrize("env", [{"NO_COLOR": "1"}, {"TERM": "dumb"}])
def test_no_colour_with_no_color_or_a_dumb_terminal(built: Built, env):
    out = on_terminal("events", built.current.session_id, "--errors", env=env)
    assert "exit 2" in out and ESC not in out


def test_no_colour_into_a_pipe(built: Built):
    proc = run("events", built.current.session_id, "--errors", env={"TERM": "xterm"})
    assert "exit 2" in proc.stdout and ESC not in proc.stdout


def test_force_color_colours_even_a_pipe(built: Built):
    proc = run("events", built.current.session_id, "--errors", env={"FORCE_COLOR": "1"})
    assert f"{ESC}31m" in proc.stdout


def test_search_matches_are_coloured_on_a_terminal(built: Built):
    out = on_terminal("search", "sentinel_failure", "--all")
    assert f"{ESC}33m{ESC}1mSENTINEL_FAILURE{ESC}0m" in out


def test_json_is_indented_on_a_terminal_and_compact_in_a_pipe(built: Built):
    assert on_terminal("sessions", "--all", "--json").startswith('{\n  "version": 2,')
    assert run("sessions", "--all", "--json").stdout.startswith('{"version": 2,')


@pytest.mark.parametrize("columns", [80, 120])
def test_sessions_rows_fit_the_terminals_width(built: Built, columns: int):
    lines = on_terminal("sessions", "--all", columns=columns).splitlines()
    assert len(lines) == 3 and all(len(line) <= columns for line in lines), lines
    # below 120 columns an id prefix (every command takes one), so the title and project fit
    shown = built.current.session_id if columns >= 120 else built.current.session_id[:8] + "  "
    assert shown in "\n".join(lines) and "PROJECT" in lines[0] and "TITLE" in lines[0]
