"""Typed, read-only views over raw transcript entries, in every dialect the kit meets.

Owns: what an entry *is* — its kind (conversation, system, summary, seed-style tool result,
client noise, unknown: from the classes of `vocabulary`, the one list of entry types), its ids, its time, its content blocks, its tool uses and tool results,
compaction markers, and the one rule of what a person's request is (`is_person_request`,
`request_text`). Three dialects are read: the current client's, the 1.0.x–2.0.x one
(`summary` title entries, `Task` tool, inline `isSidechain` agents) and the seed docs'
(top-level `tool_result` entries with a float `message.timestamp`). Unknown types are kept
with kind `unknown`, never dropped. Does not read files (that is `reader`), pair calls with
results (that is `calls`) or pick a session's title (that is `titles`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator, Mapping
from datetime import datetime, timezone
from typing import Any, NamedTuple

from session_kit.base import timestamps, vocabulary
from session_kit.base.agents import is_api_error
from session_kit.base.declines import denial_kind
from session_kit.base.slash_commands import is_kit_command, is_local_command

# The vocabulary's sets, also named here for the callers that know them from here.
from session_kit.base.vocabulary import KNOWN_ENTRY_TYPES as KNOWN_ENTRY_TYPES
from session_kit.base.vocabulary import NOISE_TYPES as NOISE_TYPES
from session_kit.transcript.reader import ReadStats, iter_records

KIND_USER = "user"
KIND_ASSISTANT = "assistant"
KIND_SYSTEM = "system"
KIND_SUMMARY = "summary"
KIND_TOOL_RESULT = "tool_result"  # the seed docs' top-level tool result entry
KIND_NOISE = "noise"
KIND_UNKNOWN = "unknown"
KINDS = (KIND_USER, KIND_ASSISTANT, KIND_SYSTEM, KIND_SUMMARY, KIND_TOOL_RESULT, KIND_NOISE, KIND_UNKNOWN)

# Content block types.
BLOCK_TEXT = "text"
BLOCK_THINKING = "thinking"
BLOCK_TOOL_USE = "tool_use"
BLOCK_TOOL_RESULT = "tool_result"
BLOCK_IMAGE = "image"

# Every block type the kit reads or knows to pass over (`queries.drift` reports the others).
KNOWN_BLOCK_TYPES = frozenset(
    {BLOCK_TEXT, BLOCK_THINKING, BLOCK_TOOL_USE, BLOCK_TOOL_RESULT, BLOCK_IMAGE, "redacted_thinking", "document"}
)

# The kind of each entry type a reader parses; every other known type is noise
# (`vocabulary.NOISE_TYPES`), and a type nobody knows is `unknown`.
_KNOWN_KINDS = {
    vocabulary.TYPE_USER: KIND_USER,
    vocabulary.TYPE_ASSISTANT: KIND_ASSISTANT,
    vocabulary.TYPE_SYSTEM: KIND_SYSTEM,
    vocabulary.TYPE_SUMMARY: KIND_SUMMARY,
    vocabulary.TYPE_TOOL_RESULT: KIND_TOOL_RESULT,
}


# Counts a transcript records (tokens, depths) are far below this; anything larger is noise an
# attacker wrote, and past 4,300 digits Python cannot even print it.
MAX_COUNT = 10**15


def count_value(value: Any) -> int | None:
    """A count field's value: an int from 0 to MAX_COUNT (not a bool), else None."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_COUNT:
        return value
    return None


def parse_timestamp(value: Any) -> datetime | None:
    """ISO-8601 strings (with `Z`) and Unix seconds (int or float) to an aware datetime,
    clamped (`base.timestamps`: year 1 east of UTC or 9999 west of it has no UTC time at all)."""
    if isinstance(value, str) and value:
        text = value[:-1] + "+00:00" if value.endswith(("Z", "z")) else value
        try:
            parsed = datetime.fromisoformat(text)
        except ValueError:
            return None
        return timestamps.moment(parsed if parsed.tzinfo else parsed.replace(tzinfo=timezone.utc))
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        try:  # an int past a float's range overflows here already
            return timestamps.from_seconds(value / 1000.0 if value > 1e11 else float(value))  # milliseconds, too
        except (OverflowError, OSError, ValueError):
            return None
    return None


def entry_time(raw: Mapping[str, Any]) -> datetime | None:
    """An entry's own time: its top-level `timestamp`, else the seed dialect's `message.timestamp`."""
    stamp = raw.get("timestamp")
    if stamp is None:
        message = raw.get("message")
        if isinstance(message, Mapping):
            stamp = message.get("timestamp")
    return parse_timestamp(stamp)


def format_timestamp(value: datetime | None) -> str | None:
    """An aware datetime as ISO-8601 with `Z` for UTC (the kit's JSON form); None stays None."""
    return value.isoformat().replace("+00:00", "Z") if value else None


def time_order(stamp: datetime | None) -> tuple[bool, float]:
    """A sort key: earliest first, the unknown times last (a stable sort keeps their order)."""
    return (stamp is None, stamp.timestamp() if stamp is not None else 0.0)


def seconds_between(start: datetime | None, end: datetime | None) -> float | None:
    """Seconds from `start` to `end` (never negative), or None when either is unknown."""
    if start is None or end is None:
        return None
    return max(0.0, (end - start).total_seconds())


class ToolResult(NamedTuple):
    """A tool result in any dialect: inside a user entry's content, or a seed-style entry."""

    tool_use_id: str
    content: Any
    is_error: bool
    extra: Any = None  # the entry's top-level `toolUseResult`, when there is one
    denial: str | None = None  # the entry's `toolDenialKind` (`base.declines.denial_kind`)

    @property
    def text(self) -> str:
        return content_text(self.content)


def content_text(content: Any) -> str:
    """The readable text of a `content` value: a string, or a list of blocks."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for block in content:
            if isinstance(block, str):
                parts.append(block)
            elif isinstance(block, Mapping):
                kind = block.get("type")
                if kind == BLOCK_TEXT:
                    parts.append(str(block.get("text", "")))
                elif kind == BLOCK_IMAGE:
                    parts.append("[image]")
                elif kind == BLOCK_TOOL_RESULT:
                    parts.append(content_text(block.get("content")))
                elif "text" in block:
                    parts.append(str(block["text"]))
        return "\n".join(parts)
    if isinstance(content, Mapping) and "text" in content:
        return str(content["text"])
    return str(content)


class Entry(NamedTuple):
    """One line of a transcript. `raw` is the parsed JSON object, kept whole."""

    line: int
    raw: Mapping[str, Any]
    type: str
    kind: str
    timestamp: datetime | None

    @classmethod
    def from_raw(cls, line: int, raw: Mapping[str, Any]) -> Entry:
        entry_type = raw.get("type")
        entry_type = entry_type if isinstance(entry_type, str) else ""
        kind = _KNOWN_KINDS.get(entry_type) or (KIND_NOISE if entry_type in NOISE_TYPES else KIND_UNKNOWN)
        return cls(line, raw, entry_type, kind, entry_time(raw))

    # --- identity and context -------------------------------------------------------------
    def _str(self, key: str) -> str | None:
        value = self.raw.get(key)
        return value if isinstance(value, str) else None

    @property
    def uuid(self) -> str | None:
        return self._str("uuid")

    @property
    def parent_uuid(self) -> str | None:
        return self._str("parentUuid")

    @property
    def session_id(self) -> str | None:
        return self._str("sessionId")

    @property
    def agent_id(self) -> str | None:
        return self._str("agentId")

    @property
    def cwd(self) -> str | None:
        return self._str("cwd") or None  # "" is unknown

    @property
    def git_branch(self) -> str | None:
        return self._str("gitBranch") or None  # older clients write "" outside a repository

    @property
    def version(self) -> str | None:
        return self._str("version")

    @property
    def slug(self) -> str | None:
        """The session's slug (the current client names the session's plan file after it)."""
        return self._str("slug")

    @property
    def is_sidechain(self) -> bool:
        return self.raw.get("isSidechain") is True

    @property
    def is_meta(self) -> bool:
        return self.raw.get("isMeta") is True

    @property
    def is_api_error(self) -> bool:
        """An assistant entry the client wrote for a failed API call (`API Error: …`): flagged,
        or a `<synthetic>` message saying so (`base.agents.is_api_error`)."""
        if self.raw.get("isApiErrorMessage") is True:
            return True
        return self.kind == KIND_ASSISTANT and self.model == "<synthetic>" and is_api_error(self.text)

    @property
    def is_conversation(self) -> bool:
        return self.kind in (KIND_USER, KIND_ASSISTANT)

    # --- message ------------------------------------------------------------------------
    @property
    def message(self) -> Mapping[str, Any]:
        message = self.raw.get("message")
        return message if isinstance(message, Mapping) else {}

    @property
    def message_id(self) -> str | None:
        value = self.message.get("id")
        return value if isinstance(value, str) else None

    @property
    def model(self) -> str | None:
        value = self.message.get("model")
        return value if isinstance(value, str) else None

    @property
    def usage(self) -> Mapping[str, Any] | None:
        usage = self.message.get("usage")
        if not isinstance(usage, Mapping):
            usage = self.raw.get("usage")
        return usage if isinstance(usage, Mapping) else None

    @property
    def blocks(self) -> tuple[Mapping[str, Any], ...]:
        """Content blocks; string content becomes one text block."""
        content = self.message.get("content")
        if isinstance(content, str):
            return ({"type": BLOCK_TEXT, "text": content},)
        if isinstance(content, list):
            return tuple(b for b in content if isinstance(b, Mapping))
        return ()

    @property
    def text(self) -> str:
        """The text blocks of the message, joined (no thinking, no tool blocks)."""
        return "\n".join(str(b.get("text", "")) for b in self.blocks if b.get("type") == BLOCK_TEXT)

    @property
    def thinking(self) -> str:
        return "\n".join(str(b.get("thinking", "")) for b in self.blocks if b.get("type") == BLOCK_THINKING)

    @property
    def tool_uses(self) -> tuple[Mapping[str, Any], ...]:
        if self.kind != KIND_ASSISTANT:
            return ()
        return tuple(b for b in self.blocks if b.get("type") == BLOCK_TOOL_USE)

    @property
    def tool_results(self) -> tuple[ToolResult, ...]:
        if self.kind == KIND_TOOL_RESULT:
            message = self.message
            tool_use_id = message.get("tool_use_id") or self.raw.get("tool_use_id")
            if not isinstance(tool_use_id, str):
                return ()
            return (
                ToolResult(
                    tool_use_id,
                    message.get("content", self.raw.get("content")),
                    bool(message.get("is_error", self.raw.get("is_error", False))),
                    self.raw.get("toolUseResult"),
                    denial_kind(self.raw),
                ),
            )
        if self.kind != KIND_USER:
            return ()
        extra = self.raw.get("toolUseResult")
        denial = denial_kind(self.raw)
        return tuple(
            ToolResult(
                str(b.get("tool_use_id", "")),
                b.get("content"),
                b.get("is_error") is True,
                extra,
                denial,
            )
            for b in self.blocks
            if b.get("type") == BLOCK_TOOL_RESULT
        )

    # --- what kind of user entry ----------------------------------------------------------
    @property
    def is_tool_result_carrier(self) -> bool:
        return self.kind == KIND_TOOL_RESULT or (
            self.kind == KIND_USER and any(b.get("type") == BLOCK_TOOL_RESULT for b in self.blocks)
        )

    @property
    def is_compact_summary(self) -> bool:
        return self.raw.get("isCompactSummary") is True

    @property
    def is_compact_boundary(self) -> bool:
        return self.kind == KIND_SYSTEM and self.raw.get("subtype") == vocabulary.SUBTYPE_COMPACT_BOUNDARY

    @property
    def is_system_originated(self) -> bool:
        """Sent into the conversation by the client itself (a background task's notification)."""
        origin = self.raw.get("origin")
        if isinstance(origin, Mapping) and origin.get("kind") not in (None, "user", "human"):
            return True
        return self.raw.get("promptSource") == "system"

    @property
    def is_model_launched(self) -> bool:
        """A slash command the model ran itself (through its SlashCommand or Skill tool): the
        client writes its echo with the launching call's id, `sourceToolUseID`."""
        return isinstance(self.raw.get("sourceToolUseID"), str)

    @property
    def is_user_prompt(self) -> bool:
        """A request the person typed (see `is_person_request`)."""
        return is_person_request(self)

    @property
    def summary_text(self) -> str | None:
        """The summary of a compaction: a 2025 `summary` entry or a compact-summary user entry."""
        if self.kind == KIND_SUMMARY:
            value = self.raw.get("summary")
            return value if isinstance(value, str) else ""
        if self.is_compact_summary:
            return self.text
        return None


# User-entry text the client writes itself, never typed as a request: local command output
# and its caveat (1.0.x wrote the caveat as plain text, without `isMeta`), task
# notifications, messages from teammate agents, `!` commands and their output, interruption
# markers.
_CLIENT_ECHOES = (
    "<local-command-stdout>",
    "<local-command-stderr>",
    "<local-command-caveat>",
    "Caveat: The messages below were generated by the user while running local commands",
    "<task-notification>",
    "<teammate-message",
    "<bash-input>",
    "<bash-stdout>",
    "<bash-stderr>",
    "[Request interrupted by user",
)
# Context the IDE or the client puts around what the person typed (left out of the request).
_IDE_CONTEXT = re.compile(r"<(ide_[a-z_]+|system-reminder)>.*?</\1>", re.S)


def request_text(entry: Entry) -> str | None:
    """What the person typed in `entry`, as they would name it (slash commands as
    `/name args`, IDE context tags left out), or None when the entry is not a request.

    The one rule of what a request is, for every reader (reports, listings, memory): a
    user entry of the main conversation, not a tool result, meta entry, compaction summary,
    client notification, teammate message, local command caveat, `!` command or its output,
    interruption marker, IDE context alone, a slash command the model launched itself
    (`sourceToolUseID`), the echo of a command the client runs itself, sending nothing to the
    model (`slash_commands.is_local_command`: `/clear`, `/model`, `/plugin`…, named with or
    without its slash), or one of the kit's own
    (`is_kit_command`: the kit talking to itself, never the person's work).
    """
    typed = typed_text(entry)
    return None if typed is None or is_kit_command(typed) else typed


def typed_text(entry: Entry) -> str | None:
    """`request_text` with the kit's own slash commands kept (`transcript.kit_echoes`)."""
    if (
        entry.kind != KIND_USER
        or entry.is_sidechain  # a subagent's prompt, written by the model
        or entry.is_meta
        or entry.is_compact_summary
        or entry.is_tool_result_carrier
        or entry.is_system_originated
        or entry.is_model_launched
    ):
        return None
    text = entry.text.lstrip()
    if not text or text.startswith(_CLIENT_ECHOES):
        return None
    if "<ide_" in text or "<system-reminder>" in text:
        text = _IDE_CONTEXT.sub("", text).strip()
        if not text:
            return None
    shown = prompt_display(text)
    if "<command-name>" in text and is_local_command(shown):
        return None
    return shown


def is_warmup_conversation(entries: Iterable[Entry]) -> bool:
    """The whole conversation of a 2.0.x warmup agent log (not an agent of the session): a
    `Warmup` prompt, or a lone assistant greeting with no prompt and no tool calls."""
    prompts = 0
    messages: set[str | int] = set()  # one API message is written as several lines
    for entry in entries:
        if entry.kind == KIND_USER and not entry.is_meta and entry.text.strip():
            if entry.text.strip().lower() == "warmup":
                return True
            prompts += 1
        elif entry.kind == KIND_ASSISTANT:
            if entry.tool_uses:
                return False
            messages.add(entry.message_id or entry.line)
        elif entry.is_tool_result_carrier:
            return False
    return prompts == 0 and len(messages) == 1


def is_person_request(entry: Entry) -> bool:
    """Whether `entry` is a request the person typed (`request_text` says what)."""
    return request_text(entry) is not None


def read_entries(path: str | os.PathLike[str], stats: ReadStats | None = None) -> Iterator[Entry]:
    """Stream the entries of a transcript file, each once: an entry whose `uuid` an earlier
    line had is a repeat (a file resumed or copied into itself) and is dropped, counted in
    `stats.repeated`."""
    stats = stats if stats is not None else ReadStats()
    from_raw = Entry.from_raw
    seen: set[str] = set()
    for line, raw in iter_records(path, stats):
        uuid = raw.get("uuid")
        if isinstance(uuid, str):
            if uuid in seen:
                stats.repeated += 1
                continue
            seen.add(uuid)
        yield from_raw(line, raw)


def prompt_display(text: str) -> str:
    """A user prompt as a person would name it: slash commands as `/name args` (1.0.x clients
    echoed some names without their slash)."""
    if "<command-name>" in text:
        name = (tagged(text, "command-name") or "").strip()
        args = (tagged(text, "command-args") or "").strip()
        if name:
            name = name if name.startswith("/") else f"/{name}"
            return f"{name} {args}".strip() if args else name
    return text


def tagged(text: str, tag: str) -> str | None:
    """What stands between the first `<tag>` in `text` and the `</tag>` after it, as written;
    None when either is missing. The one reader of the client's tagged texts (slash-command
    echoes, task notifications, tool errors)."""
    start = text.find(f"<{tag}>")
    if start < 0:
        return None
    start += len(tag) + 2
    end = text.find(f"</{tag}>", start)
    return text[start:end] if end >= 0 else None
