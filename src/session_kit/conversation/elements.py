"""Transcript entries as the conversation model's items (`conversation.items`), with the content steps.

Owns: mapping one entry (or one assistant message) to its items (an assistant message, a
user turn and its kind, tool uses, tool results named by their call, compactions, client
notes, markers for what is never shown…; as XML, docs/preprocess.md), applying the content steps
on the way (log discovery, documentation dedup, parameter truncation, duplicate text, output
pruning, thinking, secret-named parameters), and the per-log state they need: the calls
waiting for their results (paired by `transcript.calls.WaitingCalls`), dropped calls, seen documentation blocks, the previous assistant text, the empty/warmup
check, and the log's agent-spawning calls as `ToolCall`s for the agent linker. Every text put
in a unit is also appended to `texts`, in document order, so the converter can redact a
batch of them at once. Does not read lines, redact free text or escape (that is `convert` and
the renderers).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from session_kit.base.declines import denial_kind
from session_kit.base.slash_commands import is_local_command
from session_kit.base.tools import SPAWNS_AGENT
from session_kit.conversation import items, steps
from session_kit.conversation.items import Child, Element, Omitted
from session_kit.redaction.engine import Redactor, is_secret_name, marker
from session_kit.redaction.printed import Commands, redact_output
from session_kit.transcript.calls import (
    STATUS_DECLINED,
    STATUS_ERROR,
    ToolCall,
    WaitingCalls,
    result_outcome,
    spawned_agent_of,
)
from session_kit.transcript.entries import (
    KIND_SUMMARY,
    KIND_SYSTEM,
    KIND_TOOL_RESULT,
    KIND_USER,
    Entry,
    ToolResult,
    count_value,
    prompt_display,
    request_text,
)
from session_kit.transcript.tokens import TokenTally
from session_kit.transcript.tools import summarize_input

_LOCAL_OUTPUT = ("<local-command-stdout>", "<local-command-stderr>")
_IMAGE = Element(items.IMAGE)  # no attributes, no content: shared by every unit


class ConvertOptions(NamedTuple):
    session_id: str | None  # entries that name another session are dropped; None: none are
    # The main section of a 1.0.x file: asked at its first sidechain entry whether its inline
    # agents go apart (`agents.InlineAgents.apart`); None: sidechain entries stay in.
    skip_sidechains: Callable[[], bool] | None = None
    thread: frozenset[str] | None = None  # an inline agent's section: only these entry uuids
    filtering: bool = True  # the content steps and the empty/warmup check
    thinking: bool = False
    claude_roots: tuple[str, ...] = ()  # for recognising log discovery
    agent_id: str | None = None  # the agent whose log this is; None: the main conversation


@dataclass(slots=True)
class LogFacts:
    """What the conversion learnt about the log besides its units."""

    check: steps.SessionCheck = field(default_factory=steps.SessionCheck)
    cwd: str | None = None
    branch: str | None = None
    spawn_calls: dict[str, ToolCall] = field(default_factory=dict)  # Agent/Task calls, by id
    version: str | None = None  # the client version of the log's first entry that names one
    tokens: TokenTally = field(default_factory=TokenTally)  # usage, once per API message


def _time(entry: Entry) -> str | None:
    stamp = entry.raw.get("timestamp")
    if isinstance(stamp, str):
        return stamp
    if entry.timestamp is not None:
        return entry.timestamp.isoformat().replace("+00:00", "Z")
    return None


class UnitBuilder:
    """Builds the units of one log, entry by entry; `texts` collects every text put in them."""

    def __init__(self, options: ConvertOptions, *, reduction: steps.Reduction, redactor: Redactor | None) -> None:
        self.options = options
        self.reduction = reduction
        self.redactor = redactor
        self.facts = LogFacts()
        self.texts: list[str] = []
        self._waiting = WaitingCalls()  # the name of each call without its result yet
        self._dropped_calls: set[str] = set()
        self._docs = steps.DocDeduper()
        self._last_text: str | None = None
        self._commands = Commands()  # a call's command line, when it is its output's context

    def _text_element(self, name: str, attributes: Mapping[str, Any] | None, text: str) -> Element:
        self.texts.append(text)
        return Element(name, attributes, [text])

    # --- assistant messages ---------------------------------------------------------------------
    def assistant(self, group: list[Entry]) -> list[Element] | None:
        filtering = self.options.filtering
        blocks = [(entry, block) for entry in group for block in entry.blocks]
        has_tool_use = any(block.get("type") == "tool_use" for _, block in blocks)
        children: list[Child] = []
        for entry, block in blocks:
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
                children.append(self._text_element(items.TEXT, None, text))
            elif kind in ("thinking", "redacted_thinking"):
                thinking = str(block.get("thinking") or block.get("data") or "")
                if not self.options.thinking:
                    self.reduction.count(steps.STEP_THINKING, len(thinking))
                    continue
                if not thinking.strip():
                    continue
                children.append(self._text_element(items.THINKING, None, thinking))
            elif kind == "tool_use":
                element = self._tool_use(entry, block)
                if element is not None:
                    children.append(element)
            elif kind == "image":
                children.append(_IMAGE)
            elif isinstance(kind, str):
                children.append(self._unknown_block(kind))
        if not children:
            return None
        first = group[0]
        return [Element(items.ASSISTANT, {"line": first.line, "time": _time(first)}, children)]

    def _tool_use(self, entry: Entry, block: Mapping[str, Any]) -> Element | None:
        call_id = block.get("id")
        call_id = call_id if isinstance(call_id, str) else ""
        name = str(block.get("name") or "?")
        tool_input = block.get("input")
        tool_input = tool_input if isinstance(tool_input, Mapping) else {}
        filtering = self.options.filtering
        if filtering and steps.is_log_discovery(name, tool_input, self.options.claude_roots):
            self._dropped_calls.add(call_id)
            self.reduction.count(steps.STEP_LOG_DISCOVERY, len(steps.param_text(dict(tool_input))))
            return None
        self._waiting.use(call_id, name)
        if self.redactor is not None:
            self._commands.use(call_id, tool_input)
        if name in SPAWNS_AGENT and call_id:
            self.facts.spawn_calls[call_id] = ToolCall(
                id=call_id,
                name=name,
                input=tool_input,
                summary=summarize_input(name, tool_input),
                line=entry.line,
                started=entry.timestamp,
                agent_id=self.options.agent_id,
                is_sidechain=entry.is_sidechain,
            )
        params: list[Child] = []
        redactor = self.redactor
        for key, value in tool_input.items():
            text = steps.param_text(value)
            if redactor is not None and text and is_secret_name(str(key)):
                kind = "password" if "pass" in str(key).lower() else "secret"
                redactor.counts[kind] += 1
                self.reduction.count(steps.STEP_REDACTION, len(text) - len(marker(kind)))
                text = marker(kind)
            elif filtering:
                short = steps.truncate_param(str(key), text, redact=redactor)
                if short is not text:
                    self.reduction.count(steps.STEP_TRUNCATE_PARAMS, len(text) - len(short))
                    text = short
            params.append(self._text_element(items.PARAM, {"name": key}, text))
        return Element(items.TOOL_USE, {"id": call_id, "name": name}, params)

    @staticmethod
    def _unknown_block(kind: str) -> Element:
        """A block the kit does not show: named by its type, never its content."""
        return Element(items.BLOCK, {"type": kind})

    # --- every other entry ------------------------------------------------------------------------
    def entry(self, entry: Entry) -> list[Element] | None:
        kind = entry.kind
        if kind == KIND_USER:
            return self._user(entry)
        if kind == KIND_TOOL_RESULT:
            results = entry.tool_results
            element = self._tool_result(entry, results[0]) if results else None
            return [element] if element is not None else None
        if kind == KIND_SYSTEM:
            return [self._system(entry)]
        if kind == KIND_SUMMARY:
            # A title line, often another session's (`transcript.titles`): never a unit. The
            # session's own title is its root's `title` (`pipeline.session_attributes`).
            return None
        # A type nobody knows (`doctor --transcripts` reports it): named, never shown.
        return [Element(items.ENTRY, {"line": entry.line, "type": entry.type or None, "time": _time(entry)})]

    def _system(self, entry: Entry) -> Element:
        raw = entry.raw
        if entry.is_compact_boundary:
            meta = raw.get("compactMetadata")
            meta = meta if isinstance(meta, Mapping) else {}
            trigger, pre = meta.get("trigger"), meta.get("preTokens")
            attributes = {
                "line": entry.line,
                "time": _time(entry),
                "trigger": trigger if isinstance(trigger, str) else None,
                "pre_tokens": count_value(pre),
            }
            return Element(items.COMPACT_BOUNDARY, attributes)
        subtype, level, content = raw.get("subtype"), raw.get("level"), raw.get("content")
        attributes = {
            "line": entry.line,
            "time": _time(entry),
            "subtype": subtype if isinstance(subtype, str) else None,
            "level": level if isinstance(level, str) else None,
        }
        if isinstance(content, str) and content:
            return self._text_element(items.SYSTEM, attributes, content)
        return Element(items.SYSTEM, attributes)

    def _user(self, entry: Entry) -> list[Element] | None:
        attributes = {"line": entry.line, "time": _time(entry)}
        if entry.is_compact_summary:
            text = entry.text
            if self.options.filtering:
                bare = steps.without_reminders(text)
                self.reduction.count(steps.STEP_NOISE, len(text) - len(bare), 0)
                text = bare
            return [self._text_element(items.COMPACT_SUMMARY, attributes, text)]
        elements: list[Element] = []
        user: Element | None = None  # the open `<user>`; its kind is known once its text is
        kind: str | None = None
        for block in entry.blocks:
            block_type = block.get("type")
            if block_type == "tool_result":
                if user is not None:
                    user.attrs = {**attributes, "kind": kind}
                    user, kind = None, None
                element = self._tool_result(entry, _tool_result_of(entry, block))
                if element is not None:
                    elements.append(element)
                continue
            if block_type == "text":
                text = str(block.get("text") or "")
                if self.options.filtering:
                    bare = steps.without_reminders(text)
                    if bare is not text:
                        self.reduction.count(steps.STEP_NOISE, len(text) - len(bare))
                        text = bare
                if not text.strip():
                    continue
            elif block_type is None or not isinstance(block_type, str):
                continue
            if user is None:
                user = Element(items.USER, None, [])
                elements.append(user)
            children = user.children
            assert children is not None
            if block_type == "text":
                text_kind, text = self._user_kind(entry, text)
                kind = kind or text_kind
                if text_kind in items.REQUEST_KINDS:
                    self.facts.check.saw_user_text(text)
                earlier = self._docs.first_line(text, entry.line) if self.options.filtering else None
                if earlier is not None:
                    self.reduction.count(steps.STEP_DEDUP_DOCS, len(text))
                    children.append(Element(items.SAME_AS, {"line": earlier, "chars": len(text)}))
                else:
                    self.texts.append(text)
                    children.append(text)
            elif block_type == "image":
                children.append(_IMAGE)
            else:
                children.append(self._unknown_block(block_type))
        if user is not None:
            user.attrs = {**attributes, "kind": kind}
        return elements or None

    @staticmethod
    def _user_kind(entry: Entry, text: str) -> tuple[str | None, str]:
        """The `kind` attribute of a user text (None: a prompt the person wrote), and its text."""
        head = text.lstrip()
        if "<command-name>" in text:
            shown = prompt_display(text)
            if entry.is_model_launched:
                return items.USER_MODEL_COMMAND, shown
            if is_local_command(shown):
                return items.USER_CLIENT_COMMAND, shown
            return items.USER_COMMAND, shown
        if head.startswith(_LOCAL_OUTPUT):
            return items.USER_OUTPUT, text
        if entry.is_meta or head.startswith("<local-command-caveat>"):
            return items.USER_META, text
        if head.startswith("<task-notification>"):
            return items.USER_NOTIFICATION, text
        if entry.is_system_originated and not (entry.is_sidechain and entry.parent_uuid is None):
            return items.USER_NOTIFICATION, text  # the root of an agent's thread is its prompt, whoever sent it
        if not entry.is_sidechain and request_text(entry) is None:
            return items.USER_META, text  # client text the one request rule leaves out (a teammate's message…)
        return None, text

    def _tool_result(self, entry: Entry, result: ToolResult) -> Element | None:
        call_id = result.tool_use_id
        text = result.text
        if call_id in self._dropped_calls:
            self.reduction.count(steps.STEP_LOG_DISCOVERY, len(text))
            return None
        name = self._waiting.answer(call_id)  # the call it answers: the one pairing rule
        command = self._commands.result(call_id)
        if command is not None and self.redactor is not None:  # read after its command (`redaction.printed`)
            redacted = redact_output(text, command, self.redactor)
            if redacted != text:
                self.reduction.count(steps.STEP_REDACTION, len(text) - len(redacted))
                text = redacted
        status, exit_code, error = result_outcome(result, tool=name, version=entry.version)
        agent_id = None
        if name in SPAWNS_AGENT:
            agent_id = spawned_agent_of(result.extra, text)
            call = self.facts.spawn_calls.get(call_id)
            if call is not None and call.result_line is None:
                self.facts.spawn_calls[call_id] = call._replace(
                    ended=entry.timestamp,
                    status=status,
                    exit_code=exit_code,
                    error=error,
                    output=text,
                    result_line=entry.line,
                    spawned_agent_id=agent_id,
                )
        children: list[Child]
        lines = None
        if self.options.filtering:
            short = steps.shorter_boilerplate(text)
            if short is not None:
                self.reduction.count(steps.STEP_NOISE, len(text) - len(short))
                text = short
            pruned = steps.prune_output(text, redact=self.redactor)
            kept = pruned.text_chars
            if kept != len(text):
                self.reduction.count(steps.STEP_PRUNE_RESULTS, len(text) - kept)
            if pruned.omitted:
                lines = pruned.lines
            children = []
            for piece in pruned.pieces:
                if isinstance(piece, str):
                    self.texts.append(piece)
                    children.append(piece)
                else:
                    children.append(Omitted(piece))
        else:
            self.texts.append(text)
            children = [text]
        attributes = {
            "line": entry.line,
            "time": _time(entry),
            "tool_use_id": call_id,
            "tool": name,
            "status": status if status in (STATUS_ERROR, STATUS_DECLINED) else None,
            "exit_code": exit_code,
            "lines": lines,
            "agent_id": agent_id,
        }
        return Element(items.TOOL_RESULT, attributes, children)


def _tool_result_of(entry: Entry, block: Mapping[str, Any]) -> ToolResult:
    tool_use_id = block.get("tool_use_id")
    return ToolResult(
        tool_use_id if isinstance(tool_use_id, str) else "",
        block.get("content"),
        block.get("is_error") is True,
        entry.raw.get("toolUseResult"),
        denial_kind(entry.raw),
    )
