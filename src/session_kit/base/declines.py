"""A tool call the person declined: their decision, never a failure.

Owns: `is_declined` (and `denial_kind`), the one test of whether a tool result (written `is_error: true` by the
client) is the person saying no, for every reader: the call pairing (`transcript/calls`:
status `declined`), and the hook side's memory of open failures (`memory/fold`). Standard
library only (the hooks import it). Does not decide what else makes a call fail
(`transcript/calls.result_outcome`).

Clients since 2.1.328 mark the entry of a denied call's result with `toolDenialKind`: read
first, the text second. The person's no: `user-rejected` (at the prompt, or stopped), `permission-
rule` (a rule of theirs, or the host answering the prompt for them, the message possibly empty),
`interrupted` (stopped while it ran), `cancelled` (a sibling of a declined call, or the prompt
given up on: it never ran). The client's own refusal: `automode-blocked`, `automode-unavailable`,
`automode-parsing-error` (auto mode's classifier said no: a failure, nobody declined it).

What the clients write when the person declines (the text, for entries without the mark):
- "The user doesn't want to proceed with this tool use. The tool use was rejected …" (1.0.x
  to 2.1.x), followed on newer clients by "To tell you how to proceed, the user said: …";
- "The user doesn't want to take this action right now. STOP …" for the sibling calls of the
  same answer, cancelled with the declined one (2.0.x);
- "[Request interrupted by user for tool use]": the person stopped the call;
- 2.0.x clients (seen on 2.0.5) wrote a rejection with typed feedback as the feedback alone,
  `is_error: true`, for a `Bash` call: such a result is neither the `Exit code N` form every
  Bash failure of those clients has, nor a `<tool_use_error>`, nor one of the client's own
  refusals ("This command requires approval" in a `-p` run: a failure, nobody declined it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# `toolDenialKind` values that are the person's no, and those that are the client's own refusal.
PERSON_DENIALS = frozenset({"user-rejected", "permission-rule", "interrupted", "cancelled"})
CLIENT_DENIALS = frozenset({"automode-blocked", "automode-unavailable", "automode-parsing-error"})

# The person said no before the call ran (the second: the sibling calls cancelled with it).
REFUSED = (
    "The user doesn't want to proceed with this tool use",
    "The user doesn't want to take this action right now",
)
# The person stopped the call while it ran.
INTERRUPTED = "[Request interrupted by user for tool use]"
DECLINES = (*REFUSED, INTERRUPTED)
# A Bash failure of a 2.0.x client, or a refusal the client made by itself: not the person's words.
_NOT_FEEDBACK = (
    "Exit code",
    "<tool_use_error>",
    "Error:",
    "This command requires approval",
    "This Bash command contains multiple operations",
    "Claude requested permissions",
    "Permission to use",
    "Command timed out",
)


def denial_kind(entry: Mapping[str, Any]) -> str | None:
    """The `toolDenialKind` a transcript entry (a parsed line) is marked with, if any."""
    kind = entry.get("toolDenialKind")
    return kind if isinstance(kind, str) and kind else None


def is_declined(text: str, *, tool: str | None = None, version: str | None = None, kind: str | None = None) -> bool:
    """Whether an error result with `text` (of a call of `tool`, written by client `version`,
    on an entry marked `kind`: `denial_kind`) is the person declining the call."""
    if kind in PERSON_DENIALS:
        return True
    if kind in CLIENT_DENIALS:
        return False
    head = text.lstrip()
    if head.startswith(DECLINES):
        return True
    return (
        tool == "Bash"
        and isinstance(version, str)
        and version.startswith("2.0.")
        and bool(head)
        and not head.startswith(_NOT_FEEDBACK)
        and " was blocked" not in head[:200]
    )
