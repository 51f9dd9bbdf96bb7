"""Session preprocessing: a session and its agents as compact, well-formed XML for an LLM.

One pipeline (`preprocess_session`) serves the library, `session-kit preprocess` and the
`/preprocess-session` slash command. The modules, from the outside in:

- `pipeline` — options, the order of the work, agents, output files or stream, the result.
- `convert` — one transcript file through the steps into XML units, one per entry.
- `steps` — what each step keeps and drops, as pure functions, and the reduction tally.
- `rawtype` — an entry's top-level type from its raw bytes, so noise is never parsed.
- `noise` — the lines left once noise is dropped by raw type (in a forked reader on big files).
- `redact` — secrets replaced by `[REDACTED:<kind>]`.
- `xmlwriter` — escaping and element strings (always well-formed).
- `chunking` — units into documents under a character budget, and their files.
- `distill` — the optional second stage through `claude -p`.

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
