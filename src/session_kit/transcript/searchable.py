"""What of an entry can be searched, and where in the entry it stands.

Owns: the searchable pieces of one entry (request and answer text, tool inputs, tool outputs,
summaries), each with where it stands, the tool that names it when known, and the id of the
call whose tool is still to be named (a tool output's tool is known only from its use). The
one rule for the scan (`queries.search`) and the index (`index.rows`). Does not: read files,
match, rank or redact.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from session_kit.transcript.entries import KIND_ASSISTANT, KIND_SUMMARY, KIND_USER, Entry

WHERE_USER = KIND_USER
WHERE_ASSISTANT = KIND_ASSISTANT
WHERE_TOOL_INPUT = "tool_input"
WHERE_TOOL_OUTPUT = "tool_output"
WHERE_SUMMARY = "summary"


def searchable_fields(entry: Entry) -> Iterator[tuple[str, str | None, str | None, str]]:
    """(where, tool, id of the call whose tool is still to be named, text) of every searchable
    piece of an entry: a tool output's tool is known only from its use, found later."""
    if entry.kind == KIND_SUMMARY:
        yield WHERE_SUMMARY, None, None, entry.summary_text or ""
        return
    for result in entry.tool_results:
        yield WHERE_TOOL_OUTPUT, None, result.tool_use_id, result.text
    if entry.kind not in (KIND_USER, KIND_ASSISTANT):
        return
    where = WHERE_SUMMARY if entry.is_compact_summary else entry.kind
    for block in entry.blocks:
        kind = block.get("type")
        if kind == "text":
            yield where, None, None, str(block.get("text", ""))
        elif kind == "tool_use":
            tool_input = block.get("input")
            name = block.get("name")
            if isinstance(tool_input, Mapping):
                for value in tool_input.values():
                    yield WHERE_TOOL_INPUT, name if isinstance(name, str) else "?", None, _as_text(value)


def _as_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False)
    except (ValueError, RecursionError):  # 1e400, an int past 4,300 digits, absurd nesting
        return ""
