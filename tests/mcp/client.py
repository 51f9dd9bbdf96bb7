"""Driving `session-kit mcp` over stdio with the MCP SDK's own client, as Claude Code would."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any, NamedTuple

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError

EXE = Path(sys.executable).with_name("session-kit")
# What the server needs of the test's isolated environment (the SDK passes only a few names on).
PASSED = ("HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "SESSION_KIT_HOME")


class Answer(NamedTuple):
    texts: list[str]
    error: bool

    @property
    def document(self) -> dict[str, Any]:
        assert not self.error, self.texts
        return json.loads(self.texts[0])


class Failure(NamedTuple):
    code: int
    message: str


def session_env(root: Path, **extra: str) -> dict[str, str]:
    return {**{k: os.environ[k] for k in PASSED if k in os.environ}, "CLAUDE_CONFIG_DIR": str(root), **extra}


def ask(
    root: Path,
    calls: list[tuple[str, dict[str, Any]]],
    *,
    args: tuple[str, ...] = (),
    env: dict[str, str] | None = None,
) -> tuple[list[Any], list[Answer | Failure]]:
    """Start the server, list its tools, make each call in order; the tools and the answers."""

    async def run() -> tuple[list[Any], list[Answer | Failure]]:
        server = StdioServerParameters(command=str(EXE), args=["mcp", *args], env=env or session_env(root))
        async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            tools = (await session.list_tools()).tools
            answers: list[Answer | Failure] = []
            for name, arguments in calls:
                try:
                    result = await session.call_tool(name, arguments)
                except MCPError as exc:
                    answers.append(Failure(exc.code, exc.message))
                    continue
                answers.append(Answer([c.text for c in result.content], bool(result.is_error)))
            return tools, answers

    return anyio.run(run)
