"""Plain readers for the transcripts the client writes, used by the end-to-end assertions.

Deliberately independent of the kit: these tests check the client's files with their own eyes,
so a bug in the kit's reader cannot hide a change in the client.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

Entry = Mapping[str, Any]


def read_entries(path: Path) -> list[Entry]:
    """Every line of a JSONL transcript, parsed; a line that is not a JSON object fails loudly."""
    entries = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        value = json.loads(line)
        assert isinstance(value, dict), f"{path}:{number} is not a JSON object"
        entries.append(value)
    return entries


def blocks(entry: Entry) -> list[Mapping[str, Any]]:
    content = (entry.get("message") or {}).get("content")
    return [b for b in content if isinstance(b, Mapping)] if isinstance(content, list) else []


def tool_uses(entries: list[Entry], name: str | None = None) -> Iterator[tuple[Entry, Mapping[str, Any]]]:
    for entry in entries:
        if entry.get("type") == "assistant":
            for block in blocks(entry):
                if block.get("type") == "tool_use" and (name is None or block.get("name") == name):
                    yield entry, block


def tool_results(entries: list[Entry]) -> dict[str, tuple[Entry, Mapping[str, Any]]]:
    """tool_use_id -> (the user entry, its tool_result block)."""
    found = {}
    for entry in entries:
        if entry.get("type") == "user":
            for block in blocks(entry):
                if block.get("type") == "tool_result":
                    found[block["tool_use_id"]] = (entry, block)
    return found


def result_text(block: Mapping[str, Any]) -> str:
    content = block.get("content")
    if isinstance(content, str):
        return content
    return "\n".join(str(b.get("text", "")) for b in content or [] if isinstance(b, Mapping))


def user_text(entry: Entry) -> str:
    content = (entry.get("message") or {}).get("content")
    if isinstance(content, str):
        return content
    return "\n".join(str(b.get("text", "")) for b in blocks(entry) if b.get("type") == "text")
