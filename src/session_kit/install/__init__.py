"""Putting the kit into Claude Code and taking it out again.

- `settings`   the kit's hook entries in parsed settings: pure install/uninstall on dicts.
- `settings_file`  a settings file's bytes: read once settled, numbers kept as written,
               replaced only if unchanged since read (through a symlink to its target).
- `installer`  the file side: lock, back up, read-modify-write (redone when an editor saved
               meanwhile); receipts; slash-command files; the launcher.

The events hooked come from `base.hook_events`; which file a scope means from `claude.settings`.
"""
