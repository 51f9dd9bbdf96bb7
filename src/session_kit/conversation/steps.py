"""The reduction steps of preprocessing, each a small pure function or value.

Owns: what each step keeps and drops, on plain strings and dicts: which tool calls are log
discovery, when a session is empty or a warmup, repeated documentation blocks, truncating
tool parameters (paths keep their ends), pruning long tool output to its head and its error
lines, and the tally of what every step removed. Does not read files, parse lines or write
XML: `convert` applies these steps to a transcript in the pipeline's order.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from session_kit.base.tools import BASH
from session_kit.redaction.engine import head_to_redact

# The steps, in the order the pipeline applies them (what `Reduction` reports).
STEP_SESSION_FILTER = "session_filter"
STEP_NOISE = "noise"
STEP_UNREADABLE = "unreadable"
STEP_LOG_DISCOVERY = "log_discovery"
STEP_DEDUP_DOCS = "dedup_docs"
STEP_TRUNCATE_PARAMS = "truncate_params"
STEP_DUPLICATE_TEXT = "duplicate_text"
STEP_PRUNE_RESULTS = "prune_results"
STEP_THINKING = "thinking"
STEP_REDACTION = "redaction"
# Noise is told from raw bytes, so it goes first: a foreign session's noise is dropped either way.
STEPS = (
    STEP_NOISE,
    STEP_UNREADABLE,
    STEP_SESSION_FILTER,
    STEP_LOG_DISCOVERY,
    STEP_DEDUP_DOCS,
    STEP_TRUNCATE_PARAMS,
    STEP_DUPLICATE_TEXT,
    STEP_PRUNE_RESULTS,
    STEP_THINKING,
    STEP_REDACTION,
)

PARAM_LIMIT = 200  # characters of a tool parameter kept
RESULT_HEAD_LINES = 30  # lines of a tool result always kept
LINE_LIMIT = 500  # characters of one output line kept
DOC_MIN_CHARS = 200  # user text blocks at least this long are deduplicated

# Lower-case words that make a line of tool output an error line.
ERROR_WORDS = (
    "error",
    "exception",
    "traceback",
    "fail",
    "fatal",
    "panic",
    "warn",
    "denied",
    "abort",
    "segmentation",
)


# --- tally ------------------------------------------------------------------------------------


@dataclass(slots=True)
class StepTally:
    entries: int = 0  # entries, blocks or texts the step changed or dropped
    chars: int = 0  # characters it removed (negative: added)


@dataclass(slots=True)
class Reduction:
    """Characters in and out, and what each step removed.

    Input is counted in bytes of JSONL (UTF-8; equal to characters for ASCII), output in
    characters of XML. What no step accounts for is `conversion`: the JSON envelope of kept
    entries (ids, usage, the client's `toolUseResult` copies) minus the XML markup added.
    """

    input_chars: int = 0
    output_chars: int = 0
    steps: dict[str, StepTally] = field(default_factory=lambda: {name: StepTally() for name in STEPS})

    def count(self, step: str, chars: int, entries: int = 1) -> None:
        tally = self.steps[step]
        tally.entries += entries
        tally.chars += chars

    def merge(self, other: Reduction) -> None:
        self.input_chars += other.input_chars
        self.output_chars += other.output_chars
        for name, tally in other.steps.items():
            self.count(name, tally.chars, tally.entries)

    @property
    def conversion(self) -> int:
        return self.input_chars - self.output_chars - sum(t.chars for t in self.steps.values())

    def as_dict(self) -> dict[str, Any]:
        return {
            "input_chars": self.input_chars,
            "output_chars": self.output_chars,
            "ratio": round(self.output_chars / self.input_chars, 4) if self.input_chars else None,
            "steps": [
                {"step": name, "entries": tally.entries, "chars": tally.chars} for name, tally in self.steps.items()
            ],
            "conversion": self.conversion,
        }

    def describe(self) -> str:
        """One line for humans that adds up: input, minus what each step removed (`+N`: a step
        that added, such as redaction markers longer than their secrets), minus the conversion
        (JSON envelope out, XML markup in), is the output."""
        ratio = f" ({self.output_chars / self.input_chars:.1%})" if self.input_chars else ""
        parts = [f"{name} {_signed(-t.chars)}" for name, t in self.steps.items() if t.chars or t.entries]
        parts.append(f"conversion {_signed(-self.conversion)}")
        return f"{self.input_chars:,} chars in, {self.output_chars:,} out{ratio}; " + ", ".join(parts)


def _signed(chars: int) -> str:
    """`-1,200` for characters removed, `+120` for characters added."""
    return f"+{chars:,}" if chars > 0 else f"-{-chars:,}"


# --- empty and warmup sessions ----------------------------------------------------------------

STATUS_OK = "ok"
STATUS_EMPTY = "empty"
STATUS_WARMUP = "warmup"


@dataclass(slots=True)
class SessionCheck:
    """Watches a session's conversation go by and tells whether it is empty or a warmup."""

    entries: int = 0
    has_user_text: bool = False
    has_assistant_text: bool = False
    first_prompt: str | None = None

    def saw_entry(self) -> None:
        self.entries += 1

    def saw_user_text(self, text: str) -> None:
        if text.strip():
            self.has_user_text = True
            if self.first_prompt is None:
                self.first_prompt = text

    def saw_assistant_text(self, text: str) -> None:
        if text.strip():
            self.has_assistant_text = True

    def verdict(self, *, agent: bool = False) -> tuple[str, str | None]:
        """`(status, reason)`: `ok`, `empty` or `warmup`, with a reason for the last two.

        A session is empty only when no conversation is left of it: neither a text the
        person sent nor an answer (a one-shot `claude -p` run, one request and one answer, is
        a session). An agent's log is empty only when nothing of it is left. Either is
        otherwise dropped only as a warmup.
        """
        if agent:
            if not self.entries:
                return STATUS_EMPTY, "no conversation entries"
            if self.first_prompt is not None and is_warmup(self.first_prompt):
                return STATUS_WARMUP, "the prompt is a warmup"
            return STATUS_OK, None
        if not self.entries or not (self.has_user_text or self.has_assistant_text):
            return STATUS_EMPTY, "no conversation"
        if self.first_prompt is not None and is_warmup(self.first_prompt):
            return STATUS_WARMUP, "the first user text is a warmup"
        return STATUS_OK, None


def is_warmup(first_prompt: str) -> bool:
    """The 2.0.x client's warmup prompt, `Warmup` alone (a prompt about a warmup is work)."""
    return first_prompt.strip().lower() == "warmup"


# --- log discovery ----------------------------------------------------------------------------

_SEGMENT_SPLIT = re.compile(r"&&|\|\||;|\|")
_ROOT_MENTIONS = (
    "~/.claude",
    "$HOME/.claude",
    "${HOME}/.claude",
    "$CLAUDE_CONFIG_DIR",
    "${CLAUDE_CONFIG_DIR}",
    "/.claude/",
    "/.claude ",
)


def mentions_claude_root(text: str, roots: Iterable[str] = ()) -> bool:
    if text.rstrip().endswith("/.claude") or any(m in text for m in _ROOT_MENTIONS):
        return True
    return any(root and root in text for root in roots)


def is_log_discovery(tool: str, tool_input: Mapping[str, Any], roots: Iterable[str] = ()) -> bool:
    """A call the model made to find the session logs: `pwd`, or `ls`/`find` of a Claude root.

    `roots` are the Claude roots as written in paths (the real one, its `projects` folder).
    """
    if tool == BASH:
        command = tool_input.get("command")
        if not isinstance(command, str):
            return False
        command = command.strip()
        if command == "pwd":
            return True
        segments = [s.strip() for s in _SEGMENT_SPLIT.split(command) if s.strip()]
        if not segments:
            return False
        while segments and segments[0].split()[0] == "cd" and len(segments) > 1:
            segments = segments[1:]
        first = segments[0].split()[0]
        return first in ("ls", "find") and mentions_claude_root(command, roots)
    if tool in ("LS", "Glob"):
        where = tool_input.get("path")
        return isinstance(where, str) and mentions_claude_root(where + " ", roots)
    return False


# --- documentation blocks ---------------------------------------------------------------------


class DocDeduper:
    """Remembers long user text blocks by content hash; a repeat gets the first one's line."""

    def __init__(self, min_chars: int = DOC_MIN_CHARS) -> None:
        self.min_chars = min_chars
        self._seen: dict[tuple[int, int], int] = {}

    def first_line(self, text: str, line: int) -> int | None:
        """The line of an earlier identical block, or None (and this one is remembered)."""
        if len(text) < self.min_chars:
            return None
        # Python's string hash (64-bit SipHash) with the length: a collision is not a concern
        # within one run, and hashlib would cost more to import than the whole step.
        key = (len(text), hash(text))
        earlier = self._seen.get(key)
        if earlier is None:
            self._seen[key] = line
        return earlier


# --- tool parameters --------------------------------------------------------------------------

_PATH_KEYS = frozenset({"file_path", "path", "notebook_path", "cwd", "directory", "dir"})


_WHITESPACE = re.compile(r"\s")


def looks_like_path(name: str, value: str) -> bool:
    if ("/" not in value and "\\" not in value) or _WHITESPACE.search(value):
        return False
    return name in _PATH_KEYS or value.startswith(("/", "~/", "./", "../")) or value[1:3] == ":\\"


def shorten_path(path: str) -> str:
    """The first two and last two segments of a path, with `…` between."""
    sep = "\\" if "\\" in path and "/" not in path else "/"
    lead = sep if path.startswith(sep) else ""
    parts = [p for p in path.split(sep) if p]
    if len(parts) <= 4:
        return path
    return lead + sep.join(parts[:2] + ["…"] + parts[-2:])


def cut(text: str, limit: int, redact: Callable[[str], str] | None = None) -> str:
    """At most `limit` characters of `text`, and how many more there were; with `redact`,
    redacted before the cut (a secret across the cut would leave its head)."""
    if len(text) <= limit:
        return text
    more = len(text) - limit
    if redact is not None:
        text = redact(head_to_redact(text, limit))
    return f"{text[:limit]}… [+{more} chars]"


def param_text(value: Any) -> str:
    """A parameter as text: strings as they are, anything else as compact JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def truncate_param(name: str, value: str, limit: int = PARAM_LIMIT, redact: Callable[[str], str] | None = None) -> str:
    """A parameter over `limit` characters: a path keeps its ends, anything else its head
    (redacted first, with `redact`)."""
    if len(value) <= limit:
        return value
    if looks_like_path(name, value):
        value = shorten_path(value)
    return cut(value, limit, redact)


# --- tool output ------------------------------------------------------------------------------


class PrunedOutput(NamedTuple):
    """Tool output after pruning: text pieces, and between them how many lines were left out."""

    pieces: tuple[str | int, ...]  # str: kept text; int: that many lines omitted
    lines: int  # lines in the original
    omitted: int  # lines left out

    @property
    def text_chars(self) -> int:
        return sum(len(p) for p in self.pieces if isinstance(p, str))


def _cut_lines(text: str, limit: int, redact: Callable[[str], str] | None) -> str:
    if len(text) <= limit:
        return text
    return "\n".join(cut(line, limit, redact) if len(line) > limit else line for line in text.split("\n"))


# --- client boilerplate -------------------------------------------------------------------------

_ASYNC_LAUNCH = "Async agent launched successfully"
_AGENT_ID = re.compile(r"agentId: ([\w-]+)")
_REMINDER = re.compile(r"<system-reminder>.*?</system-reminder>\s*", re.DOTALL)


def shorter_boilerplate(text: str) -> str | None:
    """What is left of a tool result the client writes for the model alone (the ~900-character
    instructions of an async agent launch): one line naming the agent; None for any other text."""
    if not text.lstrip().startswith(_ASYNC_LAUNCH):
        return None
    found = _AGENT_ID.search(text)
    return "Async agent launched" + (f" (agentId {found.group(1)})" if found else "") + "; it runs in the background."


def without_reminders(text: str) -> str:
    """A user text without the client's `<system-reminder>` metadata (dates, file states)."""
    return _REMINDER.sub("", text) if "<system-reminder>" in text else text


ERROR_BLOCK_LINES = 60  # lines of one error block kept: its head and its innermost frames
ERROR_BLOCK_HEAD = 12
# Where a block of frames starts (Python, Go, Rust, Java) and the lines that continue one
# (indented frames, Node/Java `at` lines, `Caused by:`, Go's function lines, Rust's notes).
_BLOCK_MARKERS = ("Traceback (", "panic: ", "goroutine ", "panicked at", "Exception in thread", "\tat ", "    at ")
_PY_START = re.compile(r"^\s*Traceback \(most recent call last\):")
_OTHER_START = re.compile(r"^(panic: |goroutine \d+ \[|thread '.*' panicked at |Exception in thread )")
_STACK_LINE = re.compile(r"^(\s+at \S|\s*\.\.\. \d+ more|Caused by: |\s*\d+: |stack backtrace:|note: )")
_GO_FRAME = re.compile(r"^(\S+\(.*\)$|created by |goroutine \d+ \[)")


def _error_block_spans(rest: str) -> list[tuple[int, int]]:
    """The line spans of the error blocks in `rest` (a traceback and its frames, in Python,
    Node, Go, Rust or Java), each bounded to ERROR_BLOCK_LINES: its head and its last lines
    (a Python traceback's innermost frames and the exception)."""
    if not any(marker in rest for marker in _BLOCK_MARKERS):
        return []  # the usual case: no per-line work
    starts, at = [], 0
    lines = rest.split("\n")
    for line in lines:
        starts.append(at)
        at += len(line) + 1
    keep: list[int] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if _PY_START.match(line):
            j = i + 1
            while j < len(lines) and lines[j][:1] in (" ", "\t"):
                j += 1
            if j > i + 1 and j < len(lines) and lines[j].strip():
                j += 1  # the exception line that ends the frames
            end = j
        elif _OTHER_START.match(line) or (_STACK_LINE.match(lines[i + 1]) if i + 1 < len(lines) else False):
            j = i + 1
            blank_ok = line.startswith("panic: ")  # Go: a blank line before the goroutine dump
            while j < len(lines):
                nxt = lines[j]
                if not nxt.strip():
                    if not blank_ok:
                        break
                    blank_ok = False
                elif not (nxt[:1] in (" ", "\t") or _STACK_LINE.match(nxt) or _GO_FRAME.match(nxt) or j == i + 1):
                    break
                j += 1
            end = j
        else:
            i += 1
            continue
        block = list(range(i, end))
        if len(block) > ERROR_BLOCK_LINES:
            block = block[:ERROR_BLOCK_HEAD] + block[-(ERROR_BLOCK_LINES - ERROR_BLOCK_HEAD) :]
        keep.extend(block)
        i = max(end, i + 1)
    return [(starts[n], starts[n] + len(lines[n])) for n in keep]


def prune_output(
    text: str,
    *,
    head_lines: int = RESULT_HEAD_LINES,
    line_limit: int = LINE_LIMIT,
    words: tuple[str, ...] = ERROR_WORDS,
    redact: Callable[[str], str] | None = None,
) -> PrunedOutput:
    """The first `head_lines` lines, then only error blocks (a traceback with its frames,
    bounded) and lines holding an error word; long lines cut (redacted first, with `redact`)."""
    if text.endswith("\n"):
        text = text[:-1]
    lines = text.count("\n") + 1
    if lines <= head_lines:
        return PrunedOutput((_cut_lines(text, line_limit, redact),), lines, 0)
    end = -1
    for _ in range(head_lines):
        end = text.find("\n", end + 1)
    head = text[:end]
    rest = text[end + 1 :]
    low = rest.lower()
    spans: list[tuple[int, int]] = _error_block_spans(rest)
    for word in words:
        i = low.find(word)
        while i >= 0:
            start = low.rfind("\n", 0, i) + 1
            stop = low.find("\n", i)
            if stop < 0:
                stop = len(low)
            spans.append((start, stop))
            i = low.find(word, stop)
    pieces: list[str | int] = [_cut_lines(head, line_limit, redact)]
    omitted = 0
    at = 0  # start of the first line of `rest` not yet kept or counted
    kept: list[str] = []
    for start, stop in sorted(set(spans)):
        if start < at:
            continue  # a line already kept for another word
        gap = rest.count("\n", at, start)
        if gap:
            if kept:
                pieces.append(_cut_lines("\n".join(kept), line_limit, redact))
                kept = []
            pieces.append(gap)
            omitted += gap
        kept.append(rest[start:stop])
        at = stop + 1
    if kept:
        pieces.append(_cut_lines("\n".join(kept), line_limit, redact))
    if at <= len(rest):
        gap = rest.count("\n", at) + 1
        pieces.append(gap)
        omitted += gap
    return PrunedOutput(tuple(pieces), lines, omitted)
