"""Slash commands by whose they are: the client's own local commands (echoed into the
transcript but never sent as a request) and the kit's own commands (the kit talking to
itself, never the person's work).

Owns: both lists, `is_local_command` and `is_kit_command`. Does not own: what a request is
(`entries.request_text`) or which entries a kit command wrote (`kit_echoes`).
"""

from __future__ import annotations

# Slash commands the client runs itself, sending nothing to the model: echoed as
# `<command-name>` (answered by `<local-command-stdout>` or nothing) but never a request.
LOCAL_COMMANDS = frozenset(
    {
        "/add-dir", "/agents", "/bashes", "/clear", "/compact", "/config", "/context", "/cost", "/doctor",
        "/exit", "/export", "/extra-usage", "/fast", "/feedback", "/help", "/hooks", "/ide", "/keybindings",
        "/login", "/logout", "/mcp", "/memory", "/model", "/output-style", "/permissions", "/plugin",
        "/plugins", "/privacy-settings", "/quit", "/release-notes", "/rename", "/resume", "/rewind", "/sandbox",
        "/settings", "/stats", "/status", "/statusline", "/tasks", "/terminal-setup", "/theme", "/todos",
        "/upgrade", "/usage", "/vim",
    }
)  # fmt: skip


def command_name(request: str) -> str:
    """The `/name` a request (as `request_text` names it) runs; "" when it runs none."""
    return request.split(None, 1)[0] if request.startswith("/") else ""


def is_local_command(request: str) -> bool:
    """True when `request` runs one of the client's own commands (`/clear`, `/model`,
    `/plugin`…), which send nothing to the model: never the person's request."""
    return command_name(request) in LOCAL_COMMANDS


# The kit's own slash commands (the stems of `commands/*.md`; a test keeps the two in step),
# named `/name` when installed into settings and `/session-kit:name` as a plugin.
KIT_COMMANDS = frozenset(
    {
        "budget", "debug-agent", "plan", "preprocess-session", "session-info", "session-memory", "sessions-search", "view",
        "watch-agents",
    }
)  # fmt: skip
KIT_PLUGIN = "session-kit"


def is_kit_command(request: str) -> bool:
    """True when `request` (as `request_text` names it) runs one of the kit's own slash
    commands: the kit talking to itself, not the person asking for work. The one rule for
    every reader that ranks or keeps requests (memory, search, listings)."""
    if not request.startswith("/"):
        return False
    name = request[1:].split(None, 1)[0] if len(request) > 1 else ""
    plugin, colon, stem = name.partition(":")
    if colon:
        return plugin == KIT_PLUGIN and stem in KIT_COMMANDS
    return name in KIT_COMMANDS
