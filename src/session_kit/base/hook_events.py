"""The one table of the client's hook events the kit handles. Standard library only, on the
ground floor: the hooks (`hooks.start`, `hooks.guard`) and the installer (`install`) both read it.

Owns: which Claude Code event runs which of the kit's hooks, by the argument `run.py` takes.
The module `hooks.start.MODULES` names for an argument (else `handlers`) implements it in
its table of hooks, the installer writes `settings.json` entries from this table, and the
plugin's `hooks/hooks.json` is checked against it by a test; a new event is one line here and
one handler there. `OPT_IN_EVENTS` are the hooks a person turns on
(`session-kit install --guard-secrets`, the plugin's `guard_secrets` option): the installer
writes them only when asked, the plugin always declares them and its hook does nothing while
the option is off; `ALL_HOOK_EVENTS` is both tables. `UNREGISTERED_EVENTS`: the client's
events the kit knows of and registers no hook for, each with why (never written by the
installer nor declared by the plugin: a test keeps them apart).
Does not: handle an event (`hooks/`) or write settings (`install/`).
"""

from __future__ import annotations

# Client event name -> the hook's argument (`run.py <argument>`).
HOOK_EVENTS: dict[str, str] = {
    "SessionStart": "session-start",
    "UserPromptSubmit": "user-prompt-submit",
    "PreCompact": "pre-compact",
    "PostCompact": "post-compact",
    "SessionEnd": "session-end",
    "SubagentStart": "subagent-start",
    "SubagentStop": "subagent-stop",
    "PreToolUse": "pre-tool-use",  # the budget per subagent (`hooks.live`): nothing unless one is set
    "Stop": "stop",  # the end of each of the model's turns: the index kept fresh
}

# Turned on by the person: client event name -> the hook's argument.
OPT_IN_EVENTS: dict[str, str] = {
    "PostToolUse": "post-tool-use",  # the secret guard (`hooks.guard`)
}
ALL_HOOK_EVENTS: dict[str, str] = {**HOOK_EVENTS, **OPT_IN_EVENTS}
# The plugin's option (`.claude-plugin/plugin.json` userConfig) that turns the guard on; the
# client hands it to hooks as this variable ("true" / "false").
GUARD_OPTION_ENV = "CLAUDE_PLUGIN_OPTION_GUARD_SECRETS"

# The client's events the kit knows of and leaves alone: client event name -> why.
UNREGISTERED_EVENTS: dict[str, str] = {
    "PostToolUseFailure": "a failed call is read from the transcript, where its result is written",
    "StopFailure": "a turn that ended in an API error is read from the transcript",
    "TaskCompleted": "a background task's end is read from the transcript and the live record",
    "Notification": "what the client tells the person is not the kit's",
    "PermissionRequest": "the kit decides no permission",
    # 2.1.332: before a skill's embedded shell line runs (those lines are no tool calls: the
    # PreToolUse budget does not see them)
    "PreSkillShellCommand": "the kit neither screens nor counts a skill's shell lines",
}
