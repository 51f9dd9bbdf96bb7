"""One transcript file's bytes to typed entries and tool calls. Knows no disk layout.

- `reader`       streaming JSON Lines: spans, records, head and tail; the one BOM and
                 bad-line policy.
- `glance`       a file's head and tail read cheaply (for listings of many sessions).
- `blockscan`    blocks of whole lines and the lines holding a needle (for search).
- `rawtype`      an entry's top-level type from raw bytes, so noise is never parsed.
- `entries`      `Entry` and the entry kinds of every dialect; content blocks; timestamps;
                 what a person's request is (`request_text`).
- `tools`        the per-tool registry: input summaries, which tools spawn agents or write files.
- `calls`        tool uses paired with their results; call statuses.
- `agent_signals` what lines say about agents: a spawning call's result (its figures; a call
                 refused by input validation), background endings (task notifications,
                 `task_status`, `TaskOutput` polls); the agent status words and figure sources.
- `compactions`  compaction boundaries and summaries. `tokens`: usage once per API message.
- `titles`       a session's title (`summary`, `custom-title`, `ai-title` lines).
- `searchable`   what of an entry can be searched, and where it stands (scan and index).

Imports nothing from `sessions`, `queries`, `preprocess`, `install`, `hooks` or `cli`.
"""
