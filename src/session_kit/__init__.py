"""claude-session-kit: make Claude Code sessions inspectable and their state durable.

The package, from the outside in (arrows point inward; a test guards each rule):

- `cli/`        the `session-kit` command line: parses, calls the core, prints. Only it imports
                click, and nothing imports it.
- `api`         the public Python face the CLI and the slash commands are clients of.
- `queries/`    what commands ask (report, timeline, agent tree, plans, the session card,
                search, doctor), each a frozen result with `as_dict`.
- `preprocess/` a session and its agents as compact documents for an LLM.
- `install/`    putting the kit's hooks and slash commands into Claude Code, and taking them out.
- `sessions/`   a session on disk: the store, resolving what the user typed, overviews, the
                listing of many (latest active first, streamed), the one agent linker, and
                `Session`, the one way to read a session's entries, calls and agents.
- `transcript/` one file's bytes to typed entries and calls; knows no disk layout.
- `claude/`     Claude Code's side, read-only: the root, project-dir encoding, settings files.
- `hooks/`      the hook entry points and the one table of events they handle.
- `state/`      the kit's own files (scratch dirs, pointers, the one id rule, the one "current
                session" rule); standard library only: the hooks' whole world.
- `forked`      jobs shared between this process and forks of it, results back in order (the
                parallel search and listing); standard library only.
- `errors`, `redact`, `redaction.rules.formats`  the kit's errors and exit codes; secrets in transcript
                text: the one redactor and the policy every view shows text through, and the
                shapes it knows.

Importing this package imports nothing else (the hooks start from it).
"""

__version__ = "0.1.0"
