"""A session and its agents as a page model, read through the one conversation model.

Owns: reading the main transcript and each agent log once, as the conversation's items
(`conversation.SessionReading`, as `preprocess` reads them: noise dropped by raw type, each
entry once, texts cleaned and redacted in batches; no content steps, so every call stays),
and turning the items into the page model (`model`) by their kinds and roles:
each call's start (its assistant message's time) and end (its result's time, paired by the
one rule, `transcript.calls.WaitingCalls`), the threads,
the agents' lanes nested under the call (or the meta file's parent) that spawned them, agents
named by a spawning call whose log is missing, the header card, and the size limits (`Cutter`)
that keep a page small whatever the input. Does not lay anything out (that is `html` and
`markdown`) or write files (that is `page`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from session_kit.base.tools import SPAWNS_AGENT
from session_kit.conversation import items
from session_kit.conversation.agents import AgentModel, LinkedAgent
from session_kit.conversation.convert import LogConverter, SessionReading
from session_kit.conversation.items import Element, Omitted, Unit
from session_kit.redaction.engine import Redactor, showing_secrets
from session_kit.sessions.agent_run import AgentFigures
from session_kit.sessions.store import SessionRef
from session_kit.transcript.calls import WaitingCalls
from session_kit.transcript.entries import parse_timestamp
from session_kit.transcript.glance import glance
from session_kit.transcript.reader import ReadStats
from session_kit.transcript.tokens import TokenTally
from session_kit.transcript.tools import agent_spawn, summarize_input
from session_kit.view import model
from session_kit.view.model import MAIN, Call, Compaction, Cut, Item, Message, Note, Thread, Tokens
from session_kit.view.timeline import lay_out

# Size limits. A page stays small whatever the session: each text is cut to its limit (its
# full size is shown), and once PAGE_CHARS of text are on the page every later text keeps
# only SMALL_CHARS, so a page holds at most about PAGE_CHARS + SMALL_CHARS per item.
OUTPUT_LINES, OUTPUT_CHARS = 120, 6_000  # a tool result
PARAM_CHARS = 2_000  # one tool parameter
MESSAGE_CHARS = 20_000  # a message of the person or the assistant
NOTE_CHARS = 500  # system entries, unknown entries and blocks
PAGE_CHARS = 3_000_000
SMALL_CHARS = 160
# Items (messages, calls…) in full, in page order; past them only this many more of the ones
# a person looks for (requests, failed calls, compactions), the rest named by a note. Every
# call keeps its bar in the timeline.
ITEMS_WHOLE = 3_000
ITEMS_KEY = 1_500
MAX_PARAMS = 24  # a call's input keys shown (the rest are counted)


class Cutter:
    """Cuts texts to their limit and keeps the page's total under its budget."""

    def __init__(self, page_chars: int = PAGE_CHARS) -> None:
        self.page_chars = page_chars
        self.kept = 0
        self.left_out = 0

    def __call__(self, text: str, limit: int, *, max_lines: int | None = None) -> Cut:
        lines = text.count("\n") + 1 if text else 0
        if self.kept >= self.page_chars:
            limit = min(limit, SMALL_CHARS)
        kept = text
        if max_lines is not None and lines > max_lines:
            kept = "\n".join(kept.split("\n", max_lines)[:max_lines])
        if len(kept) > limit:
            kept = kept[:limit]
        self.kept += len(kept)
        self.left_out += len(text) - len(kept)
        return Cut(kept, len(text), lines)


@dataclass(frozen=True, slots=True)
class ViewOptions:
    thinking: bool = False  # show the model's thinking blocks (collapsed)
    redact: bool = True
    agents: bool = True


def _texts(element: Element) -> str:
    parts: list[str] = []
    for child in element.children or ():
        if isinstance(child, str):
            parts.append(child)
        elif isinstance(child, Omitted):
            parts.append(f"[… {child.lines} {'line' if child.lines == 1 else 'lines'} omitted …]")
    return "\n".join(parts)


def _time(attrs: Mapping[str, Any] | None) -> datetime | None:
    return parse_timestamp(attrs.get("time")) if attrs else None


class _Anchors:
    """Element ids in page order: the same input gives the same ids."""

    def __init__(self) -> None:
        self.calls = 0
        self.compactions = 0

    def call(self) -> str:
        self.calls += 1
        return f"call-{self.calls}"

    def compaction(self) -> str:
        self.compactions += 1
        return f"compaction-{self.compactions}"


def _summary(name: str, params: Mapping[str, str]) -> str:
    # The parameters were redacted with the rest of their unit (or the caller asked for them
    # as written): redacting each summary again would cost more than the whole conversion.
    with showing_secrets():
        return summarize_input(name, params)


def _shown_params(params: Mapping[str, str], cut: Cutter) -> tuple[tuple[str, Cut], ...]:
    shown = [(key, cut(value, PARAM_CHARS)) for key, value in list(params.items())[:MAX_PARAMS]]
    if len(params) > MAX_PARAMS:
        more = f"{len(params) - MAX_PARAMS} more input keys not shown"
        shown.append(("…", Cut(more, len(more), 1)))
    return tuple(shown)


class ThreadReader:
    """Turns one log's units into a thread's items, pairing calls with their results."""

    def __init__(self, key: str, *, cut: Cutter, anchors: _Anchors) -> None:
        self.key = key
        self.cut = cut
        self.anchors = anchors
        self.items: list[Item] = []
        self._waiting = WaitingCalls()  # index in items of each call without its result
        self._call_indexes: list[int] = []
        self.first: datetime | None = None
        self.last: datetime | None = None

    def _saw(self, time: datetime | None) -> None:
        if time is None:
            return
        if self.first is None or time < self.first:
            self.first = time
        if self.last is None or time > self.last:
            self.last = time

    def calls(self) -> list[Call]:
        return [self.items[i] for i in self._call_indexes]  # type: ignore[misc]

    def add(self, unit: Unit) -> None:
        by_kind = _BY_KIND
        for element in unit:
            time = _time(element.attrs)
            self._saw(time)
            kind = element.name
            handler = by_kind.get(kind)
            if handler is not None:
                handler(self, element, time)
            elif items.role(kind) != items.ROLE_TITLE:  # a title names the session (`titles`)
                self._note(element, time)

    def _note(self, element: Element, time: datetime | None) -> None:
        """An item shown small: a client note, or what is named but never shown."""
        attrs = element.attrs or {}
        label = attrs.get("subtype") if element.name == items.SYSTEM else attrs.get("type")
        name = label if isinstance(label, str) and label else element.name
        self.items.append(Note(name, self.cut(_texts(element), NOTE_CHARS), time))

    def _compact_boundary(self, element: Element, time: datetime | None) -> None:
        attrs = element.attrs or {}
        self.items.append(Compaction(self.anchors.compaction(), time, attrs.get("trigger"), attrs.get("pre_tokens")))

    def _compact_summary(self, element: Element, time: datetime | None) -> None:
        self.items.append(Message(model.KIND_SUMMARY, self.cut(_texts(element), MESSAGE_CHARS), time))

    def _user(self, element: Element, time: datetime | None) -> None:
        texts, images = [], 0
        for child in element.children or ():
            if isinstance(child, str):
                texts.append(child)
            elif isinstance(child, Element) and child.name == items.IMAGE:
                images += 1
            elif isinstance(child, Element):
                self._note(child, time)
        kind = (element.attrs or {}).get("kind")
        self.items.append(Message(kind, self.cut("\n\n".join(texts), MESSAGE_CHARS), time, images))

    def _assistant(self, element: Element, time: datetime | None) -> None:
        for child in element.children or ():
            if not isinstance(child, Element):
                continue
            name = child.name
            if name == items.TEXT:
                self.items.append(Message(model.KIND_ASSISTANT, self.cut(_texts(child), MESSAGE_CHARS), time))
            elif name == items.THINKING:
                self.items.append(Message(model.KIND_THINKING, self.cut(_texts(child), MESSAGE_CHARS), time))
            elif name == items.TOOL_USE:
                self._tool_use(child, time)
            elif name == items.IMAGE:
                self.items.append(Message(model.KIND_ASSISTANT, Cut("", 0, 0), time, images=1))
            else:
                self._note(child, time)

    def _tool_use(self, element: Element, time: datetime | None) -> None:
        attrs = element.attrs or {}
        name = str(attrs.get("name") or "?")
        params = {}
        for child in element.children or ():
            if isinstance(child, Element) and child.attrs:
                params[str(child.attrs.get("name"))] = _texts(child)
        call = Call(
            anchor=self.anchors.call(),
            tool_use_id=str(attrs.get("id") or ""),
            name=name,
            summary=_summary(name, params),
            params=_shown_params(params, self.cut),
            started=time,
            ended=None,
            status="pending",
            exit_code=None,
            output=None,
            lane=self.key,
        )
        if call.tool_use_id:
            self._waiting.use(call.tool_use_id, len(self.items))
        self._call_indexes.append(len(self.items))
        self.items.append(call)

    def _tool_result(self, element: Element, time: datetime | None) -> None:
        attrs = element.attrs or {}
        call_id = str(attrs.get("tool_use_id") or "")
        index = self._waiting.answer(call_id)  # the one pairing rule (`transcript.calls`)
        if index is None:
            if call_id not in self._waiting:  # a result whose call is not in this log
                self.items.append(Note("tool result", self.cut(_texts(element), NOTE_CHARS), time))
            return  # else a second result for an answered call: each call shows one
        text = _texts(element)
        call = self.items[index]
        assert isinstance(call, Call)
        lines = attrs.get("lines")
        output = self.cut(text, OUTPUT_CHARS, max_lines=OUTPUT_LINES)
        if isinstance(lines, int) and lines > output.lines:
            output = replace(output, lines=lines)
        self.items[index] = replace(
            call,
            ended=time,
            status="error" if attrs.get("status") == "error" else "ok",
            exit_code=attrs.get("exit_code"),
            output=output,
            spawned=attrs.get("agent_id") if call.name in SPAWNS_AGENT else None,
        )


# What the page makes of each item kind (`conversation.items`); a kind not here is a note,
# but a title.
_BY_KIND = {
    items.USER: ThreadReader._user,
    items.ASSISTANT: ThreadReader._assistant,
    items.TOOL_RESULT: ThreadReader._tool_result,
    items.COMPACT_BOUNDARY: ThreadReader._compact_boundary,
    items.COMPACT_SUMMARY: ThreadReader._compact_summary,
}


@dataclass(slots=True)
class _AgentRead:
    agent: LinkedAgent
    reader: ThreadReader
    tokens: Tokens
    parent: str


def _tokens(tally: TokenTally) -> Tokens:
    usage = tally.summary().total
    return Tokens(usage.input, usage.output, usage.cache_write, usage.cache_read)


def _shown(said: AgentFigures, redactor: Redactor | None) -> AgentFigures:
    return said._replace(answer=redactor(said.answer)) if said.answer and redactor is not None else said


def _label(agent_type: str | None, description: str | None, redactor: Redactor | None) -> str:
    if description and redactor is not None:
        description = redactor(description)  # model-written text, like any other
    return " · ".join(p for p in (agent_type or "agent", description) if p)


def build_page(ref: SessionRef, options: ViewOptions | None = None) -> tuple[model.Page, ReadStats, dict[str, int]]:
    """The page model of a session; with what reading met and the redactions made."""
    options = options or ViewOptions()
    redactor = Redactor() if options.redact else None
    # No content steps: every call stays.
    reading = SessionReading(ref, filtering=False, thinking=options.thinking, redactor=redactor)
    read, cut, anchors = reading.read, Cutter(), _Anchors()
    model_of = AgentModel(ref)

    # A 1.0.x file's inline threads go apart when the agent model makes agents of them.
    main_conv = reading.converter(ref.path, skip_sidechains=model_of.inline if options.agents else None)
    main = ThreadReader(MAIN, cut=cut, anchors=anchors)
    for unit in main_conv.units():
        main.add(unit)
    owner = {c.tool_use_id: MAIN for c in main.calls()}
    agents: list[_AgentRead] = []
    # The lanes are the agents the agent model lists (what `show` lists), with its status,
    # calls, answer and duration (what `show`, `debug-agent` and the memory say), the answer
    # redacted like the page; read only where there may be an agent: a session without one
    # is not scanned twice.
    runs = model_of.runs(main_conv.facts.spawn_calls) if options.agents else []
    for run in runs:
        if run.log.path is None:
            continue  # no log: the lane comes from its spawning call (`_assemble`)
        agent = LinkedAgent.of(run)
        conv = reading.converter(run.log.path, agent.agent_id, thread=agent.thread)
        reader = ThreadReader(agent.agent_id, cut=cut, anchors=anchors)
        try:
            for unit in conv.units():
                reader.add(unit)
        except OSError as exc:  # removed or unreadable since it was listed
            reader.items.append(Note("unreadable", Cut(str(exc.strerror or exc), 0, 0), None))
        parent = owner.get(agent.tool_use_id or "") or run.parent_agent_id or MAIN
        for call in reader.calls():
            owner.setdefault(call.tool_use_id, agent.agent_id)
        agents.append(_AgentRead(agent, reader, _tokens(conv.facts.tokens), parent))
    figures = {r.agent_id: _shown(r.figures, redactor) for r in runs} if options.agents else None
    return (
        _assemble(ref, options, main, main_conv, agents, redactor, cut, figures),
        read,
        dict(redactor.counts) if redactor else {},
    )


def _assemble(
    ref: SessionRef,
    options: ViewOptions,
    main: ThreadReader,
    main_conv: LogConverter,
    agents: list[_AgentRead],
    redactor: Redactor | None,
    cut: Cutter,
    figures: Mapping[str, AgentFigures] | None,
) -> model.Page:
    known = {a.agent.agent_id for a in agents}
    modelled, figures = figures is not None, figures or {}
    by_call = {a.agent.tool_use_id: a.agent.agent_id for a in agents if a.agent.tool_use_id}
    readers = [main, *(a.reader for a in agents)]
    # Each spawning call points at its agent's thread; agents whose log is missing get a lane.
    spawns: dict[str, Call] = {}
    missing: list[tuple[Call, str]] = []
    for reader in readers:
        for index, item in enumerate(reader.items):
            if not isinstance(item, Call) or item.name not in SPAWNS_AGENT:
                continue
            target = by_call.get(item.tool_use_id) or (item.spawned if item.spawned in known else None)
            if target is None:
                target = item.spawned or item.tool_use_id  # the key `sessions.agents.missing_run` gives it
                if modelled and target not in figures:
                    continue  # the agent model knows no agent of it: refused before it started
                missing.append((item, target))
            item = replace(item, spawned=target)
            reader.items[index] = item
            spawns[target] = item
    threads = [Thread(MAIN, "thread-main", "Main conversation", tuple(main.items))]
    for number, read in enumerate(agents, 1):
        agent = read.agent
        threads.append(
            Thread(
                agent.agent_id,
                f"agent-{number}",
                _label(agent.agent_type, agent.description, redactor),
                tuple(read.reader.items),
                spawned_by=spawns.get(agent.agent_id),
                agent=figures.get(agent.agent_id),
            )
        )
    offset = len(threads)
    for number, (call, key) in enumerate(missing, offset):
        asked = agent_spawn({k: v.text for k, v in call.params})
        label = _label(asked.agent_type, asked.description, None)  # params are redacted already
        threads.append(
            Thread(key, f"agent-{number}", label, (), spawned_by=call, missing_log=True, agent=figures.get(key))
        )
    all_calls = [i for r in readers for i in r.items if isinstance(i, Call)]
    tokens = {MAIN: _tokens(main_conv.facts.tokens), **{a.agent.agent_id: a.tokens for a in agents}}
    parents = {a.agent.agent_id: a.parent for a in agents}
    parents.update({key: call.lane for call, key in missing})
    spans = {r.key: (r.first, r.last) for r in readers}
    for call, key in missing:
        took = figures[key].duration_s if key in figures else None
        # a background agent ran on after its launching call returned: its span is its own
        spans[key] = (call.started, call.started + timedelta(seconds=took) if took and call.started else call.ended)
    title = glance(ref.path, ref.size).title  # the client's title lines, as `sessions` lists them
    if title and redactor is not None:
        title = redactor(title)  # model-written text, like any other
    times = [t for span in spans.values() for t in span if t is not None]
    card = model.Card(
        session_id=ref.id,
        project=ref.project.name,
        cwd=main_conv.facts.cwd,
        branch=main_conv.facts.branch,
        title=title,
        start=min(times) if times else None,
        end=max(times) if times else None,
        version=main_conv.facts.version,
        tokens=sum(tokens.values(), Tokens()),
        compactions=sum(1 for r in readers for i in r.items if isinstance(i, Compaction)),
        failures=sum(1 for c in all_calls if c.failed),
        calls=len(all_calls),
        agents=len(threads) - 1,
        missing_logs=len(missing),
    )
    lanes, ticks, rules = lay_out(
        card, threads, parents=parents, spans=spans, tokens=tokens, compactions=_compactions(main.items)
    )
    order = {lane.key: index for index, lane in enumerate(lanes)}
    threads.sort(key=lambda t: order.get(t.key, len(order)))  # as the lanes: each agent under its parent
    threads, moved, hidden = thin_threads(threads)
    return model.Page(
        card=card,
        lanes=lanes,
        ticks=ticks,
        rules=rules,
        threads=tuple(threads),
        tools=tuple(sorted({c.name for c in all_calls})),
        thinking=options.thinking,
        redacted=redactor is not None,
        cut_chars=cut.left_out,
        hidden_items=hidden,
        moved=moved,
    )


def _is_key(item: Item) -> bool:
    if isinstance(item, Call):
        return item.failed
    if isinstance(item, Message):
        return item.kind in (None, model.KIND_COMMAND)
    return isinstance(item, Compaction)


class _LeftOut:
    """Items left out of the page: each run of them becomes one note that links lead to."""

    def __init__(self) -> None:
        self.moved: dict[str, str] = {}
        self.total = 0
        self.notes = 0

    def note(self, run: list[Item]) -> Note:
        self.notes += 1
        anchor = f"left-out-{self.notes}"
        calls = sum(1 for i in run if isinstance(i, Call))
        text = (
            f"{len(run):,} items left out here to keep the page small ({calls:,} tool calls, none failed; "
            "each still has its bar in the timeline). `session-kit events` lists every call."
        )
        self.moved.update((i.anchor, anchor) for i in run if isinstance(i, Call))
        self.total += len(run)
        return Note("left out", Cut(text, len(text), 1), None, anchor)


def thin_threads(threads: list[Thread]) -> tuple[list[Thread], dict[str, str], int]:
    """The threads within the page's item limits (`ITEMS_WHOLE`, `ITEMS_KEY`); the anchors
    of left-out calls, mapped to the note standing for them; how many items were left out."""
    seen = key_kept = 0
    left = _LeftOut()
    out: list[Thread] = []
    for thread in threads:
        items: list[Item] = []
        run: list[Item] = []
        for item in thread.items:
            seen += 1
            if seen <= ITEMS_WHOLE or (key_kept < ITEMS_KEY and _is_key(item)):
                key_kept += seen > ITEMS_WHOLE
                if run:
                    items.append(left.note(run))
                    run = []
                items.append(item)
            else:
                run.append(item)
        if run:
            items.append(left.note(run))
        out.append(replace(thread, items=tuple(items)) if left.total else thread)
    return out, left.moved, left.total


def _compactions(items: Iterable[Item]) -> list[Compaction]:
    return [i for i in items if isinstance(i, Compaction)]
