"""The one table of the client's hook events the kit handles. Standard library only.

Owns: which Claude Code event runs which of the kit's hooks, by the argument `run.py` takes.
`handlers.HANDLERS` implements each argument, the installer writes `settings.json` entries
from this table, and the plugin's `hooks/hooks.json` is checked against it by a test; a new
event is one line here and one handler there.
"""

from __future__ import annotations

# Client event name -> the hook's argument (`run.py <argument>`).
HOOK_EVENTS: dict[str, str] = {
    "SessionStart": "session-start",
    "UserPromptSubmit": "user-prompt-submit",
    "PreCompact": "pre-compact",
    "PostCompact": "post-compact",
}
