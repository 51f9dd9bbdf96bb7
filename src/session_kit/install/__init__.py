"""Putting the kit into Claude Code and taking it out again.

- `settings`   the kit's hook entries in parsed settings: pure install/uninstall on dicts.
- `installer`  the file side: load, lock, back up, replace atomically; receipts; slash-command
               files; the launcher.

The events hooked come from `hooks.events`; which file a scope means from `claude.settings`.
"""
