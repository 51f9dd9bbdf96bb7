"""One transcript file (a session or an agent log) streamed through the steps into XML units.

Owns: the order of the steps on each line (session filter, noise, log discovery, then the
content steps), the mapping of entries to the documented elements, and the per-log state the
steps need (tool names by id, dropped calls, seen documentation blocks, the previous
assistant text, the spawning calls of agents). Yields one unit per entry (an assistant
message written as several lines is one entry) and never holds more than one entry. Does not
decide where documents start and end (that is `chunking`) or which files are read (that is
`pipeline`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from session_kit.transcript.entries import (
    KIND_ASSISTANT,
    KIND_NOISE,
    KIND_SUMMARY,
    KIND_SYSTEM,
    KIND_TOOL_RESULT,
    KIND_USER,
    Entry,
    ToolResult,
    prompt_display,
)
from session_kit.transcript.calls import STATUS_ERROR, result_outcome
from session_kit.transcript.tools import AGENT_TOOLS
from session_kit.transcript.reader import ReadStats, parse_line
from session_kit.preprocess import steps
from session_kit.preprocess.noise import NoiseTally, conversation_lines
from session_kit.redact import SEPARATOR, Redactor, is_secret_name, marker
from session_kit.preprocess.xmlwriter import attrs, clean, escape_markup

_LOCAL_OUTPUT = ("<local-command-stdout>", "<local-command-stderr>")
UNKNOWN_LIMIT = 500  # characters of an unknown entry's (or block's) JSON kept
BATCH_CHARS = 64 * 1024  # text redacted and escaped in one pass (bounds the units held)


@dataclass(frozen=True, slots=True)
class ConvertOptions:
    session_id: str  # entries that name another session are dropped
    filtering: bool = True  # the content steps and the empty/warmup check
    thinking: bool = False
    claude_roots: tuple[str, ...] = ()  # for recognising log discovery


@dataclass(slots=True)
class AgentCall:
    """An `Agent`/`Task` tool use seen in the log, for linking agent logs to it."""

    tool_use_id: str
    name: str
    input: Mapping[str, Any]
    line: int
    started: datetime | None
    agent_id: str | None = None


@dataclass(slots=True)
class LogFacts:
    """What the conversion learnt about the log besides its units."""

    check: steps.SessionCheck = field(default_factory=steps.SessionCheck)
    cwd: str | None = None
    branch: str | None = None
    agent_calls: dict[str, AgentCall] = field(default_factory=dict)


class _Unit:
    """One entry's XML being built: markup (trusted) and texts (redacted and escaped at the end,
    all in one pass)."""

    __slots__ = ("pieces", "texts")

    def __init__(self) -> None:
        self.pieces: list[str | None] = []  # None: the next of `texts`
        self.texts: list[str] = []

    def markup(self, piece: str) -> None:
        self.pieces.append(piece)

    def text(self, text: str) -> None:
        self.pieces.append(None)
        self.texts.append(text)

    def open(self, name: str, attributes: Mapping[str, Any]) -> None:
        self.pieces.append(f"<{name}{attrs(attributes)}>")

    def leaf(self, name: str, attributes: Mapping[str, Any]) -> None:
        self.pieces.append(f"<{name}{attrs(attributes)}/>")

    def text_element(self, name: str, attributes: Mapping[str, Any], text: str) -> None:
        self.pieces.append(f"<{name}{attrs(attributes)}>")
        self.pieces.append(None)
        self.texts.append(text)
        self.pieces.append(f"</{name}>")

    def __bool__(self) -> bool:
        return bool(self.pieces)


def _time(entry: Entry) -> str | None:
    stamp = entry.raw.get("timestamp")
    if isinstance(stamp, str):
        return stamp
    if entry.timestamp is not None:
        return entry.timestamp.isoformat().replace("+00:00", "Z")
    return None


class LogConverter:
    """Converts one transcript file; iterate `units()` once, then read `facts`."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        options: ConvertOptions,
        *,
        reduction: steps.Reduction,
        read: ReadStats,
        redactor: Redactor | None,
    ) -> None:
        self.path = path
        self.options = options
        self.reduction = reduction
        self.read = read
        self.redactor = redactor
        self.facts = LogFacts()
        self._tool_names: dict[str, str] = {}
        self._dropped_calls: set[str] = set()
        self._docs = steps.DocDeduper()
        self._last_text: str | None = None
        self._pending: list[_Unit] = []
        self._pending_chars = 0

    # --- the line loop --------------------------------------------------------------------------
    def units(self) -> Iterator[str]:
        reduction = self.reduction
        target = self.options.session_id
        noise = NoiseTally()  # the common case, tallied apart and added at the end
        group: list[Entry] = []  # the lines of the assistant message being read
        group_id: str | None = None
        try:
            for line_no, raw in conversation_lines(self.path, self.read, noise):
                value = parse_line(raw, self.read, line_no)
                size = len(raw)
                if value is None:
                    reduction.count(steps.STEP_UNREADABLE, size)
                    continue
                entry = Entry.from_raw(line_no, value)
                if entry.kind == KIND_NOISE:
                    noise.entries += 1
                    noise.chars += size
                    continue
                session_id = entry.session_id
                if session_id is not None and session_id != target:
                    reduction.count(steps.STEP_SESSION_FILTER, size)
                    continue
                if self.facts.cwd is None and entry.cwd:
                    self.facts.cwd, self.facts.branch = entry.cwd, entry.git_branch
                if entry.kind == KIND_ASSISTANT:
                    message_id = entry.message_id
                    if group and message_id is not None and message_id == group_id:
                        group.append(entry)
                        continue
                    if group:
                        yield from self._take(self._assistant(group))
                    group, group_id = [entry], message_id
                    continue
                if group:
                    yield from self._take(self._assistant(group))
                    group, group_id = [], None
                yield from self._take(self._entry(entry))
            if group:
                yield from self._take(self._assistant(group))
            yield from self._flush()
        finally:
            reduction.input_chars += noise.input_chars
            reduction.count(steps.STEP_NOISE, noise.chars, noise.entries)

    def _take(self, unit: _Unit | None) -> list[str]:
        """Queue a built unit; returns the queued units as XML once enough text is waiting.

        Texts are redacted and escaped a batch at a time: one pass over many small texts
        costs far less than a pass over each.
        """
        if not unit:
            return []
        self.facts.check.saw_entry()
        self._pending.append(unit)
        self._pending_chars += sum(map(len, unit.texts))
        if self._pending_chars < BATCH_CHARS:
            return []
        return self._flush()

    def _flush(self) -> list[str]:
        pending = self._pending
        if not pending:
            return []
        self._pending, self._pending_chars = [], 0
        texts = [t for unit in pending for t in unit.texts]
        escaped = iter(self._escape_many(texts) if texts else ())
        return ["".join(p if p is not None else next(escaped) for p in unit.pieces) for unit in pending]

    def _escape_many(self, texts: list[str]) -> list[str]:
        """Texts made safe for XML, redacted, escaped: one pass over all of them."""
        joined = SEPARATOR.join(texts)
        # NUL inside a text would split it: it is one of the characters XML forbids anyway.
        if joined.count(SEPARATOR) != len(texts) - 1:
            joined = SEPARATOR.join(t.replace(SEPARATOR, "\ufffd") for t in texts)
        joined = clean(joined, keep_nul=True)
        if self.redactor is not None:
            redacted = self.redactor(joined)
            if redacted != joined:
                self.reduction.count(steps.STEP_REDACTION, len(joined) - len(redacted))
                joined = redacted
        return escape_markup(joined).split(SEPARATOR)

    # --- assistant messages ---------------------------------------------------------------------
    def _assistant(self, group: list[Entry]) -> _Unit | None:
        filtering = self.options.filtering
        blocks = [(entry, block) for entry in group for block in entry.blocks]
        has_tool_use = any(block.get("type") == "tool_use" for _, block in blocks)
        unit = _Unit()
        first = group[0]
        unit.open("assistant", {"line": first.line, "time": _time(first)})
        children = 0
        for entry, block in blocks:
            # One child a line: keeps lines short for readers that cut long lines.
            separator = "\n" if children else ""
            kind = block.get("type")
            if kind == "text":
                text = str(block.get("text") or "")
                stripped = text.strip()
                if not stripped:
                    continue
                if filtering and has_tool_use and stripped == self._last_text:
                    self.reduction.count(steps.STEP_DUPLICATE_TEXT, len(text))
                    continue
                self._last_text = stripped
                self.facts.check.saw_assistant_text(text)
                unit.markup(separator)
                unit.text_element("text", {}, text)
            elif kind in ("thinking", "redacted_thinking"):
                thinking = str(block.get("thinking") or block.get("data") or "")
                if not self.options.thinking:
                    self.reduction.count(steps.STEP_THINKING, len(thinking))
                    continue
                if not thinking.strip():
                    continue
                unit.markup(separator)
                unit.text_element("thinking", {}, thinking)
            elif kind == "tool_use":
                if not self._tool_use(unit, entry, block, separator):
                    continue
            elif kind == "image":
                unit.markup(separator + "<image/>")
            elif isinstance(kind, str):
                unit.markup(separator)
                self._unknown_block(unit, kind, block)
            else:
                continue
            children += 1
        if not children:
            return None
        unit.markup("</assistant>")
        return unit

    def _tool_use(self, unit: _Unit, entry: Entry, block: Mapping[str, Any], separator: str = "") -> bool:
        call_id = block.get("id")
        call_id = call_id if isinstance(call_id, str) else ""
        name = str(block.get("name") or "?")
        tool_input = block.get("input")
        tool_input = tool_input if isinstance(tool_input, Mapping) else {}
        self._tool_names[call_id] = name
        filtering = self.options.filtering
        if filtering and steps.is_log_discovery(name, tool_input, self.options.claude_roots):
            self._dropped_calls.add(call_id)
            self.reduction.count(steps.STEP_LOG_DISCOVERY, len(steps.param_text(dict(tool_input))))
            return False
        if name in AGENT_TOOLS and call_id:
            self.facts.agent_calls[call_id] = AgentCall(call_id, name, tool_input, entry.line, entry.timestamp)
        unit.markup(separator)
        unit.open("tool_use", {"id": call_id, "name": name})
        for key, value in tool_input.items():
            text = steps.param_text(value)
            if self.redactor is not None and text and is_secret_name(str(key)):
                kind = "password" if "pass" in str(key).lower() else "secret"
                self.redactor.counts[kind] += 1
                self.reduction.count(steps.STEP_REDACTION, len(text) - len(marker(kind)))
                text = marker(kind)
            elif filtering:
                short = steps.truncate_param(str(key), text)
                if short is not text:
                    self.reduction.count(steps.STEP_TRUNCATE_PARAMS, len(text) - len(short))
                    text = short
            unit.text_element("param", {"name": key}, text)
        unit.markup("</tool_use>")
        return True

    def _unknown_block(self, unit: _Unit, kind: str, block: Mapping[str, Any]) -> None:
        text = steps.cut(json.dumps(block, ensure_ascii=False, default=str), UNKNOWN_LIMIT)
        unit.text_element("block", {"type": kind}, text)

    # --- every other entry ------------------------------------------------------------------------
    def _entry(self, entry: Entry) -> _Unit | None:
        kind = entry.kind
        if kind == KIND_USER:
            return self._user(entry)
        unit = _Unit()
        if kind == KIND_TOOL_RESULT:
            results = entry.tool_results
            if not results or not self._tool_result(unit, entry, results[0]):
                return None
        elif kind == KIND_SYSTEM:
            self._system(unit, entry)
        elif kind == KIND_SUMMARY:
            leaf = entry.raw.get("leafUuid")
            leaf = leaf if isinstance(leaf, str) else None
            unit.text_element("summary", {"line": entry.line, "leaf": leaf}, entry.summary_text or "")
        else:
            text = steps.cut(json.dumps(entry.raw, ensure_ascii=False, default=str), UNKNOWN_LIMIT)
            unit.text_element("entry", {"line": entry.line, "type": entry.type or None, "time": _time(entry)}, text)
        return unit

    def _system(self, unit: _Unit, entry: Entry) -> None:
        raw = entry.raw
        if entry.is_compact_boundary:
            meta = raw.get("compactMetadata")
            meta = meta if isinstance(meta, Mapping) else {}
            trigger, pre = meta.get("trigger"), meta.get("preTokens")
            unit.leaf(
                "compact_boundary",
                {
                    "line": entry.line,
                    "time": _time(entry),
                    "trigger": trigger if isinstance(trigger, str) else None,
                    "pre_tokens": pre if isinstance(pre, int) else None,
                },
            )
            return
        subtype, level, content = raw.get("subtype"), raw.get("level"), raw.get("content")
        attributes = {
            "line": entry.line,
            "time": _time(entry),
            "subtype": subtype if isinstance(subtype, str) else None,
            "level": level if isinstance(level, str) else None,
        }
        if isinstance(content, str) and content:
            unit.text_element("system", attributes, content)
        else:
            unit.leaf("system", attributes)

    def _user(self, entry: Entry) -> _Unit | None:
        attributes = {"line": entry.line, "time": _time(entry)}
        unit = _Unit()
        if entry.is_compact_summary:
            unit.text_element("compact_summary", attributes, entry.text)
            return unit
        user_open: list[Any] | None = None  # [index of the open tag in pieces, kind]
        for block in entry.blocks:
            block_type = block.get("type")
            if block_type == "tool_result":
                if user_open is not None:
                    self._close_user(unit, user_open, attributes)
                    user_open = None
                tool_use_id = block.get("tool_use_id")
                result = ToolResult(
                    tool_use_id if isinstance(tool_use_id, str) else "",
                    block.get("content"),
                    block.get("is_error") is True,
                    entry.raw.get("toolUseResult"),
                )
                self._tool_result(unit, entry, result)
                continue
            if block_type == "text":
                text = str(block.get("text") or "")
                if not text.strip():
                    continue
            elif block_type is None or not isinstance(block_type, str):
                continue
            if user_open is None:
                user_open = [len(unit.pieces), None]
                unit.markup("")  # the open tag, written when the kind is known
            else:
                unit.markup("\n")
            if block_type == "text":
                kind, text = self._user_kind(entry, text)
                user_open[1] = user_open[1] or kind
                if kind in (None, "command"):
                    self.facts.check.saw_user_text(text)
                earlier = self._docs.first_line(text, entry.line) if self.options.filtering else None
                if earlier is not None:
                    self.reduction.count(steps.STEP_DEDUP_DOCS, len(text))
                    unit.leaf("same_as", {"line": earlier, "chars": len(text)})
                else:
                    unit.text(text)
            elif block_type == "image":
                unit.markup("<image/>")
            else:
                self._unknown_block(unit, block_type, block)
        if user_open is not None:
            self._close_user(unit, user_open, attributes)
        return unit or None

    @staticmethod
    def _close_user(unit: _Unit, user_open: list[Any], attributes: Mapping[str, Any]) -> None:
        index, kind = user_open
        unit.pieces[index] = f"<user{attrs({**attributes, 'kind': kind})}>"
        unit.markup("</user>")

    @staticmethod
    def _user_kind(entry: Entry, text: str) -> tuple[str | None, str]:
        """The `kind` attribute of a user text (None: a prompt the person wrote), and its text."""
        head = text.lstrip()
        if "<command-name>" in text:
            return "command", prompt_display(text)
        if head.startswith(_LOCAL_OUTPUT):
            return "output", text
        if entry.is_meta or head.startswith("<local-command-caveat>"):
            return "meta", text
        if entry.is_system_originated or head.startswith("<task-notification>"):
            return "notification", text
        return None, text

    def _tool_result(self, unit: _Unit, entry: Entry, result: ToolResult) -> bool:
        call_id = result.tool_use_id
        text = result.text
        if call_id in self._dropped_calls:
            self.reduction.count(steps.STEP_LOG_DISCOVERY, len(text))
            return False
        name = self._tool_names.get(call_id)
        status, exit_code, _error = result_outcome(result)
        agent_id = None
        if name in AGENT_TOOLS:
            extra = result.extra
            found = extra.get("agentId") if isinstance(extra, Mapping) else None
            if isinstance(found, str):
                agent_id = found
                call = self.facts.agent_calls.get(call_id)
                if call is not None:
                    call.agent_id = found
        pieces: tuple[str | int, ...] = (text,)
        lines = None
        if self.options.filtering:
            pruned = steps.prune_output(text)
            kept = pruned.text_chars
            if kept != len(text):
                self.reduction.count(steps.STEP_PRUNE_RESULTS, len(text) - kept)
            if pruned.omitted:
                lines = pruned.lines
            pieces = pruned.pieces
        unit.open(
            "tool_result",
            {
                "line": entry.line,
                "time": _time(entry),
                "tool_use_id": call_id,
                "tool": name,
                "status": "error" if status == STATUS_ERROR else None,
                "exit_code": exit_code,
                "lines": lines,
                "agent_id": agent_id,
            },
        )
        for index, piece in enumerate(pieces):
            if index:
                unit.markup("\n")  # the line break that separated them in the output
            if isinstance(piece, str):
                if piece:
                    unit.text(piece)
            else:
                unit.markup(f'<omitted lines="{piece}"/>')
        unit.markup("</tool_result>")
        return True
