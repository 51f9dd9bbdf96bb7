"""A session on disk, under the Claude root.

- `store`     projects, sessions and agent logs in every layout; cheap facts; `AgentLogs`.
- `resolve`   what a user typed (id, prefix, path, `current`) to one session.
- `overview`  a session's start, end, first request and agents from its head and tail.
- `agents`    agent runs read from their logs, and `AgentLinker`, the one way to tie a log to
              the call that spawned it.
- `session`   `Session`: a session's entries read once (observers run together), its calls
              and its agents.

Builds on `transcript`, `claude` and `state`; knows nothing of commands or output formats.
"""
