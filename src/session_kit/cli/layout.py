"""Fitting the text outputs' lines to the terminal: 80 columns, or the terminal's width.

Owns: wrapping a line longer than the width (`fitted`) under its label's value (`  tokens:
12k tokens, …` goes on under `12k`), or a few columns in from its start where it has no
label; a long path or id is broken where it must be, as the terminal itself would. Into a
pipe without `$COLUMNS` nothing is wrapped (`style.terminal_width`): programs and the slash
commands read whole lines. A shell command meant to be copied (`search`'s resume line) is
printed whole by its caller, never through here. Does not: lay out tables (`tables.table_lines`, whose columns drop
and shrink to fit), or clean text (`text.visible`, `text.clip`).
"""

from __future__ import annotations

import re

from session_kit.cli.style import echo, terminal_width

_STYLE = re.compile(r"\x1b\[[0-9;]*m")  # colour a line may carry (`style.paint`)
# `  tokens:    `, `    agent a11ce0000000: `: a label, then the value the wrapped lines go under.
_LABEL = re.compile(r"^ *[A-Za-z][\w .()-]{0,24}: +(?=\S)")
HANG = 4  # where there is no label: the wrapped lines start this far in from the line's start
MIN_TEXT = 24  # a label leaving less than this much of the line hangs its lines by HANG instead


def fitted(line: str, width: int | None) -> list[str]:
    """`line` as lines of at most `width` columns (None: as it is). A line that fits keeps
    its colour; one that is wrapped loses it (a style must not be cut in two)."""
    if width is None:
        return [line]
    plain = _STYLE.sub("", line)
    if len(plain) <= width:
        return [line]
    lead = len(plain) - len(plain.lstrip(" "))
    label = _LABEL.match(plain)
    hang = label.end() if label is not None and width - label.end() >= MIN_TEXT else lead + HANG
    hang = min(hang, max(0, width - MIN_TEXT))
    import textwrap  # here: output to a pipe or a file is never wrapped (textwrap ~1.5 ms to load)

    return textwrap.wrap(
        plain,
        width=width,
        subsequent_indent=" " * hang,
        break_long_words=True,  # a path longer than the line: broken, as the terminal would
        break_on_hyphens=False,
    ) or [""]


def say(line: str = "") -> None:
    """`line` on stdout, fitted to the terminal (`fitted`)."""
    for part in fitted(line, terminal_width()):
        echo(part)


def say_lines(text: str) -> None:
    """Each line of `text` on stdout, fitted to the terminal (`fitted`)."""
    width = terminal_width()
    for line in text.split("\n"):
        for part in fitted(line, width):
            echo(part)
