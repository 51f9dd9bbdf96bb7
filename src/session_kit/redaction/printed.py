"""A command's output redacted with the command as its context.

Owns: `redact_output(output, command)` and `find_in_output(output, command)`: what a command
printed is read after the command line (`$ kubectl get secret … | base64 -d` then the password it
printed), so the rules that know what a command prints (`redaction.rules.statements`) see both;
only the output's secrets are replaced or reported, at their place in the output. Every path
that redacts a tool's output with its command at hand calls these: the guard, `secrets` and
`--scrub`, the converter's units (outputs, index, team push). `context_of` says which command lines
are context at all (those a rule reads an output after: `rules.statements.COMMAND_CONTEXT`), so
a path that redacts outputs in batches keeps only those commands and gives each its output
alone. Does not decide what a secret is.
"""

from __future__ import annotations

import re
from functools import lru_cache

from session_kit.redaction.engine import Found, Redactor, find_secrets, marker
from session_kit.redaction.rules.statements import COMMAND_CONTEXT

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


@lru_cache(maxsize=1)
def _context() -> re.Pattern[str]:
    return re.compile(COMMAND_CONTEXT)


def context_of(tool_input: Any) -> str | None:
    """The command line of a call's input (`{"command": …}`) when it is context for the
    call's output (a command that prints secrets); None for any other call."""
    command = tool_input.get("command") if isinstance(tool_input, dict) else None
    if isinstance(command, str) and _context().search(command):
        return command
    return None


class Commands:
    """The command lines of a log's calls that are context for their outputs, by call id: what
    each path that reads a log keeps between a call and its result (across lines and chunks)."""

    __slots__ = ("_by_id",)

    def __init__(self) -> None:
        self._by_id: dict[str, str] = {}

    def use(self, call_id: Any, tool_input: Any) -> None:
        """A call: its command kept when it is context for its output."""
        command = context_of(tool_input)
        if command is not None and isinstance(call_id, str):
            self._by_id[call_id] = command

    def result(self, call_id: Any) -> str | None:
        """The command of the call a result answers, when it is context (then forgotten)."""
        return self._by_id.pop(call_id, None) if self._by_id and isinstance(call_id, str) else None

    def entry(self, value: Any) -> str | None:
        """A transcript line as parsed (`{"message": {"content": [...]}}`): its calls kept, and the
        command its tool result answers (None when it answers none that is context)."""
        message = value.get("message") if isinstance(value, dict) else None
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, list):
            return None
        command = None
        for block in content:
            if not isinstance(block, dict):
                continue
            kind = block.get("type")
            if kind == "tool_use":
                self.use(block.get("id"), block.get("input"))
            elif kind == "tool_result":
                command = self.result(block.get("tool_use_id")) or command
        return command


def _joined(output: str, command: str) -> tuple[str, int]:
    head = command.rstrip("\n") + "\n"
    return head + output, len(head)


def find_in_output(output: str, command: str | None) -> list[Found]:
    """The secrets of `output` (spans in it), found with `command` before it as its context."""
    if not command:
        return find_secrets(output)
    text, cut = _joined(output, command)
    return [Found(f.kind, max(f.start, cut) - cut, f.end - cut) for f in find_secrets(text) if f.end > cut]


def redact_output(output: str, command: str | None, redactor: Redactor | None = None) -> str:
    """`output` redacted, with `command` (the command line that printed it) as its context."""
    redactor = redactor if redactor is not None else Redactor()
    if not command or len(output) < 4:
        return redactor(output)
    found = find_in_output(output, command)
    if not found:
        return output
    pieces: list[str] = []
    done = 0
    for f in found:
        if f.start < done:
            continue
        pieces += [output[done : f.start], marker(f.kind)]
        redactor.counts[f.kind] += 1
        done = f.end
    pieces.append(output[done:])
    return "".join(pieces)
