"""The one preprocessing pipeline: a session and its agents in, XML documents out.

Owns: `preprocess_session`, which the library, the CLI command and the slash command all
call: checking the options, converting the main transcript, stopping at an empty or warmup
session, finding this session's agent logs (both layouts) and linking each to its spawning
call for its type and description, writing every stream as parts (or one document on a
stream for `--stdout`), the optional distill stage, and the result with its reduction
report. Does not parse options or print (that is `cli`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from session_kit.sessions.agents import AgentRun, link_agents
from session_kit.sessions.store import AgentLogRef, SessionRef, find_agent_logs
from session_kit.transcript.entries import Entry
from session_kit.errors import InvalidOptions, KitError, NoScratchDir, NotFound
from session_kit.state.ids import is_plain_id
from session_kit.transcript.calls import ToolCall
from session_kit.transcript.reader import ReadStats, read_head
from session_kit.preprocess import steps
from session_kit.preprocess.chunking import (
    CHARS_PER_TOKEN,
    PartInfo,
    PartWriter,
    UnitSpool,
    stream_base,
)
from session_kit.preprocess.convert import AgentCall, ConvertOptions, LogConverter
from session_kit.preprocess.distill import DEFAULT_MODEL, Distilled
from session_kit.redact import Redactor
from session_kit.preprocess.xmlwriter import XML_DECLARATION, attrs

DEFAULT_PREFIX = "session"
STATUS_UNREADABLE = "unreadable"  # an agent log that vanished or cannot be read
MIN_TOKENS = 100
MAX_PREFIX_LENGTH = 100
AGENT_HEAD_BYTES = 256 * 1024  # how far into an agent log its start time is looked for


@dataclass(frozen=True, slots=True)
class PreprocessOptions:
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
        if self.max_tokens is not None and self.max_tokens < MIN_TOKENS:
            raise InvalidOptions("{} must be at least " + str(MIN_TOKENS), ["max_tokens"])
        if not is_plain_id(self.prefix, max_length=MAX_PREFIX_LENGTH):
            raise InvalidOptions(
                "{} must be a plain file name part (letters, digits, . _ -)", ["prefix"], detail=f": {self.prefix!r}"
            )


@dataclass(frozen=True, slots=True)
class DocumentInfo:
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


@dataclass(frozen=True, slots=True)
class AgentInfo:
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


@dataclass(frozen=True, slots=True)
class PreprocessResult:
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
    options: PreprocessOptions = field(repr=False, default=PreprocessOptions())

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


# --- where things go -----------------------------------------------------------------------------


def claude_roots_of(ref: SessionRef) -> tuple[str, ...]:
    """The Claude root a session lives in, and its `projects` folder, as path strings."""
    projects = ref.project.parent
    if projects.name == "projects":
        return (str(projects.parent), str(projects))
    return ()


def default_output_dir(ref: SessionRef) -> Path:
    """The session's scratch dir under the kit's state root (made if missing)."""
    from session_kit.state.scratch import SessionScratch

    try:
        scratch = SessionScratch.for_session(ref.id, project_key=ref.project.name)
    except ValueError as exc:  # not a plain session id: it cannot name a folder
        raise NoScratchDir(ref.id, str(exc)) from None
    return Path(scratch.create().path)


def _prepare_dir(path: Path) -> Path:
    try:
        path.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError as exc:
        raise KitError(f"cannot create the output folder {path}: {exc.strerror}") from None
    if not os.access(path, os.W_OK):
        raise KitError(f"cannot write in the output folder {path}")
    return path


# --- agents --------------------------------------------------------------------------------------


def _first_timestamp(path: Path) -> datetime | None:
    try:
        head = read_head(path, AGENT_HEAD_BYTES)
    except OSError:
        return None
    for value in head:
        stamp = Entry.from_raw(0, value).timestamp
        if stamp is not None:
            return stamp
    return None


def link_agent_logs(logs: Sequence[AgentLogRef], calls: Mapping[str, AgentCall]) -> list[AgentRun]:
    """The logs as (call-less) agent runs linked to their spawning calls, in start order."""
    tool_calls = [
        ToolCall(
            id=c.tool_use_id,
            name=c.name,
            input=c.input,
            summary="",
            line=c.line,
            started=c.started,
            agent_id=c.agent_id,
        )
        for c in calls.values()
    ]
    runs = []
    for log in logs:
        depth = (log.meta or {}).get("spawnDepth")
        runs.append(
            AgentRun(
                log=log,
                agent_type=log.agent_type,
                description=log.description,
                tool_use_id=log.tool_use_id,
                prompt=None,
                start=_first_timestamp(log.path),
                end=None,
                model=None,
                calls=(),
                final_answer=None,
                spawn_depth=depth if isinstance(depth, int) else None,
                skipped_lines=0,
            )
        )
    return link_agents(runs, tool_calls)


# --- the pipeline --------------------------------------------------------------------------------


class _Run:
    """The state of one `preprocess_session` call."""

    def __init__(self, ref: SessionRef, options: PreprocessOptions) -> None:
        self.ref = ref
        self.options = options
        self.reduction = steps.Reduction()
        self.read = ReadStats()
        self.redactor = Redactor() if options.redact else None
        self.convert_options = ConvertOptions(
            session_id=ref.id,
            filtering=options.filtering,
            thinking=options.thinking,
            claude_roots=claude_roots_of(ref),
        )

    def converter(self, path: Path) -> LogConverter:
        return LogConverter(path, self.convert_options, reduction=self.reduction, read=self.read, redactor=self.redactor)

    def verdict(self, converter: LogConverter, *, agent: bool = False) -> tuple[str, str | None]:
        if not self.options.filtering:
            return steps.STATUS_OK, None
        return converter.facts.check.verdict(agent=agent)


def session_attributes(ref: SessionRef, converter: LogConverter) -> dict[str, Any]:
    return {"id": ref.id, "cwd": converter.facts.cwd, "branch": converter.facts.branch}


def agent_attributes(ref: SessionRef, run: AgentRun, redactor: Redactor | None = None) -> dict[str, Any]:
    description = run.description
    if description and redactor is not None:
        description = redactor(description)  # model-written text, like any other
    return {
        "id": run.agent_id,
        "session": ref.id,
        "type": run.agent_type,
        "description": description,
        "tool_use_id": run.tool_use_id,
        "layout": run.log.layout,
    }


def preprocess_session(
    ref: SessionRef,
    options: PreprocessOptions | None = None,
    *,
    stream: IO[str] | None = None,
) -> PreprocessResult:
    """Preprocess a session (and its agents) into XML documents; see docs/preprocess.md.

    Files go to `options.output_dir` (default: the session's scratch dir); with
    `options.to_stdout` one document goes to `stream` instead. An empty or warmup session
    writes nothing and comes back with that status (unless filtering is off).
    """
    options = options or PreprocessOptions()
    options.check()
    binary = None
    if options.distill:
        from session_kit.preprocess.distill import find_claude

        binary = find_claude()  # fail before the work, not after it
    run = _Run(ref, options)
    if options.to_stdout:
        if stream is None:
            raise ValueError("to_stdout needs a stream")
        return _to_stream(run, stream)
    return _to_files(run, binary)


def _to_files(run: _Run, binary: str | None) -> PreprocessResult:
    ref, options = run.ref, run.options
    out_dir = _prepare_dir(options.output_dir or default_output_dir(ref))
    max_chars = options.max_tokens * CHARS_PER_TOKEN if options.max_tokens else None
    main = run.converter(ref.path)
    writer = PartWriter(
        out_dir,
        stream_base(options.prefix, ref.id),
        root="session",
        attributes=lambda: session_attributes(ref, main),
        max_chars=max_chars,
    )
    try:
        for unit in main.units():
            writer.add(unit)
    except BaseException as exc:
        writer.discard()
        if isinstance(exc, OSError):
            raise _unreadable(ref, exc) from None
        raise
    status, reason = run.verdict(main)
    if status != steps.STATUS_OK:
        writer.discard()
        return _result(run, status, reason, out_dir, [], [])
    writers: list[tuple[PartWriter, str | None]] = [(writer, None)]
    agents: list[AgentInfo] = []
    if options.agents:
        for agent in link_agent_logs(find_agent_logs(ref), main.facts.agent_calls):
            converter = run.converter(agent.log.path)
            agent_writer = PartWriter(
                out_dir,
                stream_base(options.prefix, ref.id, agent.agent_id),
                root="agent",
                attributes=lambda agent=agent: agent_attributes(ref, agent, run.redactor),
                max_chars=max_chars,
            )
            try:
                for unit in converter.units():
                    agent_writer.add(unit)
            except OSError as exc:  # removed or unreadable since it was listed: skip it
                agent_writer.discard()
                agents.append(_agent_info(agent, STATUS_UNREADABLE, exc.strerror or str(exc)))
                continue
            except BaseException:
                agent_writer.discard()
                for w, _ in writers:
                    w.discard()
                raise
            agent_status, agent_reason = run.verdict(converter, agent=True)
            if agent_status == steps.STATUS_OK:
                writers.append((agent_writer, agent.agent_id))
            else:
                agent_writer.discard()
            agents.append(_agent_info(agent, agent_status, agent_reason))
    documents: list[DocumentInfo] = []
    for part_writer, agent_id in writers:
        for part in part_writer.commit():
            documents.append(_document(part, agent_id))
            run.reduction.output_chars += part.chars
    distilled: list[Distilled] = []
    if binary is not None:
        from session_kit.preprocess.distill import distill_document

        for doc in documents:
            assert doc.path is not None
            distilled.append(distill_document(doc.path, binary=binary, model=options.distill_model))
    return _result(run, steps.STATUS_OK, None, out_dir, documents, agents, distilled)


def _to_stream(run: _Run, sink: IO[str]) -> PreprocessResult:
    ref, options = run.ref, run.options
    main = run.converter(ref.path)
    spool = UnitSpool()
    try:
        try:
            for unit in main.units():
                spool.add(unit)
        except OSError as exc:
            raise _unreadable(ref, exc) from None
        status, reason = run.verdict(main)
        if status != steps.STATUS_OK:
            return _result(run, status, reason, None, [], [])
        head = f"{XML_DECLARATION}<session{attrs(session_attributes(ref, main))}>\n"
        sink.write(head)
        spool.copy_to(sink)
        chars = len(head) + spool.chars
        entries = spool.entries
    finally:
        spool.close()
    agents: list[AgentInfo] = []
    if options.agents:
        for agent in link_agent_logs(find_agent_logs(ref), main.facts.agent_calls):
            converter = run.converter(agent.log.path)
            agent_spool = UnitSpool()
            try:
                try:
                    for unit in converter.units():
                        agent_spool.add(unit)
                except OSError as exc:  # removed or unreadable since it was listed: skip it
                    agents.append(_agent_info(agent, STATUS_UNREADABLE, exc.strerror or str(exc)))
                    continue
                agent_status, agent_reason = run.verdict(converter, agent=True)
                if agent_status == steps.STATUS_OK:
                    open_agent = f"<agent{attrs(agent_attributes(ref, agent, run.redactor))}>\n"
                    sink.write(open_agent)
                    agent_spool.copy_to(sink)
                    sink.write("</agent>\n")
                    chars += len(open_agent) + agent_spool.chars + len("</agent>\n")
                    entries += agent_spool.entries
            finally:
                agent_spool.close()
            agents.append(_agent_info(agent, agent_status, agent_reason))
    sink.write("</session>\n")
    chars += len("</session>\n")
    sink.flush()
    run.reduction.output_chars += chars
    document = DocumentInfo(None, "session", None, 1, chars, entries)
    return _result(run, steps.STATUS_OK, None, None, [document], agents)


def _unreadable(ref: SessionRef, exc: OSError) -> KitError:
    if isinstance(exc, FileNotFoundError):
        return NotFound(f"the transcript {ref.path} is gone")
    return KitError(f"cannot read {ref.path}: {exc.strerror or exc}")


def _agent_info(agent: AgentRun, status: str, reason: str | None) -> AgentInfo:
    return AgentInfo(
        agent_id=agent.agent_id,
        agent_type=agent.agent_type,
        description=agent.description,
        tool_use_id=agent.tool_use_id,
        layout=agent.log.layout,
        path=agent.log.path,
        status=status,
        reason=reason,
    )


def _document(part: PartInfo, agent_id: str | None) -> DocumentInfo:
    return DocumentInfo(part.path, "agent" if agent_id else "session", agent_id, part.part, part.chars, part.entries)


def _result(
    run: _Run,
    status: str,
    reason: str | None,
    out_dir: Path | None,
    documents: Sequence[DocumentInfo],
    agents: Sequence[AgentInfo],
    distilled: Sequence[Distilled] = (),
) -> PreprocessResult:
    return PreprocessResult(
        session=run.ref,
        status=status,
        reason=reason,
        output_dir=out_dir,
        documents=tuple(documents),
        agents=tuple(agents),
        distilled=tuple(distilled),
        reduction=run.reduction,
        redactions=dict(run.redactor.counts) if run.redactor else {},
        read=run.read,
        options=run.options,
    )
