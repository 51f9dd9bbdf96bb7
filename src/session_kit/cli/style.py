"""How the command line's own text looks, and what it writes to: colour and the terminal.

Owns: whether colour is on (`NO_COLOR`, `TERM=dumb` and pipes turn it off, `FORCE_COLOR` on),
the command line's styles (`FAILURE`, `MATCH`, `HEADER`) and their escape sequences
(`own_colours`, the only ones `streams.printable_run` lets through), painting and
highlighting text, echoing a line with its colour kept, whether a stream is a terminal and
the width to fit text into (`$COLUMNS`, the terminal's, none into a pipe).
Does not: clean or cut transcript text (`text`), lay out tables (`tables`) or cards
(`layout`), or write JSON (`envelope`).
"""

from __future__ import annotations

import os
import re
import sys
from typing import Any

import click

ERASE_LINE = "\x1b[K"


def own_colours() -> tuple[str, ...]:
    """The escape sequences of the command line's own styles (all `paint` and `highlight` use)."""
    styled = (click.style("x", **style) for style in (FAILURE, MATCH, HEADER))
    return tuple(sorted({seq for text in styled for seq in re.findall(r"\x1b\[[0-9;]*m", text)}))


def isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def colour_on(stream: Any = None) -> bool:
    """Whether to colour what goes to `stream` (stdout): never with `NO_COLOR` set (no-color.org)
    or `TERM=dumb`, unless `FORCE_COLOR` is set (then even into a pipe); else on a terminal only."""
    env = os.environ
    if env.get("NO_COLOR"):
        return False
    if env.get("FORCE_COLOR"):
        return True
    if env.get("TERM") == "dumb":
        return False
    return isatty(sys.stdout if stream is None else stream)


FAILURE = {"fg": "red", "bold": True}
MATCH = {"fg": "yellow", "bold": True}
HEADER = {"bold": True}


def paint(text: str, style: dict[str, Any]) -> str:
    """`text` in `style` when colour is on, else as it is."""
    return click.style(text, **style) if colour_on() else text


def echo(line: str = "") -> None:
    """A line on stdout; colour kept only where `colour_on` says so (click would drop it in a
    pipe even with FORCE_COLOR)."""
    click.echo(line, color=colour_on())


def highlight(text: str, needle: str) -> str:
    """Every case-insensitive occurrence of `needle` in `text` painted as a match."""
    if not needle or not colour_on():
        return text
    return re.sub(re.escape(needle), lambda m: click.style(m.group(0), **MATCH), text, flags=re.IGNORECASE)


def terminal_width() -> int | None:
    """Columns to fit rows into: `$COLUMNS`, else the terminal's; None into a pipe (no cut)."""
    if os.environ.get("COLUMNS", "").isdigit():
        return int(os.environ["COLUMNS"])
    if not isatty(sys.stdout):
        return None
    # As shutil.get_terminal_size, without importing shutil (and bz2, lzma, fnmatch with it:
    # ~3 ms of every command's start).
    try:
        columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
    except (AttributeError, ValueError, OSError):
        columns = 0
    return columns or 80


SHORT_ID = 8  # a session id's prefix on a narrow terminal (every command takes a prefix)


def id_width() -> int:
    """How much of a session id a text line shows: all of it into a pipe or on a terminal 120
    columns wide, its first `SHORT_ID` characters on a narrower one."""
    columns = terminal_width()
    return 36 if columns is None or columns >= 120 else SHORT_ID
