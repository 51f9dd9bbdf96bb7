"""What the command line does when a command fails: one line on stderr and an exit code.

Owns: mapping a `KitError` to `session-kit: <message>` and its exit code, wording core errors
in the command line's terms (its flags, what to try), and the other ways a run ends: a bug
(`internal error`, no traceback unless `SESSION_KIT_DEBUG`), a reader that left (`| head`),
Ctrl-C. Does not decide what is an error: the core raises, this module only reports.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import click

from session_kit import api
from session_kit.errors import (
    EXIT_BAD_FILE,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    InvalidOptions,
    KitError,
    NoScratchDir,
    NoSessionsHere,
    NotAClaudeRoot,
)

# The library's option names, as the command line spells them.
FLAGS = {
    "to_stdout": "--stdout",
    "output_dir": "--output-dir",
    "max_tokens": "--max-tokens",
    "distill": "--distill",
    "prefix": "--prefix",
    "filtering": "--no-filtering",
    "format": "--format",
    "scope": "--scope",
    "force": "--force",
}


def worded(error: KitError) -> str:
    """A core error in the command line's words: its flags, and what to try."""
    if isinstance(error, InvalidOptions):
        return error.describe(FLAGS)
    if isinstance(error, NoSessionsHere):
        return f"{error.message} (try --all)"
    if isinstance(error, NotAClaudeRoot):
        return no_claude_root(error.root)
    if isinstance(error, NoScratchDir):
        return f"{error.message}; give --output-dir"
    return error.message


def no_claude_root(root: object) -> str:
    """The one sentence for a Claude root with no `projects/` (every reader's, and doctor's)."""
    return (
        f"{root} is not a Claude root yet: it has no projects/ folder (Claude Code makes it when it first "
        "runs; else check --claude-dir or $CLAUDE_CONFIG_DIR)"
    )


def usage_error(error: click.UsageError) -> int:
    """A usage error as every other error: one line, `session-kit: …`, with where to look; 2."""
    where = error.ctx.command_path if error.ctx is not None else "session-kit"
    click.echo(f"session-kit: {error.format_message().rstrip('.')} (see `{where} --help`)", err=True)
    return error.exit_code


@contextmanager
def reported_errors(ctx: click.Context) -> Iterator[None]:
    """Around a command: a KitError becomes one line and its exit code; a bug one line and 1."""
    try:
        yield
    except KitError as exc:
        click.echo(f"session-kit: {worded(exc)}", err=True)
        ctx.exit(exc.exit_code)
    except BrokenPipeError:
        # `session-kit sessions | head`: the reader left; that is not an error. Point stdout at
        # /dev/null so that flushing it at exit does not fail a second time.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        ctx.exit(0)
    except (click.exceptions.Exit, click.ClickException, click.Abort):
        raise
    except KeyboardInterrupt:
        click.echo("session-kit: interrupted", err=True)
        ctx.exit(EXIT_INTERRUPTED)
    except Exception as exc:  # a bug: say so in one line, never a traceback
        if isinstance(exc, (api.StateRootUnknown, api.UnsafePath)):  # the environment, not a bug
            click.echo(f"session-kit: {exc}", err=True)
            ctx.exit(EXIT_USAGE if isinstance(exc, api.StateRootUnknown) else EXIT_BAD_FILE)
        if os.environ.get("SESSION_KIT_DEBUG"):
            raise
        click.echo(
            f"session-kit: internal error: {type(exc).__name__}: {exc} (set SESSION_KIT_DEBUG=1 for a traceback)",
            err=True,
        )
        ctx.exit(EXIT_INTERNAL)
