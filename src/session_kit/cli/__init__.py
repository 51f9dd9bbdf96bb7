"""The `session-kit` command line: parses, calls the core, prints.

Owns: the `main` group, `run` (the console script `session_kit.cli:run`: `main`, then out
without the interpreter's teardown) and the table of its commands, each loaded from its
module only when it runs, so a command imports only what it needs and `session-kit --help`
imports none of the core's queries. The only package that imports click.

Layout: one module per command in `commands/`, named after the command (`session-kit
debug-agent` is `commands/debug_agent.py`; `scratch` is one group with its subcommands): to
change a command, open the file with its name. The command modules sit apart from the
helpers they share, so `ls cli/commands` is the list of commands and nothing else. A command
module holds its options, help and text output only: what the command asks, and the
decisions about it (which engine answers a search, which scope is allowed, what is an error),
are the core's, reached through `session_kit.api`. Shared by several commands:

    context      the shared options (--claude-dir, --json, --no-redact, --project/--all) and
                 the object they fill
    session_arg  the SESSION argument, its --session alias and its exit codes
    output       JSON and text formatting
    outcomes     how a call's outcome, an agent's status and a plan's source read
    tokens       how tokens and cost read
    timespan     the WHEN of --since and --until
    installing   what install and uninstall share (--scope, the report of what changed)
    helptext     epilogs: examples and exit codes
    errors       one line on stderr and an exit code for every failure
"""

# ruff: noqa: E402 - the collector's threshold is set before anything else is imported

from __future__ import annotations

import gc

# A command is a short process that allocates much while it imports (click, then its own
# modules) and frees almost none of it: at the collector's default threshold (700 objects) it
# ran ~30 times in `show` on a small session, 4-12 ms (up to 1x `python -c pass`); at 50,000 a
# short command never runs it. Long commands still collect their cycles, less often.
gc.set_threshold(50_000, 20, 20)

import importlib
import os
import sys
from typing import Any, NamedTuple

import click

from session_kit import __version__
from session_kit.cli.errors import reported_errors, usage_error
from session_kit.cli.helptext import exit_codes
from session_kit.errors import (
    EXIT_AMBIGUOUS,
    EXIT_BAD_FILE,
    EXIT_DAMAGED,
    EXIT_DRIFT,
    EXIT_NOT_FOUND,
    EXIT_NOTHING_TO_DO,
    EXIT_SECRETS,
)

__all__ = ["main", "run"]

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


class Command(NamedTuple):
    target: str  # "module:attribute" under session_kit.cli.commands
    summary: str  # the first sentence of its help, for the group's --help (a test keeps it so)


COMMANDS = {
    "agents": Command("agents:agents", "The session's subagents now: running, stalled, finished, failed or stopped."),
    "budget": Command(
        "budget:budget", "Where the session stands against its budget: spent, the budget, and what is left."
    ),
    "archive": Command(
        "archive:archive",
        "Copy every file of every session into the kit's archive.",
    ),
    "debug-agent": Command(
        "debug_agent:debug_agent", "What the session's subagents were asked, what they did, what failed and why."
    ),
    "doctor": Command(
        "doctor:doctor", "Where the Claude root and the kit's state are, what they hold, and what is installed."
    ),
    "events": Command(
        "events:events",
        "The tool-call timeline, subagents' calls included: each call with its input summary, duration and outcome.",
    ),
    "export": Command(
        "export:export", "Write the index's tables (sessions, texts, calls, agents) as JSON Lines or Parquet."
    ),
    "info": Command(
        "info:info",
        "A session's card: id, transcript, project, scratch dir, time, compactions (with the client's summary), agents (with failures), plans and the keys of its work state.",
    ),
    "install": Command("install:install", "Install the kit's hooks and slash commands into Claude Code."),
    "mcp": Command("mcp:mcp", "Serve the kit's read-only questions as MCP tools on stdin and stdout, for the model."),
    "memory": Command(
        "memory:memory",
        "The session's working memory: what the hooks would put back after a compaction (values saved by hand, the person's requests and every standing instruction in them, failures not yet fixed, subagents as they stand, the plan and working documents, tasks, changed files, the assistant's last words).",
    ),
    "plan": Command("plan:plan", "The session's latest plan, or all of them in order (--all)."),
    "preprocess": Command(
        "preprocess:preprocess", "Turn a session and its agents into compact XML documents for an LLM to read."
    ),
    "restore": Command(
        "restore:restore", "Put an archived session (id or unique prefix) back where `claude --resume` finds it."
    ),
    "scratch": Command("scratch:scratch", "The session's scratch directory and its work state (values and notes)."),
    "search": Command(
        "search:search", "Case-insensitive search in messages, tool inputs and tool outputs (agents included)."
    ),
    "secrets": Command(
        "secrets:secrets",
        "Find secrets (keys, tokens, passwords) kept in the client's files and the kit's archive: rule, session, file and line, never the secret.",
    ),
    "sessions": Command(
        "sessions:sessions",
        "List sessions, latest activity first, with last activity, duration, size, agents, branch, title (else the first prompt).",
    ),
    "show": Command("show:show", "Summarise a session: requests, tools, failures, compactions, agents, tokens."),
    "view": Command(
        "view:view", "Look at a session: a page with a timeline (a lane per subagent) and the conversation."
    ),
    "usage": Command(
        "usage:usage",
        "Tokens and cost over the whole history, by day, week, month, project, session, model or agent.",
    ),
    "statusline": Command(
        "statusline:statusline",
        "The client's status line: this session's id, tokens and cost, running subagents and compactions.",
    ),
    "sync": Command(
        "sync:sync", "Push sessions into the team database (PostgreSQL), for `--team` to read from anywhere."
    ),
    "uninstall": Command(
        "uninstall:uninstall", "Remove the kit's hooks and slash commands: the settings become what they were."
    ),
}


def short_help(name: str, limit: int) -> str:
    """The command's line in the group's --help, from the table."""
    return click.Command(name, help=COMMANDS[name].summary).get_short_help_str(limit)


class KitGroup(click.Group):
    """Loads a command's module when the command runs; reports every failure in one line."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = COMMANDS.get(cmd_name)
        if command is None:
            return None
        module, _, attribute = command.target.partition(":")
        return getattr(importlib.import_module(f"{__name__}.commands.{module}"), attribute)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0] if args else ""
        if name in COMMANDS or name.startswith("-"):
            return super().resolve_command(ctx, args)
        import difflib  # here: only a mistyped command needs it

        near = difflib.get_close_matches(name, list(COMMANDS), n=1, cutoff=0.6)
        if near:
            ctx.fail(f"No such command {name!r}; did you mean {near[0]!r}?")
        return super().resolve_command(ctx, args)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # Shortened from the table as click shortens a command's help: listing loads no command.
        limit = formatter.width - 6 - max(len(name) for name in COMMANDS)
        rows = [(name, short_help(name, limit)) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def invoke(self, ctx: click.Context) -> object:
        from session_kit.cli.streams import printable_run  # every command prints; --help alone does not

        # errors are reported inside: their one line is made safe like the rest
        with printable_run(), reported_errors(ctx):
            return super().invoke(ctx)

    def main(self, *args: Any, standalone_mode: bool = True, **kwargs: Any) -> Any:
        """click's standalone run, with its usage errors in the kit's one-line style."""
        if not standalone_mode:
            return super().main(*args, standalone_mode=False, **kwargs)
        try:
            code = super().main(*args, standalone_mode=False, **kwargs)
        except click.UsageError as exc:
            sys.exit(usage_error(exc))
        except click.ClickException as exc:
            click.echo(f"session-kit: {exc.format_message()}", err=True)
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("session-kit: aborted", err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)  # click's Exit comes back as its code


EPILOG = (
    "\b\nExamples:\n"
    "  session-kit sessions --all --since 7d\n"
    "  session-kit show 3f2a\n"
    "  session-kit search 'Traceback' --all\n"
    "  session-kit COMMAND --help          # each command's options and examples\n"
    "\n"
    "\b\nShell completion (click's: commands, options, session ids, project folders),\n"
    "one line in your shell's start-up file:\n"
    '  bash, ~/.bashrc:  eval "$(_SESSION_KIT_COMPLETE=bash_source session-kit)"\n'
    '  zsh, ~/.zshrc:    eval "$(_SESSION_KIT_COMPLETE=zsh_source session-kit)"\n'
    "  fish, ~/.config/fish/completions/session-kit.fish:\n"
    "                    _SESSION_KIT_COMPLETE=fish_source session-kit | source\n\n"
    "Colour: on a terminal only; NO_COLOR or TERM=dumb turn it off, FORCE_COLOR on. Times are UTC.\n\n"
    + exit_codes(
        (EXIT_NOT_FOUND, EXIT_AMBIGUOUS, EXIT_BAD_FILE, EXIT_NOTHING_TO_DO, EXIT_DRIFT, EXIT_SECRETS, EXIT_DAMAGED)
    )
)


@click.group(
    cls=KitGroup,
    context_settings=CONTEXT,
    invoke_without_command=True,
    epilog=EPILOG,
    help=(
        "Inspect Claude Code sessions: list, summarise, trace tool calls and search them.\n\n"
        "Commands about one session (show, events, debug-agent, plan, info, preprocess, view) take it "
        "as SESSION, or as --session SESSION; without either, the current one. A SESSION is a "
        "full id, a unique id prefix, a path to a .jsonl file, or `current` (the session in "
        "$SESSION_CONTEXT or $CLAUDE_CODE_SESSION_ID, else the one the kit's hooks last recorded "
        "for this project, else the newest session of the current directory's project)."
    ),
)
@click.version_option(__version__, prog_name="session-kit")
@click.pass_context
def main(ctx: click.Context) -> None:
    from session_kit.cli.context import Kit  # here: `--version` and `--help` never need it

    ctx.obj = Kit()  # the shared options of the command fill it in
    if ctx.invoked_subcommand is None:  # `session-kit` alone: the help, and no error (as gh, uv)
        click.echo(ctx.get_help())
        ctx.exit(0)


def run() -> None:
    """The `session-kit` program (and `python -m session_kit`): `main`, then out without the
    interpreter's teardown, which clears every object of the ~150 modules a command loaded:
    ~15 ms of CPU for `show` on a small session (143 -> 125 ms measured), on every command.
    A command has closed its files and reaped its workers when it returns. Tests call `main`."""
    try:
        main()
    except SystemExit as exc:
        code = exc.code
    else:  # pragma: no cover - click's standalone run always ends in SystemExit
        code = 0
    if code is None:
        code = 0
    if not isinstance(code, int):
        raise SystemExit(code)  # a message: the interpreter prints it, as sys.exit does
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:  # a closed pipe: the interpreter reports it as it always did
        raise SystemExit(code) from None
    os._exit(code)
