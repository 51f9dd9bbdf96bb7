"""The archive: every session's files, compressed in the kit's state, before the client deletes them.

Standard library only (plus the kit's `state` package): the hooks start it. Modules:
- `layout` — one archive per Claude root, side by side; member files and manifests.
- `store` — one file's incremental, lossless copy (appended gzip members and a manifest
  beside each; a rewrite starts a new generation and keeps the earlier ones), and which
  files make up a session.
- `members` — a member file's original bytes (what every reader of a copy reads).
- `generations` — reading copies back: a generation's bytes, a rewritten file's earlier
  part (the entries the client dropped).
- `verify` — every archived byte read back against the manifests' checksums (`--verify`).
Imports point one way: `view`, `catalogue`, `verify` -> `store` -> `generations` ->
`members` -> `layout`.
- `background` — the same work in a child process the hook does not wait for.
- `view` — a session the client deleted, put where the readers find it (the kit's private
  copy) or back where the client finds it (`restore`).
- `settings` — the `archive` section of the kit's config (on or off, retention).
Does not: parse transcripts (it copies bytes), index them (`index/`), or know the CLI.
"""
