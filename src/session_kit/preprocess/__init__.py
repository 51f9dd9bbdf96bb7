"""Session preprocessing: a session and its agents as compact, well-formed XML for an LLM.

One pipeline (`preprocess_session`) serves the library, `session-kit preprocess` and the
`/preprocess-session` slash command. The work flows steps -> units -> renderer -> sink:

- `pipeline` — the order of the work: one loop over the session and then its agents, each
  converted into a section of the sink, kept or dropped by its verdict; distill; the result.
- `result` — the options, and the result values with their `--json` shape.
- `agents` — this session's agent logs in start order, each linked to its spawning call
  (`sessions.agents.AgentLinker`, fed each converted log's own calls).
- `convert` — one transcript file, line by line, into units; texts redacted in batches.
- `elements` — entries as the documented elements, with the content steps applied.
- `steps` — what each step keeps and drops, as pure functions, and the reduction tally.
- `noise` — the lines left once noise is dropped by raw type (in a forked reader on big files).
- (`conversation.items` — the format-neutral items the units are made of, shared with `view`.)
- `render/` — a renderer per output format behind one interface: `xml` (with `xmlwriter`).
- `sinks` — where rendered units go: files in parts under a budget, or one stream.
- `distill` — the optional second stage through `claude -p`.

Adding an output format is one module in `render/`; adding a destination is one `Sink`.
The element set and the reduction report are documented in docs/preprocess.md.
"""

from __future__ import annotations

from session_kit.preprocess.pipeline import preprocess_session
from session_kit.preprocess.result import (
    AgentInfo,
    DocumentInfo,
    PreprocessOptions,
    PreprocessResult,
)
from session_kit.preprocess.steps import STATUS_EMPTY, STATUS_OK, STATUS_WARMUP, Reduction

__all__ = [
    "AgentInfo",
    "DocumentInfo",
    "PreprocessOptions",
    "PreprocessResult",
    "Reduction",
    "STATUS_EMPTY",
    "STATUS_OK",
    "STATUS_WARMUP",
    "preprocess_session",
]
