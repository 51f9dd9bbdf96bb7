"""The one preprocessing pipeline: a session and its agents in, documents out.

Owns: `preprocess_session`, which the library, the CLI command and the slash command all
call: checking the options, choosing the renderer and the sink (files in parts, or one
stream for `--stdout`), the one loop that converts the main transcript and then each agent
log (in start order, linked to its spawning call) into a section of that sink, stopping at an
empty or warmup session, the optional distill stage, and the result with its reduction
report. Does not parse options or print (that is `cli`), build units (`conversation`),
render them (`render/`) or know how sections are stored (`sinks`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from session_kit.conversation import steps
from session_kit.conversation.agents import AgentsInStartOrder, InlineAgents, LinkedAgent
from session_kit.conversation.convert import LogConverter, SessionReading
from session_kit.errors import KitError, NoScratchDir, cannot_read
from session_kit.preprocess.render.base import renderer_for
from session_kit.preprocess.result import (
    CHARS_PER_TOKEN,
    STATUS_UNREADABLE,
    AgentInfo,
    Distilled,
    DocumentInfo,
    PreprocessOptions,
    PreprocessResult,
)
from session_kit.preprocess.sinks import OneStream, PartFiles, Section, Sink
from session_kit.redaction.engine import Redactor
from session_kit.sessions.store import SessionRef
from session_kit.transcript.glance import glance

# --- where things go -----------------------------------------------------------------------------


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


# --- root elements -------------------------------------------------------------------------------


def session_attributes(ref: SessionRef, converter: LogConverter, redactor: Redactor | None = None) -> dict[str, Any]:
    """The root's attributes; `title`: the session's own title, as `sessions` names it."""
    title = glance(ref.path, ref.size).title
    if title and redactor is not None:
        title = redactor(title)  # transcript text, like any other
    return {"id": ref.id, "cwd": converter.facts.cwd, "branch": converter.facts.branch, "title": title}


def agent_attributes(ref: SessionRef, agent: LinkedAgent, redactor: Redactor | None = None) -> dict[str, Any]:
    description = agent.description
    if description and redactor is not None:
        description = redactor(description)  # model-written text, like any other
    return {
        "id": agent.agent_id,
        "session": ref.id,
        "type": agent.agent_type,
        "description": description,
        "tool_use_id": agent.tool_use_id,
        "layout": agent.log.layout,
    }


# --- the pipeline --------------------------------------------------------------------------------


class _Unreadable(Exception):
    """A log that vanished or cannot be read while it was converted."""

    def __init__(self, error: OSError) -> None:
        super().__init__(error)
        self.error = error


class _Run:
    """The state of one `preprocess_session` call."""

    def __init__(self, ref: SessionRef, options: PreprocessOptions) -> None:
        self.ref = ref
        self.options = options
        redactor = Redactor() if options.redact else None
        self.reading = SessionReading(ref, filtering=options.filtering, thinking=options.thinking, redactor=redactor)
        self.reduction = self.reading.reduction
        self.read = self.reading.read
        self.redactor = redactor
        self.converter = self.reading.converter
        self.renderer = renderer_for(options.format)

    def fill(self, converter: LogConverter, section: Section, *, agent: bool = False) -> tuple[str, str | None]:
        """Convert one log into `section`, keep or drop it by its verdict; the verdict.

        A log that cannot be read is `_Unreadable` (its section dropped); an error writing
        the output is not.
        """
        render, add = self.renderer.unit, section.add
        try:
            for unit in converter.units():
                add(render(unit))
        except OSError as exc:
            section.drop()
            raise _Unreadable(exc) from None
        if self.options.filtering:
            status, reason = converter.facts.check.verdict(agent=agent)
        else:
            status, reason = steps.STATUS_OK, None
        if status == steps.STATUS_OK:
            section.keep()
        else:
            section.drop()
        return status, reason


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
    sink: Sink
    if options.to_stdout:
        if stream is None:
            raise ValueError("to_stdout needs a stream")
        sink = OneStream(stream, renderer=run.renderer)
    else:
        sink = PartFiles(
            _prepare_dir(options.output_dir or default_output_dir(ref)),
            prefix=options.prefix,
            session_id=ref.id,
            renderer=run.renderer,
            max_chars=options.max_tokens * CHARS_PER_TOKEN if options.max_tokens else None,
        )
    try:
        result = _write(run, sink)
    except BaseException:
        sink.discard()
        raise
    if binary is None or not result.ok:
        return result
    from session_kit.preprocess.distill import distill_document

    distilled = tuple(
        distill_document(doc.path, binary=binary, model=options.distill_model) for doc in result.documents if doc.path
    )
    return result._replace(distilled=distilled)


def _write(run: _Run, sink: Sink) -> PreprocessResult:
    """The one loop: the session, then each of its agents, each a section of `sink`."""
    ref = run.ref
    inline = InlineAgents(ref.path) if run.options.agents else None
    main = run.converter(ref.path, skip_sidechains=inline.apart if inline else None)
    section = sink.open("session", lambda: session_attributes(ref, main, run.redactor))
    try:
        status, reason = run.fill(main, section)
    except _Unreadable as exc:
        raise _unreadable(ref, exc.error) from None
    if status != steps.STATUS_OK:
        sink.discard()
        return _result(run, status, reason, sink.output_dir, [], [])
    agents: list[AgentInfo] = []
    if run.options.agents:
        logs = AgentsInStartOrder(ref, main.facts.spawn_calls.values(), inline=inline.threads() if inline else {})
        for agent in logs:
            assert agent.log.path is not None
            converter = run.converter(agent.log.path, agent.agent_id, thread=agent.thread)
            section = sink.open(
                "agent", lambda agent=agent: agent_attributes(ref, agent, run.redactor), agent_id=agent.agent_id
            )
            try:
                status, reason = run.fill(converter, section, agent=True)
            except _Unreadable as exc:  # removed or unreadable since it was listed: skip it
                status, reason = STATUS_UNREADABLE, exc.error.strerror or str(exc.error)
            logs.add_calls(converter.facts.spawn_calls.values())
            agents.append(_agent_info(agent, status, reason, redact=run.redactor is not None))
    documents = sink.finish()
    run.reduction.output_chars += sum(d.chars for d in documents)
    return _result(run, steps.STATUS_OK, None, sink.output_dir, documents, agents)


def _unreadable(ref: SessionRef, exc: OSError) -> KitError:
    return cannot_read(f"the transcript {ref.path}", exc)


def _agent_info(agent: LinkedAgent, status: str, reason: str | None, *, redact: bool) -> AgentInfo:
    """The report's line for `agent`; its description redacted as in the documents (by a
    redactor of its own: the run's counts what the documents hold)."""
    description = agent.description
    if description and redact:
        description = Redactor()(description)
    return AgentInfo(
        agent_id=agent.agent_id,
        agent_type=agent.agent_type,
        description=description,
        tool_use_id=agent.tool_use_id,
        layout=agent.log.layout,
        path=agent.log.path,
        status=status,
        reason=reason,
    )


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
