"""The values of preprocessing: its options, and what it wrote and learnt.

Owns: `PreprocessOptions` (and which options go together), `DocumentInfo` (one written
document), `AgentInfo` (one agent log and what became of it) and `PreprocessResult` with its
`--json` shape (docs/reference/json.md). Does not do the work (that is `pipeline`).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

from session_kit.conversation import steps

# A result's statuses and its reduction report are the reading's, named here for callers.
from session_kit.conversation.steps import STATUS_EMPTY as STATUS_EMPTY
from session_kit.conversation.steps import STATUS_OK as STATUS_OK
from session_kit.conversation.steps import STATUS_WARMUP as STATUS_WARMUP
from session_kit.conversation.steps import Reduction as Reduction
from session_kit.errors import InvalidOptions
from session_kit.preprocess.render.base import DEFAULT_FORMAT, FORMATS
from session_kit.sessions.store import SessionRef
from session_kit.state.ids import is_plain_id
from session_kit.transcript.reader import ReadStats

CHARS_PER_TOKEN = 4
DEFAULT_MODEL = "haiku"  # of `--distill`


class Distilled(NamedTuple):
    """A document distilled by `claude -p` (`preprocess.distill`): where from, where to, how big."""

    source: Path
    path: Path
    chars: int
    well_formed: bool

    def as_dict(self) -> dict[str, object]:
        return {
            "source": str(self.source),
            "path": str(self.path),
            "chars": self.chars,
            "well_formed": self.well_formed,
        }


DEFAULT_PREFIX = "session"
STATUS_UNREADABLE = "unreadable"  # an agent log that vanished or cannot be read
MIN_TOKENS = 100
MAX_PREFIX_LENGTH = 100


class PreprocessOptions(NamedTuple):
    agents: bool = True
    filtering: bool = True  # log discovery, dedup, truncation, pruning, empty/warmup check
    thinking: bool = False
    redact: bool = True
    max_tokens: int | None = None  # None: one document per stream, however long
    output_dir: Path | None = None  # None: the session's scratch dir
    prefix: str = DEFAULT_PREFIX
    to_stdout: bool = False  # one document, agents nested, on the given stream
    distill: bool = False
    distill_model: str = DEFAULT_MODEL
    format: str = DEFAULT_FORMAT  # a renderer's name (`render.base.FORMATS`)

    def check(self) -> None:
        """InvalidOptions for options that are wrong or cannot go together."""
        if self.to_stdout:
            clash = [
                name
                for name, on in (
                    ("output_dir", self.output_dir is not None),
                    ("max_tokens", self.max_tokens is not None),
                    ("distill", self.distill),
                    ("prefix", self.prefix != DEFAULT_PREFIX),
                )
                if on
            ]
            if clash:
                raise InvalidOptions(
                    "{} writes one document to a stream; it does not go with " + ", ".join("{}" for _ in clash),
                    ["to_stdout", *clash],
                )
        if self.format not in FORMATS:
            raise InvalidOptions(
                "{} must be one of " + ", ".join(sorted(FORMATS)), ["format"], detail=f": {self.format!r}"
            )
        if self.max_tokens is not None and self.max_tokens < MIN_TOKENS:
            raise InvalidOptions("{} must be at least " + str(MIN_TOKENS), ["max_tokens"])
        if not is_plain_id(self.prefix, max_length=MAX_PREFIX_LENGTH):
            raise InvalidOptions(
                "{} must be a plain file name part (letters, digits, . _ -)", ["prefix"], detail=f": {self.prefix!r}"
            )


class DocumentInfo(NamedTuple):
    """One written document (a part of the session or of an agent)."""

    path: Path | None  # None: written to the stream
    source: str  # "session" or "agent"
    agent_id: str | None
    part: int
    chars: int
    entries: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "path": str(self.path) if self.path else None,
            "source": self.source,
            "agent_id": self.agent_id,
            "part": self.part,
            "chars": self.chars,
            "tokens": -(-self.chars // CHARS_PER_TOKEN),
            "entries": self.entries,
        }


class AgentInfo(NamedTuple):
    agent_id: str
    agent_type: str | None
    description: str | None
    tool_use_id: str | None
    layout: str
    path: Path
    status: str  # ok, empty, warmup or unreadable (only ok agents are written)
    reason: str | None

    def as_dict(self) -> dict[str, Any]:
        return {
            "agent_id": self.agent_id,
            "type": self.agent_type,
            "description": self.description,
            "tool_use_id": self.tool_use_id,
            "layout": self.layout,
            "path": str(self.path),
            "status": self.status,
            "reason": self.reason,
        }


class PreprocessResult(NamedTuple):
    session: SessionRef
    status: str  # ok, empty or warmup (then nothing was written)
    reason: str | None
    output_dir: Path | None
    documents: tuple[DocumentInfo, ...]
    agents: tuple[AgentInfo, ...]
    distilled: tuple[Distilled, ...]
    reduction: steps.Reduction
    redactions: Mapping[str, int]
    read: ReadStats
    options: PreprocessOptions = PreprocessOptions()

    @property
    def ok(self) -> bool:
        return self.status == steps.STATUS_OK

    @property
    def paths(self) -> list[Path]:
        """Every file written: the documents in order, then the distilled ones."""
        return [d.path for d in self.documents if d.path] + [d.path for d in self.distilled]

    def as_dict(self) -> dict[str, Any]:
        return {
            "session_id": self.session.id,
            "path": str(self.session.path),
            "status": self.status,
            "reason": self.reason,
            "output_dir": str(self.output_dir) if self.output_dir else None,
            "files": [str(p) for p in self.paths],
            "documents": [d.as_dict() for d in self.documents],
            "agents": [a.as_dict() for a in self.agents],
            "distilled": [d.as_dict() for d in self.distilled],
            "options": {
                "agents": self.options.agents,
                "filtering": self.options.filtering,
                "thinking": self.options.thinking,
                "redact": self.options.redact,
                "max_tokens": self.options.max_tokens,
                "prefix": self.options.prefix,
                "stdout": self.options.to_stdout,
                "distill": self.options.distill,
            },
            "reduction": self.reduction.as_dict(),
            "redactions": dict(sorted(self.redactions.items())),
            "read": self.read.as_dict(),
        }
