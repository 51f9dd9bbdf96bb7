"""What a command's help ends with: examples, then the exit codes that command can end with.

Owns: `epilog`, which every command's decorator calls, so the help of each says how it is
used and which exit codes it really has (not the whole table). Does not say what a code
means (`session_kit.errors.EXIT_MEANINGS`) or decide when a command exits with one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from session_kit.errors import EXIT_INTERNAL, EXIT_MEANINGS, EXIT_OK, EXIT_USAGE

ALWAYS = (EXIT_OK, EXIT_INTERNAL, EXIT_USAGE)  # every command can end so


def exit_codes(codes: Iterable[int] = (), *, meaning: Mapping[int, str] | None = None) -> str:
    """`Exit codes: 0 ok; 1 internal error; 2 usage error; …` for 0, 1, 2 and `codes`;
    `meaning` words a code as this command uses it."""
    told = {**EXIT_MEANINGS, **(meaning or {})}
    return "Exit codes: " + "; ".join(f"{code} {told[code]}" for code in sorted({*ALWAYS, *codes})) + "."


def epilog(*examples: str, codes: Iterable[int] = (), meaning: Mapping[int, str] | None = None) -> str:
    """Examples (kept line by line: click's `\\b`), then the command's exit codes."""
    lines = ["\b", "Examples:", *(f"  {example}" for example in examples)]
    return "\n".join(lines) + "\n\n" + exit_codes(codes, meaning=meaning)
