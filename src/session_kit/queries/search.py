"""Case-insensitive search over what was said and done in sessions.

Owns: finding a query in user and assistant messages, tool inputs and tool outputs of
sessions and their agent logs (those whose session file is gone included), with time, tool and a context snippet for each hit. Speed
comes from never parsing a line that cannot match: the raw bytes are scanned for the query
(as it appears inside JSON) first, and only lines that hold it are parsed and checked, so
noise entries and non-matching lines cost a byte scan, as they would for grep. What of an
entry is searchable is `transcript.searchable`'s (the index takes the same rule). Many files
are shared between this process and a fork of it (`forked`), the hits given back in order.
Where the time goes (10,000 sessions, 653 MB, one core): lowering every byte and finding the
needle in it ~0.7 s, reading ~0.25 s, listing the sessions and their agents' logs ~0.3 s; for
a common word, redacting each hit's text before its snippet is cut ~0.8 s more.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from session_kit.base.fileio import open_fd, reason, skipped
from session_kit.forked import ordered_map
from session_kit.redaction.engine import shown
from session_kit.sessions.store import AgentLogs, SessionRef
from session_kit.transcript.blockscan import BLOCK, all_lines, candidate_lines, first_block, newlines_between
from session_kit.transcript.blockscan import blocks as file_blocks
from session_kit.transcript.entries import KIND_NOISE, Entry, format_timestamp
from session_kit.transcript.kit_echoes import is_echo_of, is_kit_request, may_be_body
from session_kit.transcript.reader import ReadStats, parse_line
from session_kit.transcript.searchable import searchable_fields

SNIPPET_RADIUS = 60
# Where in an entry a hit is.


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
    kit: bool = False  # one of the kit's own echoes (`transcript.kit_echoes`)

    def as_dict(self) -> dict[str, Any]:
        return {
            "session_id": self.session_id,
            "agent_id": self.agent_id,
            "path": str(self.path),
            "line": self.line,
            "timestamp": format_timestamp(self.timestamp),
            "where": self.where,
            "tool": self.tool,
            "snippet": self.snippet,
            "kit": self.kit,
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


def _hits_in_entry(
    entry: Entry, query: Query, target: SearchTarget, *, tool: str | None
) -> Iterator[tuple[SearchHit, str | None]]:
    """Each hit, with the id of the call whose tool names it (None: named already)."""
    for where, tool_name, call_id, text in searchable_fields(entry):
        if tool is not None and call_id is None and (tool_name or "").lower() != tool.lower():
            continue
        at = query.find(text)
        if at >= 0:
            # The snippet is cut from the text as shown: a cut through a secret would leave a
            # piece of it. A hit inside a secret shows the marker that took its place.
            text = shown(text)
            at = max(0, min(query.find(text), len(text) - 1))
            hit = SearchHit(
                target.session_id,
                target.agent_id,
                target.path,
                entry.line,
                entry.timestamp,
                where,
                tool_name,
                snippet(text, at, len(query.text)),
            )
            yield hit, call_id


def _tool_name_at(data: bytes, at: int, call_id: str, stats: ReadStats) -> tuple[str | None, int]:
    """The tool name if the line of `data` holding offset `at` has the tool_use `call_id`;
    and the line's start."""
    start = data.rfind(b"\n", 0, at) + 1
    stop = data.find(b"\n", at)
    line = data[start : len(data) if stop < 0 else stop]
    if b'"tool_use"' in line and (value := parse_line(line, stats, 0)) is not None:
        for block in Entry.from_raw(0, value).tool_uses:
            if block.get("id") == call_id:
                return str(block.get("name", "?")), start
    return None, start


def _tool_names_in(data: bytes, wanted: Mapping[str, int], names: dict[str, str]) -> None:
    """Fill `names` for the wanted tool_use ids found in `data`.

    `wanted` maps an id to the offset of its result: the use is usually a few lines before,
    so it is looked for in growing windows before that offset (a forward `find`; `rfind`
    with a many-byte needle is far slower), then anywhere.
    """
    stats = ReadStats()
    for call_id, result_at in wanted.items():
        if call_id in names:
            continue
        quoted = json.dumps(call_id).encode()
        for window in (64 * 1024, 1024 * 1024, len(data)):
            at = data.find(quoted, max(0, result_at - window))
            while at >= 0 and call_id not in names:
                name, _ = _tool_name_at(data, at, call_id, stats)
                if name:
                    names[call_id] = name
                    break
                stop = data.find(b"\n", at)
                at = -1 if stop < 0 else data.find(quoted, stop)
            if call_id in names or window >= result_at:
                break


def _tool_names_in_blocks(blocks: Iterable[bytes], wanted: Mapping[str, int], names: dict[str, str]) -> None:
    """A second pass over a file of many blocks: each id is looked for in the block holding
    its result (before the result) and in the block before that, where uses are in practice."""
    offset = 0
    previous = b""
    for block in blocks:
        end = offset + len(block)
        here = {i: at - offset for i, at in wanted.items() if offset <= at < end and i not in names}
        if here:
            _tool_names_in(block, here, names)
            missing = {i: len(previous) for i in here if i not in names}
            if missing and previous:
                _tool_names_in(previous, missing, names)
        previous, offset = block, end
        if offset > max(wanted.values()):
            break


def search_file(
    target: SearchTarget, query: Query, *, tool: str | None = None, limit: int | None = None
) -> list[SearchHit]:
    """The hits in one file, in line order; with `limit`, at most that many besides the kit's
    own echoes (marked `kit`), and the file is read no further than the line that gave the
    last. Holds the hits (a snippet each), never the entries; an entry repeated with its uuid
    (a resumed or copied file) is read once."""
    stats = ReadStats()
    found: list[tuple[SearchHit, str | None]] = []
    kept = 0  # hits sure to be kept (their tool is known, or no tool was asked for)
    seen: set[str] = set()
    names: dict[str, str] = {}
    fd, st = open_fd(target.path)
    size = st.st_size
    try:
        first, rest = first_block(fd, size)
        if rest is None:
            blocks: Iterable[bytes] = (first,)
            newlines_in = None

            def line_before(at: int) -> bytes:
                return first[first.rfind(b"\n", 0, max(0, at - 1)) + 1 : max(0, at - 1)]
        else:
            blocks = file_blocks(rest, first)
            shift = rest.tell() - len(first)  # the byte-order mark dropped from the first block

            def newlines_in(start: int, stop: int) -> int:
                return newlines_between(fd, shift + start, shift + stop)

            def line_before(at: int) -> bytes:
                start = max(0, shift + at - PARENT_WINDOW)
                data = os.pread(fd, shift + at - start, start).removesuffix(b"\n")
                return data[data.rfind(b"\n") + 1 :]

        if query.needle is not None:
            lines = candidate_lines(blocks, query.needle, newlines_in=newlines_in)
        else:
            lines = all_lines(blocks)
        wanted: dict[str, int] = {}  # tool_use id -> offset of its result
        for line_no, offset, raw in lines:
            value = parse_line(raw, stats, line_no)
            if value is None:
                continue
            uuid = value.get("uuid")
            if isinstance(uuid, str):
                if uuid in seen:
                    continue
                seen.add(uuid)
            entry = Entry.from_raw(line_no, value)
            if entry.kind == KIND_NOISE:
                continue
            kit: bool | None = None  # whether the entry is the kit's own echo: asked on its first hit
            for hit, call_id in _hits_in_entry(entry, query, target, tool=tool):
                if kit is None:
                    kit = _is_kit_echo(entry, line_before, offset)
                found.append((replace(hit, kit=True) if kit else hit, call_id))
                if call_id is not None:
                    wanted.setdefault(call_id, offset)
                if (call_id is None or tool is None) and not kit:
                    kept += 1
            if limit is not None and kept >= limit:
                break
        if not found:
            return []
        if wanted:
            if rest is None:
                _tool_names_in(first, wanted, names)
            else:
                rest.seek(0)
                _tool_names_in_blocks(file_blocks(rest, rest.read(BLOCK) + rest.readline()), wanted, names)
    finally:
        os.close(fd)
    hits = []
    for hit, call_id in found:
        if call_id is not None:
            name = names.get(call_id)
            if tool is not None and (name or "").lower() != tool.lower():
                continue
            hit = replace(hit, tool=name)
        hits.append(hit)
    if limit is None:
        return hits
    real = 0
    kept_hits = []
    for hit in hits:  # the first `limit` hits besides the kit's echoes, and those
        real += not hit.kit
        if hit.kit or real <= limit:
            kept_hits.append(hit)
    return kept_hits


PARENT_WINDOW = 256 * 1024  # a kit command's request, read back from its body's line


def _is_kit_echo(entry: Entry, line_before: Callable[[int], bytes], offset: int) -> bool:
    """`transcript.kit_echoes`' rule for an entry the scan met alone: a body is the kit's when
    the line before it is its parent, a kit command's request (the client writes them so)."""
    if is_kit_request(entry):
        return True
    if not may_be_body(entry) or entry.parent_uuid is None or offset <= 0:
        return False
    raw = line_before(offset)
    value = parse_line(raw, ReadStats(), 0) if b"command-name" in raw else None  # (read again, not counted)
    return value is not None and is_echo_of(entry, Entry.from_raw(entry.line - 1, value))


def session_targets(refs: Iterable[SessionRef], *, orphans_of: Iterable[Path] = ()) -> Iterator[SearchTarget]:
    """Each session's transcript, then its agents' logs (every layout); then the agent logs
    of the `orphans_of` projects whose session file is gone."""
    agent_logs = AgentLogs(with_meta=False)
    listed: dict[Path, set[str]] = {}  # the sessions of each project met in `refs`
    for ref in refs:
        listed.setdefault(ref.project, set()).add(ref.id)
        yield SearchTarget(ref.path, ref.id)
        for log in agent_logs.of(ref):
            if log.path is not None:
                yield SearchTarget(log.path, ref.id, log.agent_id)
    for project in orphans_of:
        for session_id, log in agent_logs.orphans(project, known_sessions=listed.get(project, ())):
            if log.path is not None:
                yield SearchTarget(log.path, session_id, log.agent_id)


PARALLEL_MIN_FILES = 64
CHUNK_FILES = 32  # files per job of a parallel search: small enough for the processes to end together
MAX_CHUNKS = 8192  # and at most this many jobs (each is a 4-byte ticket in a pipe)


def default_workers(targets: list[SearchTarget], env: Mapping[str, str] | None = None) -> int:
    """Processes to search with: one per core (up to 4) when there are many files, else 1.

    `SESSION_KIT_WORKERS` overrides. Only where `fork` exists: starting interpreters afresh
    would cost more than it saves.
    """
    env = os.environ if env is None else env
    configured = env.get("SESSION_KIT_WORKERS", "").strip()
    if configured.isdigit():
        return max(1, int(configured))
    if len(targets) < PARALLEL_MIN_FILES or not hasattr(os, "fork"):
        return 1
    return max(1, min(os.cpu_count() or 1, 4))


_M_TOP_PAD, _M_MMAP_THRESHOLD = -2, -3  # glibc's mallopt parameters
_KEPT_BYTES = 16 * 1024 * 1024
_MAPPED_FROM = 4 * 1024 * 1024  # above a block (1 MB) and its lowered copy


def _keep_freed_memory() -> None:
    """Ask the C allocator (glibc) to keep up to 16 MB of freed memory instead of giving it back.

    A search of many files allocates each file's bytes and their lowered copy, then frees
    them; by default glibc returns freed memory over 128 kB to the system at once, so the
    next file's bytes land on fresh pages, each a page fault. Over the 10,000 sessions of the
    benchmark: 59,000 page faults and 0.5 s of system time, against 7,500 and 0.35 s with this
    (one core; 4 ms to load ctypes). Elsewhere (another C library), nothing changes.
    """
    try:
        import ctypes

        mallopt = ctypes.CDLL(None).mallopt
        mallopt(_M_TOP_PAD, _KEPT_BYTES)
        mallopt(_M_MMAP_THRESHOLD, _MAPPED_FROM)  # setting one parameter stops glibc adapting this one
    except (ImportError, OSError, AttributeError):
        pass


def _search_one(target: SearchTarget, query: Query, tool: str | None, limit: int | None) -> list[SearchHit]:
    try:
        return search_file(target, query, tool=tool, limit=limit)
    except OSError as exc:  # removed, unreadable or not a regular file: say so, go on
        skipped(target.path, reason(exc))
        return []


def search(
    targets: list[SearchTarget],
    query: Query,
    *,
    tool: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    workers: int | None = None,
    limit: int | None = None,
) -> Iterator[SearchHit]:
    """Hits in the order of `targets`, then of lines; `progress(done, total)` as files finish.

    With several workers the files are searched in chunks by this process and forks of it
    (`forked.ordered_map`); the order of the hits is the same. `limit`: the caller stops
    after that many, so no file needs to give more (and none is read past its last one).
    """
    total = len(targets)
    workers = default_workers(targets) if workers is None else workers
    if total >= PARALLEL_MIN_FILES:
        _keep_freed_memory()
    if workers <= 1:
        for done, target in enumerate(targets, 1):
            yield from _search_one(target, query, tool, limit)
            if progress is not None:
                progress(done, total)
        return
    size = max(CHUNK_FILES, -(-total // MAX_CHUNKS))
    chunks = [targets[i : i + size] for i in range(0, total, size)]

    def search_chunk(chunk: list[SearchTarget]) -> list[SearchHit]:
        return [hit for target in chunk for hit in _search_one(target, query, tool, limit)]

    done = 0
    for chunk, hits in zip(chunks, ordered_map(search_chunk, chunks, workers=workers)):
        yield from hits
        done += len(chunk)
        if progress is not None:
            progress(done, total)
