"""The index: an embedded SQLite database of every session, kept current per file.

Modules:
- `db` — where the database is, its schema (sessions, texts with FTS5 full-text search or
  a plain table where the Python build lacks FTS5, tool calls, agents, each API message's
  usage, agents' usage from their results, files) and opening it.
- `journal` — where it is (one per Claude root), and the journal beside it of the
  transcripts the hooks saw written to (cheap: the hooks load it).
- `fresh` — which files an update looks at: every one, or, where the hooks keep the journal,
  only those that may have changed.
- `update` — bringing it up to date from each file's byte offset already indexed (files are
  append-only; one that shrank or changed identity is indexed again), text redacted first;
  with a budget, saying instead which files are behind (a search scans those meanwhile).
- `background` — the hooks' part (journal the transcript, index the session in a child) and
  the whole index brought up to date in a child a search does not wait for.
- `usage` — its per-message token rows as the `usage` report reads them (each message once
  across files; `sessions --tokens` reads the same).
- `query` — searching it: filters, ranking, context, the command that resumes each hit.
- `export` — its tables as JSON Lines (and Parquet with the optional extra).
Does not: print, or read a file any other way than through `transcript/` and `sessions/`.
"""
