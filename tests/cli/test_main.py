"""The `main` group: its help, its table of commands, and the ways to start it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

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


def test_session_kit_alone_prints_the_help_and_exits_0():
    proc = run()
    assert proc.returncode == 0 and proc.stdout.startswith("Usage: session-kit") and proc.stderr == ""


def test_group_help_documents_shell_completion_for_bash_zsh_and_fish():
    out = invoke("--help").stdout
    for shell in ("bash", "zsh", "fish"):
        assert f"_SESSION_KIT_COMPLETE={shell}_source session-kit" in out


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_commands_help_has_examples_of_itself(name):
    out = invoke(name, "--help").stdout
    examples = out.split("Examples:\n")[1].split("\n\n")[0].splitlines()
    commands = [line for line in examples if not line.strip().startswith("# ")]  # a comment above its command
    assert commands and all(line.strip().startswith(f"session-kit {name}") for line in commands)
    assert not examples[-1].strip().startswith("# ")


@pytest.mark.parametrize(
    ("name", "absent"),
    [
        ("sessions", ("4 ambiguous", "6 nothing", "7 ")),
        ("search", ("4 ambiguous", "6 nothing")),
        ("show", ("6 nothing", "7 ")),
        ("install", ("3 not found", "4 ambiguous", "6 nothing", "7 ")),
        ("uninstall", ("3 not found", "4 ambiguous", "6 nothing", "7 ")),
        ("doctor", ("4 ambiguous", "6 nothing")),
    ],
)
def test_a_commands_exit_codes_are_only_those_it_can_end_with(name, absent):
    paragraph = " ".join(invoke(name, "--help").stdout.split("Exit codes:")[1].split())
    assert paragraph.startswith("0 ok; 1 ")
    assert not [code for code in absent if f"; {code}" in paragraph], paragraph


def test_preprocess_help_names_exit_6_and_doctor_help_exit_7():
    assert "6 nothing to preprocess" in " ".join(invoke("preprocess", "--help").stdout.split())
    assert "7 --strict" in " ".join(invoke("doctor", "--help").stdout.split())


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_option_of_every_command_is_described(name):
    command = main.get_command(click.Context(main), name)
    commands = [command, *getattr(command, "commands", {}).values()]
    undescribed = [
        f"{c.name} {p.opts[0]}"
        for c in commands
        for p in c.params
        if isinstance(p, click.Option) and not p.help and p.opts[0] not in ("--help", "-h")
    ]
    assert undescribed == []


TEARDOWN_PROBE = (
    "import atexit, sys\n"
    "atexit.register(lambda: sys.stderr.write('interpreter teardown ran\\n'))\n"
    "sys.argv = ['session-kit', *sys.argv[1:]]\n"
    "from session_kit.cli import run\n"
    "run()\n"
)


@pytest.mark.parametrize(
    ("args", "code", "out", "err"),
    [
        (["--version"], 0, f"session-kit, version {__version__}\n", ""),
        (["show", "no-such-session", "--claude-dir", "/nonexistent/claude"], 3, "", "session-kit: "),
        (["no-such-command"], 2, "", "session-kit: "),
    ],
)
def test_the_program_leaves_without_the_interpreters_teardown_with_its_output_and_exit_code(args, code, out, err):
    """Clearing a command's ~150 modules at exit cost ~15 ms of CPU on every run."""
    proc = subprocess.run([sys.executable, "-c", TEARDOWN_PROBE, *args], capture_output=True, text=True, timeout=60)
    assert "interpreter teardown ran" not in proc.stderr
    assert (proc.returncode, proc.stdout) == (code, out)
    assert proc.stderr.startswith(err)


# Commands whose tests live beside the package they drive, not in `tests/cli/test_<module>.py`:
# the status line runs inside the client (its tests time and feed it as the client does), and
# `sync` needs a real PostgreSQL server (the team tests start one).
TESTED_ELSEWHERE = {
    "statusline": "tests/usage/test_statusline.py",
    "sync": "tests/team/test_sync.py",
    "mcp": "tests/mcp/test_server.py",
}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_has_a_test_module_named_after_it(name):
    repo = Path(__file__).resolve().parents[2]
    module = COMMANDS[name].target.partition(":")[0]
    expected = TESTED_ELSEWHERE.get(name, f"tests/cli/test_{module}.py")
    assert (repo / expected).is_file()


def test_a_mistyped_command_is_offered_the_nearest_one():
    result = invoke("shw")
    assert result.exit_code == 2
    assert result.stderr == "session-kit: No such command 'shw'; did you mean 'show'? (see `session-kit --help`)\n"
