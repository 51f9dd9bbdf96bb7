"""`session-kit mcp`: the kit's questions as tools of a stdio MCP server, for the model.

Owns: its options and help. The server is `mcp_server`'s (through `api.serve_mcp`); the
tools, their arguments and answers are described in docs/reference/mcp.md.
"""

from __future__ import annotations

import click

from session_kit import api
from session_kit.cli.context import Kit, claude_dir_option, no_redact_option, pass_kit
from session_kit.cli.helptext import epilog
from session_kit.errors import KitError

TOOL_NAMES = "search_history, show_session, debug_agents, session_memory, plan, live_agents, usage"


@click.command(
    epilog=epilog(
        "session-kit mcp               # started by Claude Code (install and the plugin register it)",
        "session-kit mcp --no-redact   # its answers with secrets as written",
    )
)
@no_redact_option
@claude_dir_option
@pass_kit
def mcp(kit: Kit) -> None:
    """Serve the kit's read-only questions as MCP tools on stdin and stdout, for the model.

    Tools: {tools}. Each answers with the JSON document of its command's `--json`
    (search, show, debug-agent, memory, plan, agents, usage), secrets redacted unless the
    server was started with --no-redact, in pages of about 20,000 characters with a cursor
    for the next. A session the model names is an id prefix or a transcript path; none is
    the current session (CLAUDE_CODE_SESSION_ID, which the client sets for stdio servers).
    Nothing is written but the kit's index, the cache `search` and `usage` keep.

    The plugin declares it; `session-kit install` registers it for the user (in the client's
    ~/.claude.json). In the client its tools are mcp__session-kit__<tool> (installed) or
    mcp__plugin_session-kit_session-kit__<tool> (plugin); `claude -p` needs them allowed
    (--allowedTools with that prefix). Needs the `mcp` extra
    (./install.sh and the plugin include it; `doctor` names the command that adds it).
    See docs/how-to/model-reads-history.md and docs/reference/mcp.md.
    """
    from importlib.util import find_spec  # found, not loaded: the server loads it

    if find_spec("mcp") is None:
        raise KitError(f"the MCP server needs the `mcp` package (the kit's `mcp` extra): {api.install_hint('mcp')}")
    api.serve_mcp(kit.claude_dir)


mcp.help = (mcp.help or "").replace("{tools}", TOOL_NAMES)
