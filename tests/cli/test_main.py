"""The `main` group: its help, its table of commands, and the ways to start it."""

from __future__ import annotations

import subprocess
import sys

import click
import pytest

from session_kit import __version__
from session_kit.cli import COMMANDS, main
from tests.support.cli import EXE, invoke, run


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_in_the_table_loads_under_its_name(name):
    command = main.get_command(click.Context(main), name)
    assert isinstance(command, click.Command) and command.name == name


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_tables_summary_is_the_first_sentence_of_the_commands_help(name):
    command = main.get_command(click.Context(main), name)
    assert COMMANDS[name].summary == command.get_short_help_str(limit=10**6)


def test_group_help_lists_every_command_with_its_short_help():
    out = invoke("--help").stdout
    listed = out.split("Commands:\n")[1].split("\n\n")[0].splitlines()
    assert [line.split()[0] for line in listed] == sorted(COMMANDS)
    assert "  install      Install the kit's hooks and slash commands into Claude Code.\n" in out
    assert "  plan         The session's latest plan, or all of them in order (--all).\n" in out


def test_group_help_documents_exit_codes():
    out = invoke("--help").stdout
    assert "Exit codes" in out and "4 ambiguous" in out


def test_command_help_documents_exit_codes():
    assert "Exit codes" in invoke("search", "--help").stdout


def test_an_unknown_command_is_a_usage_error():
    result = invoke("nosuch")
    assert result.exit_code == 2 and "No such command 'nosuch'" in result.stderr


def test_the_installed_script_runs_the_group():
    assert EXE.exists()
    proc = run("--version")
    assert proc.returncode == 0 and proc.stdout == f"session-kit, version {__version__}\n"


def test_python_dash_m_runs_the_group():
    proc = subprocess.run(
        [sys.executable, "-m", "session_kit", "--version"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0 and proc.stdout == f"session-kit, version {__version__}\n"
