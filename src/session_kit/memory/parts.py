"""The parts of the restored memory, each as a heading and its items, as data.

Owns: what each part of the memory says (the person's requests and standing instructions,
failures still open, subagents as they stand, the plan and the working documents, the task
list, changed files, the assistant's last words, files read before the five the client
re-attaches, the values saved by hand) and the rule that keeps transcript text from ever
becoming structure: every value is collapsed to one line behind the kit's own words, or
indented under them (`Item`), so no line a transcript wrote starts at column 0. Standard
library only. Does not fit the parts into the limit or put them together (`restore`).
"""

from __future__ import annotations

from session_kit.base.agents import RUNNING
from session_kit.base.tools import KEYED_BY_PATH
from session_kit.memory.text import excerpt

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

LABEL_LIMIT = 300
INDENT = "    "
RE_ATTACHED_READS = 5  # the client re-attaches up to five recently read files itself


def one_line(text: object, limit: int = LABEL_LIMIT) -> str:
    """`text` as one line (every kind of line break and run of spaces one space), cut."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def indent(text: str) -> str:
    """Every line of `text` (any kind of line break) behind the indent: never at column 0."""
    return "\n".join(INDENT + line for line in text.splitlines() or [""])


class Item:
    """One entry of a part: a one-line label, and a body shown indented under it."""

    __slots__ = ("label", "body", "whole", "least", "kind")

    def __init__(self, label: str, body: str | None = None, *, least: int | None = None, kind: str = "") -> None:
        self.label = label
        self.body = body if body and body.strip() else None
        self.whole = self.render(None)
        self.least = least
        self.kind = kind  # what the note counts it as when it is left out (a task's status)

    @property
    def floor(self) -> int:
        """The least it is worth showing: a label, and the start of its body."""
        if self.least is not None:
            return min(len(self.whole), self.least)
        if self.body is None:
            return min(len(self.whole), 120)
        return min(len(self.whole), len(self.label) + 1 + 200)

    def render(self, size: int | None) -> str:
        if self.body is None:
            return self.label if size is None or len(self.label) <= size else self.label[: max(0, size - 1)] + "…"
        whole = (self.label + "\n" if self.label else "") + indent(self.body)
        if size is None or len(whole) <= size:
            return whole
        room = size - len(self.label) - 1
        while room >= 60:
            shown = (self.label + "\n" if self.label else "") + indent(excerpt(self.body, room))
            if len(shown) <= size:
                return shown
            room -= len(shown) - size + 8
        return self.label[:size]


class Part:
    """A part of the memory: its heading (the kit's words), its items most valuable first,
    and what to say of items left out."""

    __slots__ = ("name", "heading", "items", "more", "kept")

    def __init__(
        self, name: str, heading: str, items: list[Item], more: str = "in the memory file", *, kept: int = 0
    ) -> None:
        self.name, self.heading, self.items, self.more = name, heading, items, more
        self.kept = kept  # the first `kept` items are never cut (the open tasks)

    @property
    def must(self) -> int:
        """The room the items that are never cut take, with the heading and a note."""
        return len(self.heading) + sum(len(item.whole) + 1 for item in self.items[: self.kept]) + 80 if self.kept else 0

    def left_out(self, items: list[Item]) -> str:
        """The note for the items left out: how many, by kind when they have one."""
        counts: dict[str, int] = {}
        for item in items:
            counts[item.kind] = counts.get(item.kind, 0) + 1
        kinds = ", ".join(f"{kind}: {n}" for kind, n in counts.items() if kind)
        return f"- … and {len(items)} more" + (f" ({kinds})" if kinds else "") + f" {self.more}"


class Paths:
    """Paths as shown: relative to the session's folder when under it."""

    def __init__(self, cwd: object) -> None:
        self.prefix = cwd.rstrip("/") + "/" if isinstance(cwd, str) and cwd.strip("/") else None

    def __call__(self, path: object) -> str:
        text = str(path)
        if self.prefix and text.startswith(self.prefix):
            text = text[len(self.prefix) :]
        return one_line(text)


def scratch(state: Mapping) -> Part:
    items = [
        Item(f"- {one_line(k, 120)}: {one_line(v, 2000)}", least=len(one_line(k, 120)) + 30)
        for k, v in (state.get("values") or {}).items()
    ]
    for note in list(state.get("notes") or [])[::-1]:  # the newest first
        items.append(Item(f"- note [{one_line(note.get('at', '?'), 40)}] {one_line(note.get('text', ''), 2000)}"))
    return Part("scratch", "Saved by hand (`session-kit scratch`; these take precedence):", items)


def requests(memory: Mapping) -> Part:
    requests = memory.get("requests") or {}
    first, recent = requests.get("first"), list(requests.get("recent") or [])
    items = []
    latest = recent[-1] if recent else None
    if first:
        same = latest is not None and latest["line"] == first["line"]
        items.append(Item("- the first request" + (" (also the latest):" if same else ":"), first["text"]))
    if latest and not (first and latest["line"] == first["line"]):
        items.append(Item("- the latest request:", latest["text"]))
    for item in recent[-2::-1]:
        if not first or item["line"] != first["line"]:
            items.append(Item("- an earlier request:", item["text"]))
    return Part("requests", "The person's requests (verbatim; a paste shown by its first lines and size):", items)


def constraints(memory: Mapping, shown: str) -> Part:
    """Each standing instruction not already shown whole in the requests part (`shown`)."""
    said = list((memory.get("requests") or {}).get("constraints") or [])
    flat_shown = " ".join(shown.split())
    by_request: dict[object, list[str]] = {}  # a request's decision and constraints stay together
    for c in said:
        by_request.setdefault(c.get("line"), []).append(one_line(c["text"]))
    items = [
        Item(
            f"- {one_line(' '.join(texts), 2 * LABEL_LIMIT)}", least=len(one_line(" ".join(texts), 2 * LABEL_LIMIT)) + 2
        )
        for texts in list(by_request.values())[::-1]
        if not all(text in flat_shown for text in texts)
    ]
    heading = "Standing instructions from all of the person's requests (newest first):"
    return Part("constraints", heading, items)


def failures(memory: Mapping) -> Part:
    items = []
    for failure in list(memory.get("failures") or [])[::-1]:
        code = failure.get("exit_code")
        what = one_line(failure.get("command") or failure.get("key"))
        tool = failure.get("tool")
        label = f"- {what}" if tool in ("agent", "hook") else f"- {tool}: {what}"
        label += (f" → exit code {code}" if code is not None else "") + f" (transcript line {failure.get('line')})"
        items.append(Item(label, failure.get("error") or None))
    heading = "Failed and not fixed since (a later success of the same command, file or test clears one):"
    return Part("failures", heading, items)


def declined(memory: Mapping) -> Part:
    """The calls the person declined, the latest first: decisions, not failures to retry."""
    items = []
    for item in list(memory.get("declined") or [])[::-1]:
        what = one_line(item.get("command") or item.get("key"))
        label = f"- declined: {item.get('tool')}: {what} (transcript line {item.get('line')})"
        items.append(Item(label + (" — the person said:" if item.get("said") else ""), item.get("said") or None))
    heading = "Declined by the person (their decision: not a failure; do not retry it unasked):"
    return Part("declined", heading, items)


def agents(memory: Mapping) -> Part:
    listed = list(memory.get("agents") or [])[::-1]  # the latest first, the running ones before them
    listed.sort(key=lambda a: not str(a.get("status")).startswith("running"))
    items = []
    for agent in listed:
        label = f'- {one_line(agent.get("type"), 60)} agent "{one_line(agent.get("description"), 200)}": {_agent_state(agent)}'
        said = agent.get("answer") or agent.get("error")
        items.append(Item(label + (" — it said:" if said else ""), said))
    return Part("agents", "Subagents, as they stand now:", items)


def _agent_state(agent: Mapping) -> str:
    """`finished (3 calls, 12s)`, `failed`, `still running in the background`."""
    status = agent.get("status")
    if status == RUNNING:
        return "still running in the background" if agent.get("background") else "still running"
    word = one_line(status, 40)
    facts = []
    if isinstance(agent.get("calls"), int):
        facts.append(f"{agent['calls']} call" + ("" if agent["calls"] == 1 else "s"))
    if isinstance(agent.get("duration_s"), (int, float)):
        facts.append(f"{agent['duration_s']:.0f}s")
    if agent.get("background"):
        facts.append("ran in the background")
    return word + (f" ({', '.join(facts)})" if facts else "")


def doing(memory: Mapping, path: Paths) -> Part:
    """What the session was doing at the compaction: the task or tracker item in progress,
    the latest call (running when no result came), the assistant's last stated intent."""
    items = []
    for task in (memory.get("tasks") or {}).get("items") or []:
        if task.get("status") == "in_progress":
            items.append(Item(f"- the task in progress: {one_line(task.get('subject'))}"))
    tracker = memory.get("tracker") or {}
    if tracker.get("current"):
        items.append(
            Item(
                f"- the {one_line(tracker.get('program'), 20)} item in progress: {one_line(tracker['current'], 80)}"
                f" (claimed at transcript line {tracker.get('claimed_line')})"
            )
        )
    now = memory.get("doing") or {}
    call = now.get("call")
    if call:
        running = call.get("id") in (memory.get("pending") or {})
        what = path(call.get("what")) if call.get("tool") in KEYED_BY_PATH else call.get("what")
        said = f" ({one_line(call['description'], 200)})" if call.get("description") else ""
        when = "running at the compaction" if running else "its result came"
        items.append(Item(f"- the latest call, line {call.get('line')}, {when}: {one_line(what)}{said}"))
    intent = now.get("intent")
    said_last = (memory.get("next") or {}).get("line")
    if intent and intent.get("text") and intent.get("line") != said_last:
        items.append(Item(f"- the assistant's last stated intent (line {intent.get('line')}):", intent["text"]))
    return Part("doing", "What the session was doing at the compaction:", items)


def plan(memory: Mapping, read_plan: Callable[[str], str | None], path: Paths) -> Part:
    items = []
    tracker = memory.get("tracker") or {}
    planned = memory.get("plan")
    tracked = _tracked(tracker)
    spent = plan_spent(memory)
    if tracked:
        items.append(tracked)
    mode = memory.get("plan_mode")
    if mode and mode.get("active"):
        where = f"; the plan file is {path(mode['path'])}" if mode.get("path") else ""
        items.append(Item(f"- Plan mode is on{where}."))
    documents = ranked_documents(memory)
    shown = [_document(doc, path, n == 0 and not tracked) for n, doc in enumerate(documents)]
    if planned:
        status = {
            "approved": "approved",
            "refused": "refused",
            "proposed": "proposed, not yet answered",
            "writing": "being written in plan mode",
        }.get(planned.get("status"), one_line(planned.get("status"), 40))
        where = f", file {path(planned['path'])}" if planned.get("path") else ""
        older = spent or bool(documents) and (documents[0].get("line") or 0) > (planned.get("line") or 0)
        if spent:
            label = f"- an earlier plan, for an item before the one in progress ({status}{where}, line {planned.get('line')}):"
        else:
            label = f"- the plan ({status}{where}" + ("; older than the working document above" if older else "") + "):"
        text = planned.get("text")
        if not text and planned.get("path"):
            text = read_plan(planned["path"]) or "(the plan file was not found)"
        if planned.get("reason"):
            text = f"refused with: {planned['reason']}\n{text or ''}"
        item = Item(label, text)
        shown = [*shown, item] if older else [item, *shown]
    items.extend(shown)
    return Part("plan", "The plan:", items)


def plan_spent(memory: Mapping) -> bool:
    """A plan-mode plan made before the issue tracker's latest item was claimed is spent: not
    the plan now."""
    tracker = memory.get("tracker") or {}
    planned = memory.get("plan")
    tracked = bool(tracker.get("shown") or tracker.get("current"))
    return bool(tracked and planned and (tracker.get("claimed_line") or 0) > (planned.get("line") or 0))


def _tracked(tracker: Mapping) -> Item | None:
    """The issue tracker's plan: the item it was shown first, the one in progress, the closed."""
    shown = list(tracker.get("shown") or [])
    if not shown and not tracker.get("current"):
        return None
    program = one_line(tracker.get("program"), 20)
    root = shown[0] if shown else tracker["current"]
    facts = [f"in progress: {one_line(tracker['current'], 80)}"] if tracker.get("current") else []
    if tracker.get("closed"):
        facts.append("closed: " + ", ".join(one_line(c, 80) for c in tracker["closed"]))
    facts.append(f"`{program} show {one_line(root, 80)}` shows it")
    return Item(f"- the plan followed: the {program} issue tracker's {one_line(root, 80)} ({'; '.join(facts)})")


def ranked_documents(memory: Mapping) -> list[Mapping]:
    """The working documents, the plan followed first: those with a checklist before those
    without (notes), the latest touched first within each."""
    documents = (memory.get("documents") or {}).values()
    return sorted(documents, key=lambda d: (bool(d.get("items")), _named_plan(d), d.get("line") or 0), reverse=True)


def _named_plan(doc: Mapping) -> bool:
    """A document named as a plan (`plan.md`, `task_plan.md`), before notes and todo lists."""
    return "plan" in str(doc.get("path", "")).rsplit("/", 1)[-1].lower()


def _document(doc: Mapping, path: Paths, latest: bool) -> Item:
    what = "the plan followed" if latest else "another working document"
    how = "written" if doc.get("how") == "wrote" else "read"
    if not doc.get("found", True):
        return Item(f"- {what}: {path(doc['path'])} ({how} by the session; gone from disk at the compaction)")
    items = doc.get("items") or []
    if items:
        done = doc.get("done", 0)
        label = f"- {what}: {path(doc['path'])} ({how} by the session; on disk at the compaction: {done} of {doc.get('total')} items done; open items):"
        body = "\n".join(f"[ ] {one_line(i['text'])}" for i in items if not i.get("done")) or "(none open)"
        return Item(label, body)
    return Item(
        f"- {what}: {path(doc['path'])} ({how} by the session; as it is on disk at the compaction):", doc.get("excerpt")
    )


def tasks(memory: Mapping, path: Paths) -> Part:
    tasks = memory.get("tasks") or {}
    items = list(tasks.get("items") or [])
    source = tasks.get("source")
    if not items:  # the task tools are off: the working document's checklist is the task list
        for doc in ranked_documents(memory):
            if doc.get("items"):
                items = [
                    {"status": "completed" if i.get("done") else "pending", "subject": i["text"]} for i in doc["items"]
                ]
                source = f"the checklist in {path(doc['path'])}"
                break
    rank = {"in_progress": 0, "pending": 1}
    items.sort(key=lambda i: rank.get(str(i.get("status")), 2))
    shown = []
    for i in items:
        label = f"- [{one_line(i.get('status'), 20)}] {one_line(i.get('subject'))}"
        is_open = str(i.get("status")) in rank
        shown.append(Item(label, least=len(label) if is_open else None, kind=one_line(i.get("status"), 20)))
    opened = sum(1 for i in items if str(i.get("status")) in rank)
    return Part("tasks", f"Task list ({source}; open ones first):", shown, kept=opened)


def files(memory: Mapping, path: Paths) -> Part:
    changed = memory.get("files") or {}
    items = []
    for name in list(changed)[::-1]:  # the latest change first
        info = changed[name]
        times = info.get("times", 1)
        change = one_line(info.get("change"), 20) + (f"; {times} changes" if times > 1 else "")
        items.append(Item(f"- {path(name)} ({change})"))
    return Part("files", "Files changed in this session (latest first):", items)


def last_words(memory: Mapping) -> Part:
    said = memory.get("next")
    items = [Item("", said["text"])] if said and said.get("text") else []
    return Part("next", "The assistant's last words (no tool call came after them):", items)


def reads(memory: Mapping, path: Paths) -> Part:
    earlier = list(memory.get("reads") or [])[RE_ATTACHED_READS:]
    items = [Item(f"- {path(r['path'])}") for r in earlier]
    return Part("reads", "Files read before the latest five (which the client re-attaches itself):", items)
