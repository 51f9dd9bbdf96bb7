"""A session's title: what the client's `--resume` list names it by.

Owns: reading title entries in every dialect — 1.0.x–2.0.x `{"type":"summary","summary",
"leafUuid"}` lines (titles, not compactions: several are often stacked at the top of a file,
and their `leafUuid` usually points into another session), and current clients'
`custom-title` (`/rename`, which wins) and `ai-title` lines — and choosing one: a rename
first, then the latest generated title, then the latest `summary` whose `leafUuid` is an
entry of this file, else the first `summary`. Reads no files: it is given entries, or asked
whether a uuid is in the file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NamedTuple

from session_kit.base.vocabulary import TYPE_AI_TITLE as TYPE_AI
from session_kit.base.vocabulary import TYPE_CUSTOM_TITLE as TYPE_CUSTOM  # a person's /rename: always wins
from session_kit.base.vocabulary import TYPE_SUMMARY
from session_kit.transcript.entries import KIND_SUMMARY, Entry

_TITLE_FIELDS = {TYPE_SUMMARY: "summary", TYPE_CUSTOM: "customTitle", TYPE_AI: "aiTitle"}
TITLE_TYPES = frozenset(_TITLE_FIELDS)


class TitleLine(NamedTuple):
    """One title entry: its type, its text and (`summary`) the entry it names."""

    type: str
    text: str
    leaf_uuid: str | None = None


def title_line(entry: Entry) -> TitleLine | None:
    """The title an entry holds, or None."""
    field = _TITLE_FIELDS.get(entry.type)
    if field is None:
        return None
    text = entry.raw.get(field)
    if not isinstance(text, str) or not text.strip():
        return None
    leaf = entry.raw.get("leafUuid") if entry.kind == KIND_SUMMARY else None
    return TitleLine(entry.type, " ".join(text.split()), leaf if isinstance(leaf, str) else None)


def choose_title(lines: Iterable[TitleLine], holds_uuid: Callable[[str], bool]) -> str | None:
    """The session's title from its title lines in file order (see the module docstring);
    `holds_uuid(u)` says whether an entry of this file has the uuid `u`."""
    custom = ai = belonging = first = None
    for line in lines:
        if line.type == TYPE_CUSTOM:
            custom = line.text
        elif line.type == TYPE_AI:
            ai = line.text
        else:
            first = first or line.text
            if line.leaf_uuid and holds_uuid(line.leaf_uuid):
                belonging = line.text
    return custom or ai or belonging or first


class TitleScan:
    """Watches a session's entries go by (a `Session` observer) and names its title."""

    def __init__(self) -> None:
        self.lines: list[TitleLine] = []
        self._uuids: set[str] = set()

    def add(self, entry: Entry) -> None:
        line = title_line(entry)
        if line is not None:
            self.lines.append(line)
            return
        uuid = entry.uuid
        if uuid is not None:
            self._uuids.add(uuid)

    @property
    def title(self) -> str | None:
        return choose_title(self.lines, self._uuids.__contains__)
