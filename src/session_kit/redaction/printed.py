"""A command's output redacted with the command as its context.

Owns: `redact_output(output, command)` and `find_in_output(output, command)`: what a command
printed is read after the command line (`$ kubectl get secret … | base64 -d` then the password it
printed), so the rules that know what a command prints (`redaction.rules.statements`) see both;
only the output's secrets are replaced or reported, at their place in the output. Every path
that redacts a tool's output with its command at hand calls these: the guard, `secrets` and
`--scrub`, the converter's units (outputs, index, team push). Does not decide what a secret is.
"""

from __future__ import annotations

from session_kit.redaction.engine import Found, Redactor, find_secrets, marker


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
