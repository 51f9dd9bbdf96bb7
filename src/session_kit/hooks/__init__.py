"""Claude Code hook entry points: `run.py` is started directly (`python -I -S run.py EVENT`).

- `events`    the one table: client event -> the hook's argument.
- `handlers`  what each hook does (standard library and `state` only).
- `run`       the script the client runs; imports `handlers` and nothing else.

Nothing is imported here: the hooks' start-up time is their budget.
"""
