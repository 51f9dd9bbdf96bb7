"""The page model: what a session looks like to a person, before any output format.

Owns: the values a view is made of — the header `Card`, the `Lane`s of the timeline (the main
conversation and one per agent, nested in spawn order) with their `Bar`s, and the `Thread`s of
the conversation (the main one and one per agent) with their items (`Message`, `Call`,
`Compaction`, `Note`) — and cut texts (`Cut`: what is kept of a long text, with its full size).
Every value is frozen and holds only redacted, cleaned text. Does not read transcripts (that
is `build`) or lay anything out (that is `html` and `markdown`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from session_kit.conversation import items

TYPE_CHECKING = False
if TYPE_CHECKING:
    from session_kit.sessions.agent_run import AgentFigures

MAIN = "main"  # the key of the main conversation's lane and thread

# Message kinds (`Message.kind`): what the person typed has none. A user turn's kinds and
# the compaction summary are the conversation model's (`conversation.items`).
KIND_ASSISTANT = items.ASSISTANT
KIND_THINKING = items.THINKING
KIND_COMMAND = items.USER_COMMAND  # a slash command, as `/name args`
KIND_META = items.USER_META  # text the client inserted (command documentation, caveats)
KIND_OUTPUT = items.USER_OUTPUT  # a local command's output
KIND_NOTIFICATION = items.USER_NOTIFICATION  # a task notification
KIND_SUMMARY = items.COMPACT_SUMMARY  # what replaced the context at a compaction


@dataclass(frozen=True, slots=True)
class Cut:
    """A text as shown: `text` is what is kept, `chars` and `lines` the whole text's size."""

    text: str
    chars: int
    lines: int

    @property
    def is_cut(self) -> bool:
        return len(self.text) < self.chars


@dataclass(frozen=True, slots=True)
class Call:
    """One tool call: its input, its result and where it sits in time."""

    anchor: str  # the element id on the page (`call-N`, numbered in page order)
    tool_use_id: str
    name: str
    summary: str  # one line, from the redacted input
    params: tuple[tuple[str, Cut], ...]
    started: datetime | None
    ended: datetime | None
    status: str  # ok | error | pending (`transcript.calls`)
    exit_code: int | None
    output: Cut | None  # None: no result in the log
    lane: str  # the lane (thread) holding the call
    spawned: str | None = None  # the lane key of the agent the call started, when known

    @property
    def failed(self) -> bool:
        return self.status == "error"

    @property
    def duration_s(self) -> float | None:
        if self.started is None or self.ended is None:
            return None
        return max(0.0, (self.ended - self.started).total_seconds())


@dataclass(frozen=True, slots=True)
class Message:
    """A text of the conversation: the person's (kind None), the assistant's, or another kind."""

    kind: str | None
    text: Cut
    time: datetime | None
    images: int = 0  # images sent with the text, shown as placeholders


@dataclass(frozen=True, slots=True)
class Compaction:
    anchor: str
    time: datetime | None
    trigger: str | None
    pre_tokens: int | None


@dataclass(frozen=True, slots=True)
class Note:
    """Something the log holds that is neither a message nor a call (system entries, unknown
    entries and blocks), shown small and collapsed."""

    label: str
    text: Cut
    time: datetime | None
    anchor: str | None = None  # where links to items left out of the page lead


Item = Message | Call | Compaction | Note


@dataclass(frozen=True, slots=True)
class Tokens:
    input: int = 0
    output: int = 0
    cache_creation: int = 0
    cache_read: int = 0

    @property
    def total(self) -> int:
        return self.input + self.output + self.cache_creation + self.cache_read

    def __add__(self, other: Tokens) -> Tokens:
        return Tokens(
            self.input + other.input,
            self.output + other.output,
            self.cache_creation + other.cache_creation,
            self.cache_read + other.cache_read,
        )


@dataclass(frozen=True, slots=True)
class Thread:
    """The conversation of the main session or of one agent."""

    key: str  # MAIN, or the agent id
    anchor: str  # the element id on the page
    label: str
    items: tuple[Item, ...]
    spawned_by: Call | None = None  # the call that started the agent
    missing_log: bool = False  # an agent named by its spawning call whose log is not there
    agent: AgentFigures | None = None  # the agent model's figures (`sessions.agent_run`)


@dataclass(frozen=True, slots=True)
class Bar:
    """A call as drawn in a lane: from its start to its end (to the lane's end while pending);
    or, in a crowded lane, neighbouring calls of one status together."""

    call: Call  # the first call it stands for
    x: float  # 0..1000 along the session's span
    width: float
    count: int = 1  # calls of one status drawn as one bar where a lane has too many to tell apart


@dataclass(frozen=True, slots=True)
class Lane:
    key: str
    label: str
    depth: int  # 0: the main conversation; 1: an agent it started; 2: an agent's agent…
    start: datetime | None
    end: datetime | None
    tokens: Tokens
    bars: tuple[Bar, ...]
    span: tuple[float, float] | None  # the lane's active stretch, 0..1000, when timed
    failed: bool  # a call failed in it, or the agent ended in error
    thread_anchor: str
    missing_log: bool = False
    agent: AgentFigures | None = None  # the agent model's figures, as its thread's


@dataclass(frozen=True, slots=True)
class Tick:
    x: float  # 0..1000
    label: str


@dataclass(frozen=True, slots=True)
class Card:
    session_id: str
    project: str
    cwd: str | None
    branch: str | None
    title: str | None
    start: datetime | None
    end: datetime | None
    version: str | None
    tokens: Tokens
    compactions: int
    failures: int  # failed calls, every lane
    calls: int
    agents: int
    missing_logs: int  # agents named by a spawning call whose log is not there

    @property
    def duration_s(self) -> float | None:
        if self.start is None or self.end is None:
            return None
        return max(0.0, (self.end - self.start).total_seconds())


@dataclass(frozen=True, slots=True)
class Page:
    card: Card
    lanes: tuple[Lane, ...]
    ticks: tuple[Tick, ...]
    rules: tuple[tuple[float, Compaction], ...]  # compactions drawn across the lanes, at x
    threads: tuple[Thread, ...]
    tools: tuple[str, ...]  # every tool called, sorted (the filter's choices)
    thinking: bool  # thinking blocks were asked for
    redacted: bool
    cut_chars: int  # characters of text left out by the page's size limits
    hidden_items: int = 0  # items left out of the conversation by the page's size limits
    moved: Mapping[str, str] = field(default_factory=dict)  # a left-out call's anchor -> where it was

    def link(self, anchor: str) -> str:
        """Where a link to `anchor` leads: the item, or the note standing for it."""
        return self.moved.get(anchor, anchor)

    def thread_anchor(self, key: str) -> str:
        """The element id of the thread of `key` (the top of the page when there is none)."""
        return next((t.anchor for t in self.threads if t.key == key), "top")
