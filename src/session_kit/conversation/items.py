"""Format-neutral items: what one transcript entry becomes, before any output format.

Owns: the item kinds and the role of each (`ROLES`), the kinds of a user turn (`USER_KINDS`),
the small tree a converted entry is (`Element`s with a kind as their `name`, attributes and
children; a child is text, a nested element or an `Omitted` run of lines), the `Unit` (the
elements of one entry, in order), the text guarantee every unit keeps (no character that no
output may carry: `clean`), and replacing a unit's texts in order (`replace_texts`, for
redaction done in batches). Does not decide which items an entry becomes (that is
`elements`), escape anything or choose a layout (the XML renderer in
`preprocess/render/`, the page in `view`).

A child list of None means an element with no content at all (`<image/>` in XML); an empty
list or a list holding an empty text means an element whose content happens to be empty.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

# --- item kinds (an `Element`'s name; the XML element of the same name) --------------------
USER = "user"  # a user turn: its texts and images; `kind` attribute below
ASSISTANT = "assistant"  # one API message of the model: the items below, in order
TEXT = "text"
THINKING = "thinking"
TOOL_USE = "tool_use"  # a tool call: one PARAM per input key
PARAM = "param"
TOOL_RESULT = "tool_result"  # the answer to a call (`tool_use_id`), named by the call's tool
IMAGE = "image"
BLOCK = "block"  # a content block the kit does not show: named by its type, never its content
SAME_AS = "same_as"  # a text identical to one seen earlier (`line`)
COMPACT_BOUNDARY = "compact_boundary"
COMPACT_SUMMARY = "compact_summary"  # what replaced the context at a compaction
SUMMARY = "summary"  # a `summary` title line (1.0.x–2.0.x)
SYSTEM = "system"  # a note the client wrote into the conversation (`subtype`)
ENTRY = "entry"  # an entry of a type nobody knows: named by its type, never its content

# What each kind is to a reader: what a page makes of it.
ROLE_MESSAGE = "message"  # said by the person, the model or the client
ROLE_PART = "part"  # inside a message or a call
ROLE_CALL = "call"
ROLE_RESULT = "result"
ROLE_COMPACTION = "compaction"
ROLE_TITLE = "title"  # the session's name, not its conversation
ROLE_NOTE = "note"  # shown small: client notes and what is named but never shown
ROLES = {
    USER: ROLE_MESSAGE,
    ASSISTANT: ROLE_MESSAGE,
    COMPACT_SUMMARY: ROLE_MESSAGE,
    TEXT: ROLE_PART,
    THINKING: ROLE_PART,
    IMAGE: ROLE_PART,
    PARAM: ROLE_PART,
    SAME_AS: ROLE_PART,
    TOOL_USE: ROLE_CALL,
    TOOL_RESULT: ROLE_RESULT,
    COMPACT_BOUNDARY: ROLE_COMPACTION,
    SUMMARY: ROLE_TITLE,
    SYSTEM: ROLE_NOTE,
    BLOCK: ROLE_NOTE,
    ENTRY: ROLE_NOTE,
}

# The `kind` of a user turn (None: what the person typed).
USER_COMMAND = "command"  # a slash command the person ran, as `/name args`
USER_CLIENT_COMMAND = "client-command"  # a command the client runs itself, sending nothing to the model
USER_MODEL_COMMAND = "model-command"  # a slash command the model launched (its SlashCommand or Skill tool)
USER_META = "meta"  # text the client inserted (command documentation, caveats)
USER_OUTPUT = "output"  # a local command's output
USER_NOTIFICATION = "notification"  # a task notification
USER_KINDS = (
    None, USER_COMMAND, USER_CLIENT_COMMAND, USER_MODEL_COMMAND, USER_META, USER_OUTPUT, USER_NOTIFICATION
)  # fmt: skip
# The kinds that are the person's request (`transcript.entries.request_text`).
REQUEST_KINDS = (None, USER_COMMAND)


def role(kind: str) -> str:
    """What an item kind is to a reader; a kind it does not know is a note."""
    return ROLES.get(kind, ROLE_NOTE)


REPLACEMENT = "\ufffd"
# C0 controls other than tab/newline/CR, lone surrogates, U+FFFE/U+FFFF: XML 1.0 forbids them,
# UTF-8 cannot encode a lone surrogate, and a terminal would act on the controls.
_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_FORBIDDEN_BUT_NUL = re.compile("[\x01-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def clean(text: str, *, keep_nul: bool = False) -> str:
    """`text` with every character no output may carry replaced by U+FFFD.

    `keep_nul` leaves NUL alone, for callers that use it to join texts and split them later.
    """
    forbidden = _FORBIDDEN_BUT_NUL if keep_nul else _FORBIDDEN
    if forbidden.search(text) is None:
        return text
    return forbidden.sub(REPLACEMENT, text)


class Omitted:
    """That many lines of tool output left out here."""

    __slots__ = ("lines",)

    def __init__(self, lines: int) -> None:
        self.lines = lines

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Omitted) and other.lines == self.lines

    def __repr__(self) -> str:
        return f"Omitted({self.lines})"


class Element:
    """A named node: attributes (a None value means absent) and children (None: no content)."""

    __slots__ = ("name", "attrs", "children")

    def __init__(
        self,
        name: str,
        attrs: Mapping[str, Any] | None = None,
        children: list[Child] | None = None,
    ) -> None:
        self.name = name
        self.attrs = attrs
        self.children = children

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Element)
            and other.name == self.name
            and dict(other.attrs or {}) == dict(self.attrs or {})
            and other.children == self.children
        )

    def __repr__(self) -> str:
        return f"Element({self.name!r}, {self.attrs!r}, {self.children!r})"


Child = str | Element | Omitted
Unit = Sequence[Element]  # one entry's elements, in order (mostly one)


def texts(unit: Unit) -> Iterator[str]:
    """Every text of the unit, depth first, in document order."""
    for element in unit:
        yield from _texts(element)


def _texts(element: Element) -> Iterator[str]:
    for child in element.children or ():
        if isinstance(child, str):
            yield child
        elif isinstance(child, Element):
            yield from _texts(child)


def replace_texts(unit: Unit, new: Iterator[str]) -> None:
    """Put the next of `new` in place of each text of the unit, in the order of `texts`."""
    for element in unit:
        _replace(element, new)


def _replace(element: Element, new: Iterator[str]) -> None:
    children = element.children
    if not children:
        return
    for index, child in enumerate(children):
        if isinstance(child, str):
            children[index] = next(new)
        elif isinstance(child, Element):
            _replace(child, new)
