"""A session's working memory, captured from its transcript and put back after compaction.

Standard library only (plus the kit's `state` package): the hooks import it. Modules:
- `settings` — whether capture is on and which parts are left out (the kit's config file and
  the environment).
- `record` — the memory's shape (a JSON document in the session's scratch dir), loading and
  saving it under a lock, and which file holds a subagent's own memory.
- `capture` — reading the transcript from where the last capture stopped (and, for
  `memory --dropped`, the memory just before each compaction), then what only the disk can
  say: working documents as they are now, background agents whose logs say they finished.
- `fold` — what each line changes in the memory, redacted.
- `requests` — the first and latest requests, and every standing instruction of every request.
- `failures` — failures still open, and what fixes one (a later success of the same family).
- `documents` — the plan a session keeps in a file of its own (plan/todo/notes, checklists).
- `agents` — the subagents in the memory, by the agent model's rules (`transcript.agent_signals`).
- `parts` — what each part of the restored block says, every value on one line or indented.
- `restore` — the one block the SessionStart hook puts back, fitted to the client's context
  limit, the transcript's facts between nonce markers; and the full memory as text.
- `dropped` — the facts of a memory a compaction summary does not mention.
Does not: parse command lines or know the CLI; read the transcript anywhere but `capture`.
"""
