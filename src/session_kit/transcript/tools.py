"""What the kit knows about each tool the client offers the model: one registry.

Owns: per tool name, a one-line summary of a call's input, whether the call spawns a subagent
(`Agent`, formerly `Task`), which file it writes (Write, Edit, MultiEdit, NotebookEdit), and
the names the kit treats specially (ExitPlanMode, TodoWrite). A new tool, or new knowledge of
one, goes here; the hook side and a few readers still name tools of their own (listed under
"Not yet one" in docs/architecture.md). Pure functions on a name and an input mapping.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from session_kit.redact import shown

SUMMARY_LIMIT = 160

AGENT = "Agent"
TASK = "Task"  # the 2025 name of Agent
BASH = "Bash"
EXIT_PLAN_MODE = "ExitPlanMode"
TODO_WRITE = "TodoWrite"
AGENT_TOOLS = frozenset({AGENT, TASK})
DEFAULT_AGENT_TYPE = "general-purpose"  # what the client runs when a spawning call names no type


def one_line(text: Any, limit: int = SUMMARY_LIMIT) -> str:
    """The text as shown (redacted: before the cut, which would leave a secret's head), on
    one line, cut to `limit` characters."""
    try:
        text = " ".join(shown(str(text)).split())
    except (ValueError, RecursionError):  # an int past 4,300 digits, or nesting past the stack
        text = f"({type(text).__name__} too large to show)"
    return text if len(text) <= limit else text[: limit - 1] + "…"


class ToolInfo(NamedTuple):
    """The kit's knowledge of one tool."""

    summarize: Callable[[Mapping[str, Any]], str]
    spawns_agent: bool = False
    # The input key naming the file the call writes (None: the tool writes no file).
    writes_file_key: str | None = None


def _path(tool_input: Mapping[str, Any]) -> str:
    return one_line(tool_input.get("file_path") or tool_input.get("notebook_path") or "")


def _write(tool_input: Mapping[str, Any]) -> str:
    content = tool_input.get("content")
    size = len(content.encode("utf-8", "surrogatepass")) if isinstance(content, str) else 0
    return one_line(f"{tool_input.get('file_path', '')} ({size} bytes)")


def _search(tool_input: Mapping[str, Any]) -> str:
    where = tool_input.get("path")
    return one_line(f"{tool_input.get('pattern', '')}" + (f" in {where}" if where else ""))


def _agent(tool_input: Mapping[str, Any]) -> str:
    return one_line(f"[{tool_input.get('subagent_type') or DEFAULT_AGENT_TYPE}] {tool_input.get('description', '')}")


def _plan(tool_input: Mapping[str, Any]) -> str:
    plan = str(tool_input.get("plan", "")).strip().splitlines()
    return one_line(plan[0] if plan else "")


def _todos(tool_input: Mapping[str, Any]) -> str:
    todos = tool_input.get("todos")
    return f"{len(todos) if isinstance(todos, list) else 0} todos"


def _key(name: str) -> Callable[[Mapping[str, Any]], str]:
    return lambda tool_input: one_line(tool_input.get(name, ""))


TOOLS: dict[str, ToolInfo] = {
    BASH: ToolInfo(_key("command")),
    "Read": ToolInfo(_path),
    "NotebookRead": ToolInfo(_path),
    "Edit": ToolInfo(_path, writes_file_key="file_path"),
    "MultiEdit": ToolInfo(_path, writes_file_key="file_path"),
    "NotebookEdit": ToolInfo(_path, writes_file_key="notebook_path"),
    "Write": ToolInfo(_write, writes_file_key="file_path"),
    "Grep": ToolInfo(_search),
    "Glob": ToolInfo(_search),
    AGENT: ToolInfo(_agent, spawns_agent=True),
    TASK: ToolInfo(_agent, spawns_agent=True),
    EXIT_PLAN_MODE: ToolInfo(_plan),
    "WebFetch": ToolInfo(_key("url")),
    "WebSearch": ToolInfo(_key("query")),
    TODO_WRITE: ToolInfo(_todos),
}


def summarize_input(name: str, tool_input: Mapping[str, Any]) -> str:
    """A one-line description of a call's input, per tool."""
    info = TOOLS.get(name)
    if info is not None:
        return info.summarize(tool_input)
    keys = ", ".join(sorted(str(k) for k in tool_input))
    return one_line(f"keys: {keys}" if keys else "(no input)")


def spawns_agent(name: str) -> bool:
    return name in AGENT_TOOLS


class AgentSpawn(NamedTuple):
    """What a spawning call's input says of the agent it starts."""

    agent_type: str
    description: str | None
    prompt: str | None


def agent_spawn(tool_input: Mapping[str, Any]) -> AgentSpawn:
    """The agent an `Agent`/`Task` call's input asks for (its type defaults as the client's does)."""

    def text(key: str) -> str | None:
        value = tool_input.get(key)
        return value if isinstance(value, str) else None

    return AgentSpawn(text("subagent_type") or DEFAULT_AGENT_TYPE, text("description"), text("prompt"))


def written_file(name: str, tool_input: Mapping[str, Any]) -> str | None:
    """The path a call of `name` writes, or None (not a writing tool, or no path given)."""
    info = TOOLS.get(name)
    if info is None or info.writes_file_key is None:
        return None
    value = tool_input.get(info.writes_file_key)
    return value if isinstance(value, str) and value else None
