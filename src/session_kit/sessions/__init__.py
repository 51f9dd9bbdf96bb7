"""A session on disk, under the Claude root.

- `store`     projects, sessions and agent logs in every layout (warmups told apart, orphans
              found); cheap facts; `AgentLogs`.
- `resolve`   what a user typed (id, prefix, path, `current`) to one session.
- `overview`  a session's start, end, title, first request and agents from its head and tail.
- `agent_run` `AgentRun`, the one agent model: each figure (status, calls, answer, duration,
              tokens) picked from every signal, with its source.
- `agents`    agent runs read from their logs, their inline 1.0.x threads or (logs gone) their
              calls, and `AgentLinker`, the one way to tie a log to the call that spawned it;
              what the transcripts say of each (its result, its ending) laid onto it.
- `session`   `Session`: a session's entries read once (observers run together), its calls
              and its agents.

Builds on `transcript`, `claude` and `state`; knows nothing of commands or output formats.
"""
