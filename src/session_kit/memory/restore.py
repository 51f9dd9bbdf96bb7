"""Restore: the working memory as the one block the SessionStart hook puts back.

Owns: the order of value (values saved by hand first, then the person's requests, failures not
yet fixed, the plan, the task list, changed files, subagents, the assistant's last words, files
read), fitting that into the client's context limit by shortening the least valuable parts
first (each part cut to fit says so, and where the whole memory is), and the whole memory as
text (`memory.md`, and `session-kit memory`). Standard library only; reads only the memory
document, the scratch state and a plan file. Does not: read the transcript.
"""

from __future__ import annotations

from session_kit.memory.settings import PARTS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

HEADING = "session-kit: this session's working memory, kept from before the context was compacted (restored)."
# The most the block may hold: the client caps what one hook adds near 10,000 characters, and
# the SessionStart hook's own first lines (about 400) go with it, under 9,000 in all.
LIMIT = 8400
# How far each part may be shortened: level 0 is whole, the last level leaves it out.
LEVELS = 4


def _indent(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line for line in text.splitlines())


def _cut(text: str, limit: int | None) -> str:
    if limit is None or len(text) <= limit:
        return text
    return text[:limit] + f"… [{len(text) - limit} more chars in the memory file]"


def _scratch(state: Mapping, level: int, state_file: str | None) -> list[str]:
    values = state.get("values") or {}
    notes = list(state.get("notes") or [])
    if not values and not notes:
        return []
    cap = (None, 400, 80, 0)[min(level, 3)]
    lines = ["Saved by hand (`session-kit scratch`; these take precedence):"]
    if level and state_file:
        lines.append(f"(cut to fit; all of it is in {state_file}, `session-kit scratch show`)")
    for key, value in values.items():
        lines.append(f"- {key}" if cap == 0 else f"- {key}: {_cut(str(value), cap)}")
    shown = notes if level == 0 else notes[-(10, 3, 1)[min(level, 3) - 1] :]
    if len(shown) < len(notes):
        lines.append(f"Notes (newest {len(shown)} of {len(notes)}):")
    elif notes:
        lines.append("Notes:")
    lines.extend(f"- [{n.get('at', '?')}] {_cut(str(n.get('text', '')), cap or 80)}" for n in shown)
    return lines


def _requests(memory: Mapping, level: int) -> list[str]:
    requests = memory.get("requests") or {}
    first, recent = requests.get("first"), list(requests.get("recent") or [])
    if not first and not recent:
        return []
    cap = (None, 1500, 400)[min(level, 2)]
    lines = ["The person's requests (verbatim):"]
    if first and (not recent or recent[0]["line"] != first["line"]):
        lines.append(f"- first (transcript line {first['line']}):")
        lines.append(_indent(_cut(first["text"], cap)))
    shown = recent if level == 0 else recent[-(3 if level == 1 else 1) :]
    for n, item in enumerate(shown):
        label = "latest" if n == len(shown) - 1 else "first" if first and item["line"] == first["line"] else "earlier"
        lines.append(f"- {label} (transcript line {item['line']}):")
        lines.append(_indent(_cut(item["text"], cap)))
    return lines


def _failures(memory: Mapping, level: int) -> list[str]:
    failures = list(memory.get("failures") or [])
    if not failures:
        return []
    shown = failures[-(8, 5, 2)[min(level, 2)] :]
    lines = ["Failed and not fixed since (a later success of the same command would have cleared it):"]
    if len(shown) < len(failures):
        lines.append(f"({len(failures) - len(shown)} older failures are in the memory file)")
    for failure in shown:
        code = failure.get("exit_code")
        what = failure.get("command") or failure.get("key")
        head = f"- {failure.get('tool')}: {_cut(what, 300)}" + (f" → exit code {code}" if code is not None else "")
        lines.append(head + f" (transcript line {failure.get('line')})")
        error = failure.get("error") or ""
        if error:
            lines.append(_indent(_cut(error, (None, 600, 200)[min(level, 2)])))
    return lines


def _plan(memory: Mapping, level: int, read_plan: Callable[[str], str | None]) -> list[str]:
    plan = memory.get("plan")
    mode = memory.get("plan_mode")
    lines = []
    if mode and mode.get("active"):
        lines.append("Plan mode is on" + (f"; the plan file is {mode['path']}." if mode.get("path") else "."))
    if plan:
        status = {
            "approved": "approved",
            "refused": "refused",
            "proposed": "proposed, not yet answered",
            "writing": "being written in plan mode",
        }.get(plan.get("status"), str(plan.get("status")))
        where = f" (file {plan['path']})" if plan.get("path") else ""
        lines.append(f"The plan, {status}{where}, transcript line {plan.get('line')}:")
        if plan.get("reason"):
            lines.append(f"  refused with: {plan['reason']}")
        text = plan.get("text")
        if not text and plan.get("path"):
            text = read_plan(plan["path"]) or "(the plan file was not found)"
        if text:
            lines.append(_indent(_cut(text, (None, 2500, 600)[min(level, 2)])))
    return lines


def _tasks(memory: Mapping, level: int) -> list[str]:
    items = list((memory.get("tasks") or {}).get("items") or [])
    if not items:
        return []
    if level >= 2:
        open_items = [i for i in items if i.get("status") != "completed"]
        items = open_items[:10]
    lines = [f"Task list ({(memory.get('tasks') or {}).get('source')}):"]
    for item in items:
        lines.append(f"- [{item.get('status')}] {_cut(str(item.get('subject')), 200 if level else None)}")
    return lines


def _files(memory: Mapping, level: int) -> list[str]:
    files = memory.get("files") or {}
    if not files:
        return []
    paths = list(files)[::-1]  # the latest change first
    shown = paths[: (60, 25, 8)[min(level, 2)]]
    lines = ["Files changed in this session (latest first):"]
    for path in shown:
        info = files[path]
        times = info.get("times", 1)
        lines.append(f"- {path} ({info.get('change')}" + (f"; {times} changes" if times > 1 else "") + ")")
    if len(shown) < len(paths):
        lines.append(f"- … and {len(paths) - len(shown)} more in the memory file")
    return lines


def _agents(memory: Mapping, level: int) -> list[str]:
    agents = list(memory.get("agents") or [])
    if not agents:
        return []
    agents.sort(key=lambda a: not str(a.get("status")).startswith("running"))  # (older files: "running in …")
    shown = agents[: (20, 8, 3)[min(level, 2)]]
    lines = ["Subagents started:"]
    for agent in shown:
        line = f'- {agent.get("type")} "{agent.get("description")}": {_agent_state(agent)}'
        if agent.get("id"):
            line += f" (agent {agent['id']})"
        said = agent.get("answer") or agent.get("error")
        if said and level < 2:
            line += f" — {_cut(said, 300 if level == 0 else 120)}"
        lines.append(line)
    return lines


def _agent_state(agent: Mapping) -> str:
    """`finished (3 calls, 12s)`, `failed`, `running in the background`."""
    status = agent.get("status")
    if status == "running":
        return "running in the background" if agent.get("background") else "running"
    word = {"ok": "finished", "finished": "finished"}.get(str(status), str(status))
    facts = []
    if isinstance(agent.get("calls"), int):
        facts.append(f"{agent['calls']} call" + ("" if agent["calls"] == 1 else "s"))
    if isinstance(agent.get("duration_s"), (int, float)):
        facts.append(f"{agent['duration_s']:.0f}s")
    return word + (f" ({', '.join(facts)})" if facts else "")


def _next(memory: Mapping, level: int) -> list[str]:
    said = memory.get("next")
    if not said or level >= 2:
        return []
    text = said["text"] if level == 0 else said["text"][-500:]
    return [f"The assistant's last words (transcript line {said.get('line')}):", _indent(text)]


def _reads(memory: Mapping, level: int) -> list[str]:
    reads = memory.get("reads") or []
    if not reads or level >= 2:
        return []
    return ["Files read lately: " + ", ".join(r["path"] for r in reads[: (12, 5)[level]])]


def _sections(
    memory: Mapping,
    state: Mapping,
    read_plan: Callable[[str], str | None],
    keep: Callable[[str], bool],
    state_file: str | None,
):
    """(name, render(level) -> lines), most valuable first."""
    parts = {
        "requests": lambda level: _requests(memory, level),
        "failures": lambda level: _failures(memory, level),
        "plan": lambda level: _plan(memory, level, read_plan),
        "tasks": lambda level: _tasks(memory, level),
        "files": lambda level: _files(memory, level),
        "agents": lambda level: _agents(memory, level),
        "next": lambda level: _next(memory, level),
        "reads": lambda level: _reads(memory, level),
    }
    yield "scratch", lambda level: _scratch(state, level, state_file)
    for name in PARTS:
        if keep(name):
            yield name, parts[name]


def render(
    memory: Mapping | None,
    state: Mapping,
    *,
    limit: int | None,
    memory_file: str,
    read_plan: Callable[[str], str | None],
    keep: Callable[[str], bool] = lambda part: True,
    heading: str = HEADING,
    state_file: str | None = None,
) -> str | None:
    """The block to put back, at most `limit` characters (None: whole); None when empty."""
    memory = memory or {}
    sections = list(_sections(memory, state, read_plan, keep, state_file))
    levels = [0] * len(sections)
    rendered = [render_part(0) for _, render_part in sections]
    if not any(rendered):
        return None
    head = f"{heading}\nThe whole memory: {memory_file} (`session-kit memory` shows it)."

    def join() -> str:
        return "\n\n".join([head, *("\n".join(lines) for lines in rendered if lines)])

    text = join()
    if limit is None:
        return text
    # Shorten every part before leaving any out: round by round (shorter, shortest, gone),
    # the least valuable part first in each round. What was saved by hand is shortened last
    # and never left out: at its last level it is its keys and the file that holds it.
    for target in range(1, LEVELS):
        for i in [*range(len(sections) - 1, 0, -1), 0]:
            if len(text) <= limit:
                break
            if not rendered[i] or levels[i] >= target:
                continue
            levels[i] = target
            rendered[i] = sections[i][1](target) if target < LEVELS - 1 or i == 0 else []
            text = join()
    # Then give room back, most valuable part first, while a longer form still fits; the
    # first part that cannot grow ends it, so a less valuable part never outgrows it.
    for i in range(len(sections)):
        grown = True
        while levels[i] > 0 and len(text) <= limit:
            before = rendered[i]
            rendered[i] = sections[i][1](levels[i] - 1)
            candidate = join()
            if len(candidate) > limit:
                rendered[i] = before
                grown = False
                break
            levels[i] -= 1
            text = candidate
        if not grown:
            break
    if len(text) > limit:
        tail = f"\n… cut to fit; the rest is in {memory_file}."
        text = text[: max(0, limit - len(tail))] + tail
    left_out = [sections[i][0] for i in range(1, len(sections)) if levels[i] and not rendered[i] and sections[i][1](0)]
    if left_out:
        note = f"\nLeft out to fit (in the memory file): {', '.join(left_out)}."
        if len(text) + len(note) <= limit:
            text += note
    return text


def render_whole(memory: Mapping, state: Mapping, *, memory_file: str, read_plan: Callable[[str], str | None]) -> str:
    """The whole memory as text, for `memory.md` (written with every capture) and
    `session-kit memory --whole`."""
    return (
        render(memory, state, limit=None, memory_file=memory_file, read_plan=read_plan, heading="Working memory")
        or "Working memory: nothing captured yet."
    )
