"""Starting the command line loads no more than it needs (in a subprocess, like click's own
tests/test_imports.py): the group and its help import none of the core's heavy parts, and a
command imports only its own module's."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from session_kit.cli import COMMANDS

HEAVY = ("session_kit.queries", "session_kit.sessions", "session_kit.preprocess", "session_kit.transcript")


def loaded_after(code: str) -> set[str]:
    script = f"import sys, json\n{code}\nsys.stdout = sys.__stdout__\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    return set(json.loads(out.splitlines()[-1]))


def heavy(modules: set[str]) -> set[str]:
    return {m for m in modules if m.startswith(HEAVY)}


def module_of(command: str) -> str:
    """The module that holds `command` (one module per command, named after it)."""
    return f"session_kit.cli.commands.{COMMANDS[command].target.partition(':')[0]}"


def command_modules(modules: set[str]) -> set[str]:
    return {m for m in modules if m.startswith("session_kit.cli.commands.")}


def run_main(*args: str) -> str:
    return (
        "import io, contextlib\nfrom session_kit.cli import main\n"
        f"with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    try:\n        main({list(args)!r})\n    except SystemExit:\n        pass"
    )


def test_importing_the_cli_loads_no_core_query():
    assert heavy(loaded_after("import session_kit.cli")) == set()


def test_group_help_loads_no_command_module():
    modules = loaded_after(run_main("--help"))
    assert heavy(modules) == set()
    assert not {m for m in modules if m.startswith("session_kit.cli.")} - {
        "session_kit.cli.context",
        "session_kit.cli.errors",
        "session_kit.cli.helptext",  # the group's exit-code paragraph; no command's module
    }


def test_a_scratch_command_loads_no_transcript_reading():
    modules = loaded_after(run_main("scratch", "--help"))
    assert "session_kit.cli.commands.scratch" in modules and heavy(modules) == set()


def test_a_command_loads_its_own_module_only():
    modules = loaded_after(run_main("plan", "--help"))
    assert command_modules(modules) == {"session_kit.cli.commands.plan"}
    assert "session_kit.preprocess" not in modules


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_each_commands_help_loads_its_own_command_module_and_no_other(command: str):
    assert command_modules(loaded_after(run_main(command, "--help"))) == {module_of(command)}


def test_every_command_has_a_module_named_after_it():
    assert {name: module_of(name) for name in COMMANDS} == {
        name: f"session_kit.cli.commands.{name.replace('-', '_')}" for name in COMMANDS
    }


@pytest.mark.parametrize("command", ["sessions", "show", "events", "search"])
def test_listing_summarising_and_searching_load_no_process_pool(command: str):
    modules = loaded_after(f"import {module_of(command)}")
    assert not {m for m in modules if m.startswith(("multiprocessing", "concurrent"))}


def test_version_loads_neither_a_command_nor_the_shared_options():
    modules = loaded_after(run_main("--version"))
    assert {m for m in modules if m.startswith("session_kit")} <= {
        "session_kit",
        "session_kit.api",  # the lazy face: loads nothing until a name is used
        "session_kit.cli",
        "session_kit.cli.errors",
        "session_kit.cli.helptext",
        "session_kit.errors",
    }
    assert not {"pathlib", "dataclasses"} & modules


# What no read command needs on a small session: each costs a start-up milliseconds (measured
# with -X importtime here: shutil with bz2 and lzma ~3 ms, tempfile with random ~3 ms).
NEVER_ON_A_READ = {
    "shutil",
    "bz2",
    "lzma",
    "tempfile",
    "random",
    "shlex",
    "subprocess",
    "multiprocessing",
    "concurrent.futures",
    "sqlite3",
    "jinja2",
    "msgspec",  # the fast parser is loaded once a process has parsed megabytes
}


@pytest.mark.parametrize(
    "argv",
    [
        ("show", "{sid}"),
        ("show", "{sid}", "--json"),
        ("info", "{sid}"),
        ("events", "{sid}"),
        ("plan", "{sid}", "--all"),
        ("debug-agent", "{sid}", "--all"),
        ("memory", "{sid}"),
        ("preprocess", "{sid}", "--stdout"),
        ("sessions", "--all", "--json"),
        ("search", "needle", "--all", "--scan"),
        ("usage",),
    ],
    ids=lambda argv: " ".join(a for a in argv if a != "{sid}"),
)
def test_a_read_command_on_a_small_session_loads_nothing_it_does_not_use(built, argv: tuple[str, ...]):
    args = [a.format(sid=built.current.session_id) for a in argv]
    modules = loaded_after(run_main(*args, "--claude-dir", str(built.root)))
    assert module_of(argv[0]) in modules  # the command ran
    store = {"sqlite3"} if argv[0] == "usage" else set()  # usage reads the index
    assert (NEVER_ON_A_READ - store) & modules == set()


def test_preprocess_without_distill_loads_no_distiller(built):
    modules = loaded_after(
        run_main("preprocess", built.current.session_id, "--stdout", "--claude-dir", str(built.root))
    )
    assert "session_kit.preprocess.pipeline" in modules
    assert "session_kit.preprocess.distill" not in modules


# The memory reads the transcript through its own follower (the hooks' capture), not `Session`.
READS_THROUGH = {"memory": "session_kit.memory.capture"}


@pytest.mark.parametrize("command", ["show", "info", "events", "plan", "memory"])
def test_a_session_with_no_agent_loads_no_agent_linker(claude_root, command: str):
    from tests.support.sessions import make_session

    session = make_session(claude_root, "0a0a0a0a-1111-2222-3333-444455556666")
    modules = loaded_after(run_main(command, session.session_id, "--claude-dir", str(claude_root)))
    assert READS_THROUGH.get(command, "session_kit.sessions.session") in modules  # the session was read
    assert "session_kit.sessions.agents" not in modules


def test_a_session_with_an_agent_still_links_it(built):
    modules = loaded_after(run_main("show", built.current.session_id, "--claude-dir", str(built.root)))
    assert "session_kit.sessions.agents" in modules


def test_the_sessions_table_alone_loads_tempfile_for_its_rows(built):
    """Its rows wait in a temporary file until the columns' widths are known (memory flat at
    any number of sessions); `--json` streams and needs none."""
    modules = loaded_after(run_main("sessions", "--all", "--claude-dir", str(built.root)))
    assert "tempfile" in modules
    assert {"multiprocessing", "concurrent.futures", "subprocess", "msgspec"} & modules == set()
