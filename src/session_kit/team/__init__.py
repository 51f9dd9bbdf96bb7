"""A team's history in PostgreSQL: every machine's and every CI run's sessions in one place.

Modules:
- `connection` — which database (`--to`, `SESSION_KIT_TEAM_URL`, the config file's `team`
  section), connecting with psycopg 3 (the optional `team` extra, imported here only, inside
  functions), and what a failure says: one line, no password, the kit's exit code.
- `schema` — the tables and their versioned migrations; a database a newer kit made is
  refused before anything is written.
- `push` — the local index's rows into the team database, file by file by the follower's
  checkpoints: incremental, idempotent, one transaction per batch, a session's provenance
  (origin, machine, user) kept as its first push wrote it.
- `sync` — what `session-kit sync` does: this machine's index brought up to date and pushed,
  or a folder of CI transcripts indexed on the side and pushed with its origin.
- `reads` — the team's sessions, one session's card and its agents; `search` — full-text
  search (a `tsvector` with a GIN index); `usage` — the team's tokens and cost.
Does not: read transcripts (the index does), redact anew what the index holds (its text is
redacted by `session_kit.redaction.engine` before it is stored), or print.
"""
