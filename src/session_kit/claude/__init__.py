"""Claude Code's side of the disk, read-only.

- `encoding`  the project-folder name the client gives a path (standard library only: the
              hooks use it).
- `paths`     the Claude root and the fixed places inside it (sessions, subagents, plans).
- `settings`  which settings file and command folder each scope means; `plansDirectory`.

Nothing here lists sessions (that is `sessions`) or writes (that is `install`).
"""
