"""The kit's own echoes in a transcript: what its slash commands put there.

Owns: telling, entry by entry in file order, which entries are the kit talking to itself:
the request that runs one of its slash commands (`slash_commands.is_kit_command`: `/debug-agent`
installed, `/session-kit:debug-agent` as a plugin) and the body the client expanded it into,
the command file's text with the output of its `` !`…` `` lines (2.1.x writes it as the next
user entry, `isMeta`, whose `parentUuid` is the request's). They hold the words a person
searched for (a `/sessions-search flaky` echoes "flaky" in its output), but they are not
the person's work: search ranks them after the real hits and hides them unless asked
(`index.rows` marks them, `index.query` ranks). The model's answer to the command is its
own work and is not an echo. Does not: read files, or decide what a request is
(`entries.request_text`, which leaves the kit's commands out).
"""

from __future__ import annotations

from session_kit.base.slash_commands import is_kit_command
from session_kit.transcript.entries import KIND_ASSISTANT, KIND_USER, Entry, typed_text


def is_kit_request(entry: Entry) -> bool:
    """The request that runs one of the kit's slash commands."""
    typed = typed_text(entry)
    return typed is not None and is_kit_command(typed)


def may_be_body(entry: Entry) -> bool:
    """A user entry nobody typed (a command's expanded body, the client's own text): the
    kit's echo when its parent is a kit request."""
    return (
        entry.kind == KIND_USER
        and not entry.is_tool_result_carrier
        and not entry.is_sidechain
        and typed_text(entry) is None
    )


def is_echo_of(entry: Entry, parent: Entry | None) -> bool:
    """`entry` alone, with the entry before it in the file (`parent`, when it is its parent):
    for a reader that sees only some lines (the search's scan)."""
    if is_kit_request(entry):
        return True
    return (
        parent is not None
        and entry.parent_uuid is not None
        and parent.uuid == entry.parent_uuid
        and may_be_body(entry)
        and is_kit_request(parent)
    )


class KitEchoes:
    """Which entries of one file are the kit's echoes, fed in file order.

    `after_request`: the file's last entry read before (an earlier update of the index) was
    a kit command's request, so its body may open what is read now."""

    __slots__ = ("_requests", "_after_request")

    def __init__(self, *, after_request: bool = False) -> None:
        self._requests: set[str] = set()  # uuids of the kit's requests (and their bodies) so far
        self._after_request = after_request

    def is_echo(self, entry: Entry) -> bool:
        if entry.kind == KIND_ASSISTANT:
            self._after_request = False  # the model answered: no body can follow
        if entry.kind != KIND_USER or entry.is_tool_result_carrier or entry.is_sidechain:
            return False
        if is_kit_request(entry):
            echo = True
        elif may_be_body(entry):
            parent = entry.parent_uuid
            echo = (parent is not None and parent in self._requests) or self._after_request
        else:
            echo = False
        self._after_request = False
        if echo and entry.uuid:
            if len(self._requests) > 64:  # only the latest matter: a body follows its request
                self._requests.clear()
            self._requests.add(entry.uuid)
        return echo
