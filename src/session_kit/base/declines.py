"""A tool call the person declined: their decision, never a failure.

Owns: `is_declined`, the one test of whether a tool result (written `is_error: true` by the
client) is the person saying no, for every reader: the call pairing (`transcript/calls`:
status `declined`), and the hook side's memory of open failures (`memory/fold`). Standard
library only (the hooks import it). Does not decide what else makes a call fail
(`transcript/calls.result_outcome`).

What the clients write when the person declines:
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


def is_declined(text: str, *, tool: str | None = None, version: str | None = None) -> bool:
    """Whether an error result with `text` (of a call of `tool`, written by client `version`)
    is the person declining the call."""
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
