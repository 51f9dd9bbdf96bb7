"""A session's working memory, captured from its transcript and put back after compaction.

Standard library only (plus the kit's `state` package): the hooks import it. Modules:
- `settings` — whether capture is on and which parts are left out (the kit's config file and
  the environment).
- `record` — the memory's shape (a JSON document in the session's scratch dir), loading and
  saving it under a lock, and which file holds a subagent's own memory.
- `capture` — reading the transcript from where the last capture stopped, and keeping the
  person's requests, the plan, the task list, changed files, unfixed failures, subagents and
  the last announced next step, redacted.
- `agents` — the subagents in the memory, by the agent model's rules (`transcript.agent_signals`).
- `restore` — the one block the SessionStart hook puts back, ordered by value within the
  client's context limit, and the full memory as text.
Does not: parse command lines or know the CLI; read the transcript anywhere but `capture`.
"""
