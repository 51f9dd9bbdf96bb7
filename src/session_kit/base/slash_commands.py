"""Slash commands by whose they are: the client's own local commands (echoed into the
transcript but never sent as a request) and the kit's own commands (the kit talking to
itself, never the person's work).

Owns: both lists and `is_kit_command`. Does not own: what a request is
(`entries.request_text`) or which entries a kit command wrote (`kit_echoes`).
"""

from __future__ import annotations

# Slash commands the client runs itself: echoed as `<command-name>` but never sent as a request.
LOCAL_COMMANDS = frozenset(
    {
        "/clear", "/compact", "/resume", "/exit", "/quit", "/cost", "/status", "/model", "/config",
        "/help", "/login", "/logout", "/doctor", "/memory", "/permissions", "/context", "/usage",
        "/rename", "/vim", "/theme", "/ide", "/mcp", "/hooks", "/agents", "/add-dir", "/export",
    }
)  # fmt: skip


# The kit's own slash commands (the stems of `commands/*.md`; a test keeps the two in step),
# named `/name` when installed into settings and `/session-kit:name` as a plugin.
KIT_COMMANDS = frozenset(
    {
        "debug-agent", "plan", "preprocess-session", "session-info", "session-memory", "sessions-search", "view",
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
