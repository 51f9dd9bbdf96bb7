"""claude-session-kit: make Claude Code sessions inspectable and their state durable.

The package is layered: pure modules (`paths`, `jsonl`, `entries`, `events`) at the core,
`discovery`/`report`/`search` over them, and `cli` (the only module that imports click)
at the edge.
"""

__version__ = "0.1.0"
