"""Claude Code hook entry points: `run.py` is started directly (`python -I -S run.py EVENT`).

- `run`       the script the client runs: sets the path and calls `start`.
- `start`     which module runs each event, so each hook loads only what it needs.
- `handlers`  SessionStart, UserPromptSubmit, the compactions, Stop, SessionEnd.
- `live`      SubagentStart, SubagentStop and PreToolUse (the budgets).
- `budget`    the budget per session, before each prompt and tool call.
- `guard`     PostToolUse, the secret guard (with `redaction.screen`).
- `hookio`    reading the event, writing the answer, reporting a fault.

The table of events (client event -> the hook's argument) is `base.hook_events`: the
installer reads it too. Nothing is imported here: the hooks' start-up time is their budget.
"""
