"""The kit's own files. Standard library only: this and `hooks` are the hooks' whole world.

- `root`      where the state lives, its layout, locks, the hook log.
- `fileio`    the kit's file I/O: the one non-blocking open, atomic replace (private, synced
              unless told), the JSON of its state files and config.
- `ids`       the one rule for a plain id (what may name a folder or go into a shell line).
- `current`   the one rule for "the current session": environment, then the project pointer.
- `scratch`   a session's scratch dir and its work state (values and notes).
- `budgets`   where the budgets are set (per subagent, per session) and their folder.
- `fastjson`  JSON without importing `json` (and `re`), for the hooks' start-up budget.

Imports only the standard library, each other and `base`.
"""
