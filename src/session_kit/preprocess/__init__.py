"""Session preprocessing: a session and its agents as compact, well-formed XML for an LLM.

One pipeline (`preprocess_session`) serves the library, `session-kit preprocess` and the
`/preprocess-session` slash command. A session is read as the one conversation model
(`conversation`: noise dropped, entries to items, the content steps, redaction — the same
reading `view` makes); this package turns those items into documents, renderer -> sink:

- `pipeline` — the order of the work: one loop over the session and then its agents, each
  converted into a section of the sink, kept or dropped by its verdict; distill; the result.
- `result` — the options, and the result values with their `--json` shape.
- `render/` — a renderer per output format behind one interface: `xml` (with `xmlwriter`).
- `sinks` — where rendered units go: files in parts under a budget, or one stream.
- `distill` — the optional second stage through `claude -p`.

Adding an output format is one module in `render/`; adding a destination is one `Sink`.
The element set and the reduction report are documented in docs/preprocess.md.
"""

from __future__ import annotations

from session_kit.preprocess.pipeline import preprocess_session
from session_kit.preprocess.result import (
    STATUS_EMPTY,
    STATUS_OK,
    STATUS_WARMUP,
    AgentInfo,
    DocumentInfo,
    PreprocessOptions,
    PreprocessResult,
    Reduction,
)

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
