"""Starting the command line loads no more than it needs (in a subprocess, like click's own
tests/test_imports.py): the group and its help import none of the core's heavy parts, and a
command imports only its own module's."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from session_kit.cli import COMMANDS
from tests.support.sessions import make_session

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
    session = make_session(claude_root, "0a0a0a0a-1111-2222-3333-444455556666")
    modules = loaded_after(run_main(command, session.session_id, "--claude-dir", str(claude_root)))
    assert READS_THROUGH.get(command, "session_kit.sessions.session") in modules  # the session was read
    assert "session_kit.sessions.agents" not in modules


def test_a_session_with_an_agent_still_links_it(built):
    modules = loaded_after(run_main("show", built.current.session_id, "--claude-dir", str(built.root)))
    assert "session_kit.sessions.agents" in modules


def test_a_short_sessions_table_keeps_its_rows_in_memory_and_loads_no_tempfile(built):
    """The rows wait until the columns' widths are known: in memory up to `SPOOL_ROWS`, in a
    temporary file past them (memory flat at any number of sessions); `--json` streams."""
    modules = loaded_after(run_main("sessions", "--all", "--claude-dir", str(built.root)))
    assert "session_kit.cli.commands.sessions" in modules
    assert {"tempfile", "multiprocessing", "concurrent.futures", "subprocess", "msgspec"} & modules == set()


def test_a_sessions_table_longer_than_its_memory_reads_the_same_from_its_temporary_file(built, monkeypatch):
    from session_kit.cli.commands import sessions
    from tests.support.cli import invoke

    for extra in range(3):  # five sessions: more than one row held
        make_session(built.root, f"0a0a0a0{extra}-1111-2222-3333-444455556666")
    in_memory = invoke("sessions", "--all", "--claude-dir", str(built.root))
    monkeypatch.setattr(sessions, "SPOOL_ROWS", 1)
    spilled = invoke("sessions", "--all", "--claude-dir", str(built.root))
    assert in_memory.exit_code == spilled.exit_code == 0
    assert len(in_memory.stdout.splitlines()) == 6  # the header and five sessions
    assert spilled.stdout == in_memory.stdout


# What each read command may load of the kit on a small session (one with agents): its own
# path and nothing else, so a change that drags another command's chain into a start-up (the
# agent linker into `sessions`, the listing's glance into `show`, the report into `memory`)
# fails here. Each set is an upper bound: a command that needs less still passes. A name
# ending in `.*` stands for a package and every module in it.
EVERY_COMMAND = {
    "api",
    "cli",
    "cli.commands",
    "cli.context",
    "cli.errors",
    "cli.helptext",
    "cli.envelope",
    "cli.streams",
    "cli.style",
    "cli.text",
    "errors",
    "base",
    "terminal",
    # the redactor's face and its table; the patterns compile per rule on first use. Not the
    # stand-ins' check (`redaction.filters`: loaded on a text's first find, and these sessions
    # hold no secret) nor the Read tool's numbered texts (`redaction.numbered`: none here)
    "redaction",
    "redaction.engine",
    "redaction.memo",
    "redaction.positions",
    "redaction.table",
    "redaction.values",
    "redaction.rules.*",
    "redaction.compiled",  # the compiled pass, loaded for a long text (the fixture has some)
    "redaction.passes",
    "redaction.superset",
    "base.words",
    "claude",
    "base.encoding",
    "base.layout",  # where the client's files are: the root's one walk
    "base.headfield",  # a session's cwd, a 2025 agent log's session: read from the head
    "claude.paths",
    "state",
    "base.fastjson",
    "base.fileio",
    "state.ids",
    "sessions",
    "sessions.store",
    "transcript",
    "transcript.entries",
    "base.follow",
    "base.timestamps",  # every time and mtime read, clamped
    "transcript.reader",
    "base.slash_commands",
    "base.vocabulary",
    "base.agents",  # the agent status words; `transcript.entries` tells an API error by them
    "base.tools",  # the one tool table (`base.agents` names the tools that stop a task from it)
    "base.declines",  # `transcript.entries` keeps a result's denial mark (`toolDenialKind`) by it
}
ONE_SESSION = EVERY_COMMAND | {
    "cli.session_arg",
    "sessions.resolve",
    "state.current",
    "state.root",  # where the archive would be, one stat: its layout loads only when it exists
}
AGENTS = {
    "sessions.agents",
    "sessions.agent_run",
    "transcript.agent_signals",
    "transcript.calls",
    "base.declines",  # a call the person declined (`transcript.calls` reads it)
    "transcript.tokens",
    "transcript.tools",
    "transcript.usagefields",
    "base.tools",  # which calls spawn an agent
}
REPORT = (
    ONE_SESSION
    | AGENTS
    | {
        "cli.layout",
        "cli.outcomes",
        "cli.tokens",
        "queries",
        "queries.report",
        "sessions.session",
        "transcript.compactions",
        "transcript.span",
        "transcript.titles",
        "usage",
        "usage.breakdown",
        "usage.pricerows",
        "usage.prices",
    }
)
# The commands with `--team` define it from `cli.team` (click and the kit's own output, its table
# included; psycopg loads only when `--team` is given, in `team.connection`).
TEAM_OPTION = {"cli.team", "cli.layout", "cli.tables"}
GLANCE = {"transcript.glance", "transcript.span", "transcript.titles"}  # a file's head and tail, unparsed
MAY_LOAD = {
    "show": REPORT | TEAM_OPTION | {"cli.commands.show"},
    "info": REPORT | {"cli.commands.info", "claude.settings", "queries.card", "queries.plans", "state.scratch"},
    "memory": ONE_SESSION
    | {
        "cli.commands.memory",
        "cli.layout",  # its lines fitted to the terminal
        "memory.*",
        "queries",
        "queries.memory",
        "base.detach",
        "base.declines",  # a call the person declined is no open failure
        "state.scratch",
        "transcript.agent_signals",
        "base.rawtype",
        "base.tools",  # the tool roles the memory folds by
    },
    "sessions": EVERY_COMMAND
    | GLANCE
    | TEAM_OPTION
    # the listing's memory in the index (`index.listing`): asked from 200 sessions on, so a small
    # root loads its module and the state root's path, never sqlite3
    | {"index", "index.listing", "state.root"}
    # the sessions only the archive holds, below the table: the archive's folder listing, no reader
    | {"archive", "archive.layout", "sessions.archived_only"}
    | {"cli.commands.sessions", "cli.timespan", "cli.tokens", "forked", "sessions.listing", "sessions.overview"},
    "search": EVERY_COMMAND
    | GLANCE
    | TEAM_OPTION
    | {
        "cli.commands.search",
        "cli.layout",
        "forked",
        "queries",
        "queries.search",
        "queries.search_engine",
        "transcript.blockscan",
        "transcript.kit_echoes",
        "transcript.searchable",
    },
    "preprocess": ONE_SESSION
    | AGENTS
    | GLANCE
    | {"cli.commands.preprocess", "conversation.*", "preprocess.*", "forked", "base.rawtype", "redaction.printed"},
}
# Standard-library modules that cost a start-up a millisecond or more and that none of these
# commands uses on a small session (`NEVER_ON_A_READ`, and: pickle and signal only when work is
# forked; textwrap only to wrap text for a terminal; tempfile only for a long table).
COSTLY_STDLIB = NEVER_ON_A_READ | {"pickle", "signal", "textwrap", "csv", "email", "http", "asyncio", "xml", "decimal"}
READS = {
    "show": ("show", "{sid}"),
    "info": ("info", "{sid}"),
    "memory": ("memory", "{sid}"),
    "sessions": ("sessions", "--all"),
    "search": ("search", "needle", "--all", "--scan"),
    "preprocess": ("preprocess", "{sid}", "--stdout"),
}


def outside(modules: set[str], allowed: set[str]) -> set[str]:
    """The kit's modules in `modules` that `allowed` does not name."""
    ours = {m.removeprefix("session_kit.") for m in modules if m.startswith("session_kit.")}
    packages = tuple(a[:-1] for a in allowed if a.endswith(".*"))
    return {m for m in ours if m not in allowed and not (m + ".").startswith(packages)}


@pytest.mark.parametrize("command", sorted(READS))
def test_a_read_command_loads_only_the_kit_modules_of_its_own_path(built, monkeypatch, command: str):
    monkeypatch.setenv("COLUMNS", "")  # no width: into a pipe, as a script or a benchmark reads it
    args = [a.format(sid=built.current.session_id) for a in READS[command]]
    modules = loaded_after(run_main(*args, "--claude-dir", str(built.root)))
    assert module_of(command) in modules  # the command ran
    assert outside(modules, MAY_LOAD[command]) == set()
    assert COSTLY_STDLIB & modules == set()
    # `dataclasses` (~1 ms) only where a value of the command's own path is one: the reader's
    # and the report's are plain classes and named tuples
    if command in ("show", "info", "memory"):
        assert "dataclasses" not in modules


def test_the_allowed_sets_name_modules_that_exist():
    """A renamed module must not leave a stale name behind that would let its chain back in."""
    import importlib.util

    named = {m for allowed in MAY_LOAD.values() for m in allowed}
    missing = {m for m in named if importlib.util.find_spec("session_kit." + m.removesuffix(".*")) is None}
    assert missing == set()


@pytest.mark.parametrize("command", sorted(READS))
def test_a_read_command_on_a_small_session_never_runs_the_cycle_collector(built, monkeypatch, command: str):
    """A short command allocates tens of thousands of objects and frees almost none: at the
    collector's default threshold it ran ~30 times in `show` (4-12 ms of its start-up)."""
    monkeypatch.setenv("COLUMNS", "")
    args = [a.format(sid=built.current.session_id) for a in READS[command]]
    code = (
        "import gc, io, contextlib, sys\nfrom session_kit.cli import main\nruns = []\n"
        "gc.callbacks.append(lambda phase, info: phase == 'start' and runs.append(info['generation']))\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    try:\n        main({[*args, '--claude-dir', str(built.root)]!r})\n    except SystemExit:\n        pass\n"
        "print(len(runs))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert int(out.splitlines()[-1]) == 0
