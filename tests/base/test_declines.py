"""A call the person declined is their decision, never a failure: the texts the clients write
for it, and the errors that look like one but are not."""

from __future__ import annotations

import pytest

from session_kit.base.declines import is_declined

DECLINED = [
    (
        "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file "
        "edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell "
        "you how to proceed.",
        "Edit",
        "1.0.43",
    ),
    (
        "The user doesn't want to take this action right now. STOP what you are doing and wait for the user to "
        "tell you how to proceed.",
        "Bash",
        "2.0.42",
    ),
    ("[Request interrupted by user for tool use]", "Bash", "2.1.38"),
    ("please add transformer.js too first", "Bash", "2.0.5"),  # typed feedback alone (2.0.x)
]
FAILED = [
    ("Exit code 1\nerror: pathspec 'x' did not match", "Bash", "2.0.5"),
    (
        "<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>",
        "Write",
        "2.0.5",
    ),
    ("This command requires approval", "Bash", "2.1.17"),
    ("This command requires approval", "Bash", "2.0.20"),
    ("ls in '~/.claude' was blocked. For security, Claude Code may only list files", "Bash", "2.0.20"),
    ("Shell dce0af is not running, so cannot be killed (status: killed)", "KillShell", "2.0.42"),
    ("Pre-commit validation failed: code is not formatted", "Bash", "2.1.39"),  # a hook's refusal
    ("grep: renderer.py: No such file or directory", "Bash", "1.0.51"),  # 1.0.x Bash errors had no exit code
]


@pytest.mark.parametrize(("text", "tool", "version"), DECLINED)
def test_the_person_declining_a_call_is_a_decline(text: str, tool: str, version: str) -> None:
    assert is_declined(text, tool=tool, version=version)


@pytest.mark.parametrize(("text", "tool", "version"), FAILED)
def test_errors_and_the_clients_own_refusals_are_no_declines(text: str, tool: str, version: str) -> None:
    assert not is_declined(text, tool=tool, version=version)
