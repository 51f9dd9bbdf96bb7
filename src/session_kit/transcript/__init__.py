"""One transcript file's bytes to typed entries and tool calls. Knows no disk layout.

- `follow`       the one line follower: a checkpoint that knows the file it was taken of,
                 the whole lines a file gained since, and the one BOM rule (standard
                 library only: the hooks and the status line read through it).
- `reader`       streaming JSON Lines: spans, records, head and tail; the one bad-line policy.
- `glance`       a file's head and tail read cheaply (for listings of many sessions).
- `blockscan`    blocks of whole lines and the lines holding a needle (for search).
- `vocabulary`   every entry type a client wrote (1.0.x to 2.1.330) and its class, attachment
                 kinds; the noise sets every reader skips. The one list of type names.
- `rawtype`      an entry's top-level type from raw bytes, so noise is never parsed.
- `entries`      `Entry` and the entry kinds of every dialect; content blocks; timestamps;
                 what a person's request is (`request_text`).
- `tools`        the per-tool registry: input summaries, which tools spawn agents or write files.
- `calls`        tool uses paired with their results (the one rule: `WaitingCalls`); call
                 statuses.
- `agent_signals` what lines say about agents: a spawning call's result (its figures; a call
                 refused by input validation), background endings (task notifications,
                 `task_status`, `TaskOutput` polls); the agent status words and figure sources.
- `compactions`  compaction boundaries and summaries. `tokens`: usage once per API message.
- `titles`       a session's title (`summary`, `custom-title`, `ai-title` lines): the one rule.
- `span`         a session's start and end (its conversation's earliest and latest time): the
                 one rule.
- `searchable`   what of an entry can be searched, and where it stands (scan and index).

Imports nothing from `sessions`, `queries`, `preprocess`, `install`, `hooks` or `cli`.
"""
