"""What a command's help ends with: examples, then the exit codes that command can end with.

Owns: `epilog`, which every command's decorator calls, so the help of each says how it is
used and which exit codes it really has (not the whole table). Does not say what a code
means (`session_kit.errors.EXIT_MEANINGS`) or decide when a command exits with one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from session_kit.errors import EXIT_INTERNAL, EXIT_MEANINGS, EXIT_OK, EXIT_USAGE

ALWAYS = (EXIT_OK, EXIT_INTERNAL, EXIT_USAGE)  # every command can end so
WIDTH = 80 - 4  # an example line fits 80 columns under click's indent (2) and ours (2)
COMMENT = re.compile(r"\s{2,}# ")  # `command  # what it does` (a `#` inside the command stays)


def exit_codes(codes: Iterable[int] = (), *, meaning: Mapping[int, str] | None = None) -> str:
    """`Exit codes: 0 ok; 1 internal error; 2 usage error; …` for 0, 1, 2 and `codes`;
    `meaning` words a code as this command uses it."""
    told = {**EXIT_MEANINGS, **(meaning or {})}
    return "Exit codes: " + "; ".join(f"{code} {told[code]}" for code in sorted({*ALWAYS, *codes})) + "."


def examples_fitted(examples: Iterable[str]) -> list[str]:
    """`command  # what it does` lines with the comments in one column, each line at most
    `WIDTH` wide: a comment that would not fit beside its command goes on the line above it."""
    split = [(*COMMENT.split(e, maxsplit=1), "")[:2] for e in examples]
    beside = [(command, said) for command, said in split if said]
    # The longest command gives way (its comment goes above) until every other line fits.
    while beside and any(_column(beside) + 2 + len(said) > WIDTH for _, said in beside):
        beside.remove(max(beside, key=lambda pair: len(pair[0])))
    column = _column(beside)
    lines = []
    for command, said in split:
        if not said:
            lines.append(command)
        elif (command, said) in beside:
            lines.append(f"{command.ljust(column)}# {said}")
        else:
            lines += [f"# {said}", command]
    return lines


def _column(beside: list[tuple[str, str]]) -> int:
    return max((len(command) for command, _ in beside), default=0) + 2


def epilog(*examples: str, codes: Iterable[int] = (), meaning: Mapping[int, str] | None = None) -> str:
    """Examples (kept line by line: click's `\\b`; fitted to 80 columns), then the command's
    exit codes."""
    lines = ["\b", "Examples:", *(f"  {example}" for example in examples_fitted(examples))]
    return "\n".join(lines) + "\n\n" + exit_codes(codes, meaning=meaning)
