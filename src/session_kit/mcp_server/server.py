"""`session-kit mcp`: the kit's read-only tools served over stdio with the MCP SDK.

Owns: the SDK's low-level server (`mcp.server.lowlevel.Server`) on stdin and stdout, its
tools listed from the tool table (`tools.TOOLS`), each call checked against it and answered
by `answers`, and how a failure reaches the model: arguments that do not fit, a session not
found or ambiguous, any error of the kit, each as a tool error (`is_error`) of one message
saying what is expected or what went wrong (as the 2025-11-25 specification asks, so the
model can correct its call); an unknown tool as a protocol error. The only module of the
kit that imports `mcp` (the command line loads it for `session-kit mcp` alone; no hook or
other command does). Secrets are redacted in every answer unless the server was started with
`--no-redact`. Does not: decide what a tool answers (`answers`) or its arguments (`tools`).
"""

from __future__ import annotations

import signal
import sys
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError

from session_kit import __version__, api
from session_kit.errors import KitError
from session_kit.mcp_server.answers import answer
from session_kit.mcp_server.tools import BY_NAME, TOOLS, BadArguments, checked

NAME = "session-kit"
INSTRUCTIONS = (
    "Read-only tools over this machine's Claude Code history, this session's included: search past "
    "sessions, summarise one, debug its subagents, see its working memory, plan, live agents and usage. "
    "A session is an id prefix or a transcript path; none means the current session. Answers are the "
    "`session-kit` command's --json documents, secrets redacted."
)


def _result(text: str, note: str | None = None, *, error: bool = False) -> types.CallToolResult:
    content = [types.TextContent(type="text", text=text)]
    if note:
        content.append(types.TextContent(type="text", text=note))
    return types.CallToolResult(content=content, is_error=error)


def make_server(root: Path) -> Server[Any]:
    """The server, answering from the Claude root `root`."""

    async def list_tools(_ctx: Any, _params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(
            tools=[types.Tool(name=t.name, description=t.description, input_schema=t.input_schema()) for t in TOOLS]
        )

    async def call_tool(_ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        tool = BY_NAME.get(params.name)
        if tool is None:
            raise MCPError(types.INVALID_PARAMS, f"no tool {params.name!r}; the tools are: {', '.join(BY_NAME)}")
        try:
            page = answer(tool.name, root, checked(tool, params.arguments))
        except BadArguments as exc:
            return _result(f"invalid arguments: {exc}", error=True)
        except KitError as exc:
            return _result(f"{tool.name}: {exc}", error=True)
        except Exception as exc:
            print(f"session-kit mcp: {tool.name} failed: {type(exc).__name__}: {exc}", file=sys.stderr)
            return _result(f"{tool.name} failed: {type(exc).__name__}: {exc}", error=True)
        return _result(page.text, page.note())

    return Server(
        NAME,
        version=__version__,
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


def serve(claude_dir: Path | None = None) -> None:
    """Serve the tools on stdin and stdout until the client closes them, or until SIGINT or
    SIGTERM: Claude Code ends its servers with SIGINT, and a server reading stdin in a worker
    thread would otherwise wait for that read (nothing is written, so nothing is left half)."""
    server = make_server(api.claude_root(claude_dir))
    signal.signal(signal.SIGINT, signal.SIG_DFL)

    async def run() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(run)
