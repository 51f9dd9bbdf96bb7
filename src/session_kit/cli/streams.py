"""Around every command: the streams it prints to, and the notes about what a read skipped.

Owns: `printable_run`, the wrapper the command line runs each command in (text out valid
whatever a transcript holds, stdout and stderr behind `terminal.SafeStream` so no transcript's
escape sequences, bidi or invisible characters reach a terminal raw, only the command line's
own colours; each file a read passed over one note on stderr), and the note about lines
skipped while reading a file (`warn_skipped`).
Does not: decide what is safe to print (`terminal.safe`, through `api`), colour anything
(`style`) or format a value (`text`, `tables`, `envelope`).
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from session_kit import api
from session_kit.cli.style import ERASE_LINE, colour_on, own_colours
from session_kit.errors import Skipped

if TYPE_CHECKING:  # types for annotations alone: nothing at run time loads their modules
    from session_kit.transcript.reader import ReadStats


@contextmanager
def printable_run() -> Iterator[None]:
    """Around a command: text out is valid whatever a transcript holds (lone surrogates
    become U+FFFD: `api.TEXT_ERRORS`) and safe on a terminal (stdout and stderr behind
    `terminal.SafeStream`: no command can print a transcript's escape sequences, bidi or
    invisible characters raw; only the command line's own colours go out as they are), and
    each file a read passed over (`Skipped`) is one note on stderr."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors=api.TEXT_ERRORS)
    stdout, stderr = sys.stdout, sys.stderr
    sys.stdout = api.SafeStream(stdout, own_colours() if colour_on(stdout) else ())
    # a progress line on stderr is redrawn in place (`\r`, then erase the line)
    sys.stderr = api.SafeStream(stderr, (ERASE_LINE,), keep_leading_cr=True)
    try:
        with _skipped_notes():
            yield
    finally:
        sys.stdout, sys.stderr = stdout, stderr


@contextmanager
def _skipped_notes() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("default", Skipped)  # each file once
        shown = warnings.showwarning

        def show(message: Warning | str, category: type[Warning], *args: Any, **kwargs: Any) -> None:
            if issubclass(category, Skipped):
                click.echo(f"session-kit: note: {message}", err=True)
            else:
                shown(message, category, *args, **kwargs)

        warnings.showwarning = show
        yield


def warn_skipped(stats: ReadStats, path: Path) -> None:
    """One line on stderr when reading `path` skipped lines (malformed, half-written…)."""
    described = stats.describe()
    if described:
        click.echo(f"session-kit: note: {path.name}: skipped {described}", err=True)
