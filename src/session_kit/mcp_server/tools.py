"""The tool table of `session-kit mcp`: what each tool is for, its arguments and their checks.

Owns: each tool's name, the description the model reads (when to use it, what it returns),
its arguments (a JSON Schema for the client; the same table checks what a call sends, so a
bad argument gets one message saying what is expected) and the command whose `--json`
document it answers with. Standard library only. Does not answer (`answers`) or speak the
protocol (`server`).
"""

from __future__ import annotations

from typing import Any, NamedTuple

PAGE_NOTE = (
    " Long answers come in pages of about 20,000 characters of that JSON text: a page that is not the last "
    "says so and gives a `cursor`; call again with the same arguments and that cursor for the next page."
)
SESSION_HELP = (
    "The session: a unique prefix of its id, its whole id, or the path of a .jsonl transcript. "
    "Omit it for the current session (the one this conversation is)."
)


class Arg(NamedTuple):
    name: str
    kind: str  # "string", "boolean", "integer"
    help: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    required: bool = False

    def schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": self.kind, "description": self.help}
        if self.choices:
            schema["enum"] = list(self.choices)
        if self.minimum is not None:
            schema["minimum"] = self.minimum
        if self.maximum is not None:
            schema["maximum"] = self.maximum
        return schema

    def expected(self) -> str:
        if self.choices:
            return "one of " + ", ".join(self.choices)
        if self.kind == "integer":
            return f"a whole number from {self.minimum} to {self.maximum}"
        return {"string": "a string", "boolean": "true or false"}[self.kind]


class Tool(NamedTuple):
    name: str
    command: str  # the command whose --json document the tool answers with
    description: str
    args: tuple[Arg, ...]

    def input_schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {arg.name: arg.schema() for arg in (*self.args, CURSOR)},
            "required": [arg.name for arg in self.args if arg.required],
            "additionalProperties": False,
        }


class BadArguments(ValueError):
    """A call's arguments do not fit the tool: the message says what is expected."""


SESSION = Arg("session", "string", SESSION_HELP)
CURSOR = Arg("cursor", "string", "The `cursor` a previous page of this answer gave, for its next page.")

TOOLS = (
    Tool(
        "search_history",
        "search",
        "Search the text of past Claude Code sessions (messages, tool inputs and outputs, subagents included) "
        "in this project or all projects. Use it to find where something was discussed, tried or failed before: "
        "an error message, a file, a decision. Matches words in order, the last one as a prefix, case-insensitive. "
        "Returns the `session-kit search --json` document: `hits`, best first, each with the session id, the "
        "agent id for a subagent, line, time, where the text was (prompt, answer, tool input or output), the tool, "
        "a snippet, and `resume`: the command that resumes that session. Follow a hit with show_session or "
        "debug_agents on its session id." + PAGE_NOTE,
        (
            Arg("query", "string", "The words to find.", required=True),
            Arg("all_projects", "boolean", "Search every project, not only this one (default false)."),
            Arg("project", "string", "Search this project folder instead of the current one (a path)."),
            Arg("tool", "string", "Only the inputs and outputs of this tool (Bash, Edit, Agent…)."),
            Arg("errors_only", "boolean", "Only the output of tool calls that failed."),
            Arg("since", "string", "Only what was written at or after this date or time (ISO, e.g. 2026-11-20)."),
            Arg("until", "string", "Only what was written before this date or time (ISO)."),
            Arg("agent", "string", "Only subagents: an agent id prefix or an agent type (Explore, Plan…)."),
            Arg("limit", "integer", "At most this many hits (default 20).", minimum=1, maximum=200),
        ),
    ),
    Tool(
        "show_session",
        "show",
        "Summarise one session: its requests, tool calls by tool, failed calls with their errors, compactions, "
        "subagents (status, calls, duration) and tokens and cost. Use it to see what happened in a session, "
        "this one or one a search found. Returns the `session-kit show --json` document." + PAGE_NOTE,
        (SESSION,),
    ),
    Tool(
        "debug_agents",
        "debug-agent",
        "Debug a session's subagents: what each was asked, the tool calls it made (failed ones with their "
        "errors), how it ended and its final answer. By default only the failed agents; `all` for every one, "
        "`agent` for one in detail. Use it when a subagent failed, stalled or answered oddly. Returns the "
        "`session-kit debug-agent --json` document." + PAGE_NOTE,
        (
            SESSION,
            Arg("agent", "string", "One agent: a prefix of its id."),
            Arg("all", "boolean", "Every agent, not only the failed ones (default false)."),
            Arg("agent_type", "string", "Only the agents of this type (Plan, general-purpose, Explore…)."),
            Arg("tool", "string", "Only the agents that called this tool, and only those calls."),
        ),
    ),
    Tool(
        "session_memory",
        "memory",
        "The session's working memory as the kit would put it back after a compaction: the person's requests "
        "and standing instructions, failures not yet fixed, subagents, the plan and working documents, tasks, "
        "changed files, values saved by hand. Use it after a compaction, or before one, to check what is "
        "kept. With `dropped`, for each compaction, what the client's summary lost of it. Returns the "
        "`session-kit memory --json` document (`restored` is the text that comes back), or with `dropped` "
        "`session-kit memory --dropped --json`'s. Reads the transcript; saves nothing." + PAGE_NOTE,
        (SESSION, Arg("dropped", "boolean", "What each compaction's summary lost of the memory (default false).")),
    ),
    Tool(
        "plan",
        "plan",
        "The plan the session follows: from ExitPlanMode calls, Plan agents' answers and plan files of its own, "
        "and the working documents. Use it to re-read the plan being carried out. The latest plan, or every "
        "one with `all`. Returns the `session-kit plan --json` document." + PAGE_NOTE,
        (SESSION, Arg("all", "boolean", "Every plan of the session, oldest first (default false: the latest).")),
    ),
    Tool(
        "live_agents",
        "agents",
        "The session's subagents now: running, stalled (its log silent too long), finished, failed or stopped; "
        "for each its elapsed time, tokens so far and budget (over budget or not), what it is doing or its "
        "last message. Use it to check on background agents. Returns the `session-kit agents --json` "
        "document." + PAGE_NOTE,
        (
            SESSION,
            Arg(
                "stalled_after",
                "string",
                "A running agent whose log has not grown for this long is stalled: minutes (10) or 30s, 2m, 1h.",
            ),
        ),
    ),
    Tool(
        "usage",
        "usage",
        "Tokens and cost over the whole history of this machine's Claude root, grouped by session, agent "
        "(type), day, week, month, project or model, priced from the kit's price table (a model without "
        "a price is named, never counted as free). Use it to answer what work cost. Returns the "
        "`session-kit usage --json` document." + PAGE_NOTE,
        (
            Arg(
                "by",
                "string",
                "How to group the rows (default day).",
                choices=("day", "week", "month", "project", "session", "model", "agent"),
            ),
            Arg("since", "string", "From this local date on (YYYY-MM-DD)."),
            Arg("until", "string", "Up to this local date, included (YYYY-MM-DD)."),
        ),
    ),
)
BY_NAME = {tool.name: tool for tool in TOOLS}


def checked(tool: Tool, arguments: dict[str, Any] | None) -> dict[str, Any]:
    """`arguments` as the tool takes them; BadArguments saying what is expected."""
    given = dict(arguments or {})
    known = {arg.name: arg for arg in (*tool.args, CURSOR)}
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise BadArguments(
            f"{tool.name} takes no argument {', '.join(map(repr, unknown))}; it takes: {', '.join(known)}"
        )
    out: dict[str, Any] = {}
    for name, arg in known.items():
        value = given.get(name)
        if value is None:
            if arg.required:
                raise BadArguments(f"{tool.name} needs `{name}`: {arg.expected()} ({arg.help})")
            continue
        ok = {
            "string": isinstance(value, str),
            "boolean": isinstance(value, bool),
            "integer": isinstance(value, int) and not isinstance(value, bool),
        }[arg.kind]
        if ok and arg.kind == "string" and not value.strip():
            ok = False
        if ok and arg.choices:
            ok = value in arg.choices
        if ok and arg.kind == "integer":
            ok = (arg.minimum is None or value >= arg.minimum) and (arg.maximum is None or value <= arg.maximum)
        if not ok:
            raise BadArguments(f"`{name}` of {tool.name} must be {arg.expected()}, not {value!r}")
        out[name] = value
    return out
