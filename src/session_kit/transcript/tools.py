"""What a tool call's input says, as the kit shows it: a summary per tool, redacted.

Owns: per tool name, a one-line summary of a call's input (through the redactor, before any
cut), what a spawning call's input asks for, and the file a writing call names. The tools'
roles (which spawn an agent, which write a file and under which input key, the plan and task
tools) are `base.tools`', the one table the hooks read too; a new tool's role goes there, its
summary here. Pure functions on a name and an input mapping.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from session_kit.base import tools as roles
from session_kit.base.tools import (
    AGENT,
    BASH,
    EDIT,
    EXIT_PLAN_MODE,
    GLOB,
    GREP,
    MULTI_EDIT,
    NOTEBOOK_EDIT,
    NOTEBOOK_READ,
    READ,
    TASK,
    TODO_WRITE,
    WEB_FETCH,
    WEB_SEARCH,
    WRITE,
)
from session_kit.redaction.engine import shown

SUMMARY_LIMIT = 160
DEFAULT_AGENT_TYPE = "general-purpose"  # what the client runs when a spawning call names no type


def one_line(text: Any, limit: int = SUMMARY_LIMIT) -> str:
    """The text as shown (redacted: before the cut, which would leave a secret's head), on
    one line, cut to `limit` characters."""
    try:
        text = " ".join(shown(str(text)).split())
    except (ValueError, RecursionError):  # an int past 4,300 digits, or nesting past the stack
        text = f"({type(text).__name__} too large to show)"
    return text if len(text) <= limit else text[: limit - 1] + "…"


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


SUMMARIES: dict[str, Callable[[Mapping[str, Any]], str]] = {
    BASH: _key("command"),
    READ: _path,
    NOTEBOOK_READ: _path,
    EDIT: _path,
    MULTI_EDIT: _path,
    NOTEBOOK_EDIT: _path,
    WRITE: _write,
    GREP: _search,
    GLOB: _search,
    AGENT: _agent,
    TASK: _agent,
    EXIT_PLAN_MODE: _plan,
    WEB_FETCH: _key("url"),
    WEB_SEARCH: _key("query"),
    TODO_WRITE: _todos,
}


def summarize_input(name: str, tool_input: Mapping[str, Any]) -> str:
    """A one-line description of a call's input, per tool."""
    summarize = SUMMARIES.get(name)
    if summarize is not None:
        return summarize(tool_input)
    keys = ", ".join(sorted(str(k) for k in tool_input))
    return one_line(f"keys: {keys}" if keys else "(no input)")


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
    key = roles.written_file_key(name)
    if key is None:
        return None
    value = tool_input.get(key)
    return value if isinstance(value, str) and value else None
