"""Case-insensitive search over what was said and done in sessions.

Owns: finding a query in user and assistant messages, tool inputs and tool outputs of
sessions and their agent logs, with time, tool and a context snippet for each hit. Speed
comes from never parsing a line that cannot match: the raw bytes are scanned for the query
(as it appears inside JSON) first, and only lines that hold it are parsed and checked, so
noise entries and non-matching lines cost a byte scan, as they would for grep.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from session_kit.entries import Entry, content_text
from session_kit.jsonl import BOM, ReadStats, parse_line

SNIPPET_RADIUS = 60
BLOCK = 4 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class SearchTarget:
    """A file to search, and whom to credit hits in it to."""

    path: Path
    session_id: str
    agent_id: str | None = None


@dataclass(frozen=True, slots=True)
class SearchHit:
    session_id: str
    agent_id: str | None
    path: Path
    line: int
    timestamp: datetime | None
    where: str  # user | assistant | tool_input | tool_output | summary
    tool: str | None
    snippet: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "session_id": self.session_id,
            "agent_id": self.agent_id,
            "path": str(self.path),
            "line": self.line,
            "timestamp": self.timestamp.isoformat().replace("+00:00", "Z") if self.timestamp else None,
            "where": self.where,
            "tool": self.tool,
            "snippet": self.snippet,
        }


class Query:
    """A query in the forms the search needs: folded text, and its raw JSON-escaped bytes."""

    def __init__(self, text: str) -> None:
        if not text:
            raise ValueError("empty query")
        self.text = text
        self.folded = text.casefold()
        escaped = json.dumps(text, ensure_ascii=False)[1:-1]
        # Byte-level prefiltering is exact only where lowering bytes lowers the query: ASCII.
        # Other queries (and JSON files written with \\u escapes) take the parse-every-line path.
        self.needle: bytes | None = escaped.lower().encode() if escaped.isascii() else None
        self._pattern = re.compile(re.escape(text), re.IGNORECASE)

    def find(self, text: str) -> int:
        match = self._pattern.search(text)
        return match.start() if match else -1


def snippet(text: str, at: int, length: int) -> str:
    start = max(0, at - SNIPPET_RADIUS)
    end = min(len(text), at + length + SNIPPET_RADIUS)
    piece = " ".join(text[start:end].split())
    return ("…" if start > 0 else "") + piece + ("…" if end < len(text) else "")


def _fields(entry: Entry, tool_names: Mapping[str, str]) -> Iterator[tuple[str, str | None, str]]:
    """(where, tool, text) of every searchable piece of an entry."""
    if entry.kind == "summary":
        yield "summary", None, entry.summary_text or ""
        return
    for result in entry.tool_results:
        yield "tool_output", tool_names.get(result.tool_use_id), result.text
    if entry.kind not in ("user", "assistant"):
        return
    where = "summary" if entry.is_compact_summary else entry.kind
    for block in entry.blocks:
        kind = block.get("type")
        if kind == "text":
            yield where, None, str(block.get("text", ""))
        elif kind == "tool_use":
            tool_input = block.get("input")
            if isinstance(tool_input, Mapping):
                for value in tool_input.values():
                    yield "tool_input", str(block.get("name", "?")), (
                        value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
                    )


def _hits_in_entry(
    entry: Entry, query: Query, target: SearchTarget, tool_names: Mapping[str, str], tool: str | None
) -> Iterator[SearchHit]:
    for where, tool_name, text in _fields(entry, tool_names):
        if tool is not None and (tool_name or "").lower() != tool.lower():
            continue
        at = query.find(text)
        if at >= 0:
            yield SearchHit(
                target.session_id,
                target.agent_id,
                target.path,
                entry.line,
                entry.timestamp,
                where,
                tool_name,
                snippet(text, at, len(query.text)),
            )


def _candidate_lines(path: Path, needle: bytes) -> Iterator[tuple[int, bytes]]:
    """(line_no, raw line) of every line whose lowered bytes contain `needle`."""
    with open(path, "rb") as f:
        line_no = 0  # lines before the start of `data`
        carry = b""
        first = True
        while True:
            block = f.read(BLOCK)
            if not block and not carry:
                return
            data = carry + block
            if first and data.startswith(BOM):
                data = data[len(BOM):]
            first = False
            if block:
                cut = data.rfind(b"\n") + 1
                if cut == 0:
                    carry = data  # one line longer than a block: keep reading
                    continue
                data, carry = data[:cut], data[cut:]
            else:
                carry = b""
            lowered = data.lower()
            pos = lowered.find(needle)
            counted = 0
            while pos >= 0:
                start = data.rfind(b"\n", 0, pos) + 1
                end = data.find(b"\n", pos)
                end = len(data) if end < 0 else end + 1
                line_no += data.count(b"\n", counted, start)
                counted = start
                yield line_no + 1, data[start:end]
                pos = lowered.find(needle, end)
            line_no += data.count(b"\n", counted)


def _tool_names_for(path: Path, ids: Iterable[str]) -> dict[str, str]:
    """Names of the tool uses with these ids, found by scanning the file for each id."""
    names: dict[str, str] = {}
    wanted = set(ids)
    if not wanted:
        return names
    needles = {json.dumps(i).encode(): i for i in wanted}
    stats = ReadStats()
    with open(path, "rb") as f:
        for raw in f:
            if b"tool_use" not in raw:
                continue
            hit = [i for n, i in needles.items() if n in raw]
            if not hit:
                continue
            value = parse_line(raw, stats, 0)
            if value is None:
                continue
            for block in Entry.from_raw(0, value).tool_uses:
                if block.get("id") in wanted:
                    names[block["id"]] = str(block.get("name", "?"))
            if len(names) == len(wanted):
                break
    return names


def search_file(target: SearchTarget, query: Query, *, tool: str | None = None) -> list[SearchHit]:
    stats = ReadStats()
    if query.needle is not None:
        lines: Iterable[tuple[int, bytes]] = _candidate_lines(target.path, query.needle)
    else:
        lines = _all_lines(target.path)
    entries = []
    for line_no, raw in lines:
        value = parse_line(raw, stats, line_no)
        if value is not None:
            entry = Entry.from_raw(line_no, value)
            if entry.kind != "noise":
                entries.append(entry)
    if not entries:
        return []
    result_ids = [r.tool_use_id for e in entries for r in e.tool_results]
    tool_names = _tool_names_for(target.path, result_ids) if result_ids else {}
    hits = []
    for entry in entries:
        hits.extend(_hits_in_entry(entry, query, target, tool_names, tool))
    return hits


def _all_lines(path: Path) -> Iterator[tuple[int, bytes]]:
    with open(path, "rb") as f:
        for n, raw in enumerate(f, 1):
            yield n, raw[len(BOM):] if n == 1 and raw.startswith(BOM) else raw


def search(
    targets: list[SearchTarget],
    query: Query,
    *,
    tool: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Iterator[SearchHit]:
    """Hits in file order; `progress(done, total)` is called after each file."""
    total = len(targets)
    for done, target in enumerate(targets, 1):
        try:
            yield from search_file(target, query, tool=tool)
        except OSError:
            pass  # removed or unreadable while we searched: nothing to find there
        if progress is not None:
            progress(done, total)
