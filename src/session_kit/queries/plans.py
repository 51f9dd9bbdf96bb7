"""A session's plans, in the order they were made.

Owns: finding the plans of one session and ordering them in time — the `plan` of each
ExitPlanMode call (the main conversation's and its agents'; the text as approved, from the
result's `toolUseResult.plan`, when the client recorded one), the final answers of `Plan`
agents, and the plan files that belong to the session — and which folders hold plan files
(the `plansDirectory` setting, else `<root>/plans`).

A plan file belongs to a session only through something the session itself recorded:
- the `planFilePath` of a `plan_mode` attachment (the client tells the model, in plan mode,
  which file to write its plan to; observed with 2.1.328);
- the `filePath` of an ExitPlanMode result's `toolUseResult` (an ExitPlanMode call with empty
  input is a plan of the session all the same: the plan is that file, reported with its path
  and text, or as not found when the file is gone);
- a Write or Edit of a `.md` file in a plans folder, by the session or one of its agents;
- the session's `slug` (every entry of a current session carries one): the client names the
  plan file `<slug>.md` (observed), and an agent's `<slug>-agent-<agent-id>.md` (older
  clients; accepted because the slug is the session's own).
Never by modification time or by project: the sessions of a project share one plans folder,
and a file's time says nothing about whose it is, even more so when several sessions run at
once. A linked file's mtime only places it among the session's other plans.

Reads the transcript and the agents through `sessions.Session` (one scan, with `PlanScan`
among its observers); reads the settings files (for `plansDirectory`, through
`claude.settings`) and the plan files themselves. Does not print.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, NamedTuple

from session_kit.base import timestamps
from session_kit.base.fileio import open_regular
from session_kit.base.tools import EXIT_PLAN_MODE
from session_kit.base.vocabulary import TYPE_ATTACHMENT
from session_kit.claude.settings import plan_dirs
from session_kit.sessions.session import Session
from session_kit.sessions.store import SessionRef
from session_kit.state.ids import is_plain_id
from session_kit.transcript.calls import ToolCall, ToolCallPairer
from session_kit.transcript.entries import Entry, format_timestamp
from session_kit.transcript.tools import written_file

SOURCE_EXIT_PLAN_MODE = "exit_plan_mode"
SOURCE_PLAN_AGENT = "plan_agent"
SOURCE_PLAN_FILE = "plan_file"

LINK_ATTACHMENT = "plan_mode_attachment"
LINK_RESULT = "exit_plan_mode_result"
LINK_WRITTEN = "written_by_session"
LINK_SLUG = "slug"

PLAN_SOURCES = (SOURCE_EXIT_PLAN_MODE, SOURCE_PLAN_AGENT, SOURCE_PLAN_FILE)
PLAN_AGENT_TYPE = "plan"  # agent types compared case-insensitively
PLAN_FILE_SUFFIX = ".md"
MAX_PLAN_BYTES = 1024 * 1024
_EARLIEST = datetime.min.replace(tzinfo=timezone.utc)


class Plan(NamedTuple):
    source: str  # exit_plan_mode | plan_agent | plan_file
    text: str
    timestamp: datetime | None
    path: Path  # the transcript or agent log that holds it, or the plan file
    agent_id: str | None = None  # the agent that made it; None: the main conversation
    line: int | None = None
    tool_use_id: str | None = None  # the ExitPlanMode call, or the Plan agent's spawning call
    # exit_plan_mode: a call status (ok | error: refused | pending); plan_agent: the agent's status (`base.agents`)
    status: str | None = None
    linked_by: str | None = None  # plan_file: how it is known to be this session's
    file_found: bool | None = None  # plan_file: False when the file its call named is gone

    def as_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "text": self.text,
            "timestamp": format_timestamp(self.timestamp),
            "path": str(self.path),
            "agent_id": self.agent_id,
            "line": self.line,
            "tool_use_id": self.tool_use_id,
            "status": self.status,
            "linked_by": self.linked_by,
            "file_found": self.file_found,
        }


class PlanScan:
    """What ties plans to a session, collected from its entries as they stream past.

    Keeps only small facts: slugs, plan-file paths the client named, the ExitPlanMode calls
    (paired by the shared `ToolCallPairer`) and the files the session wrote.
    """

    def __init__(self) -> None:
        self.cwd: str | None = None
        self.slugs: dict[str, None] = {}  # a dict keeps the order they were met in
        self.named_files: dict[str, str] = {}  # path -> how the session named it
        self.written: set[str] = set()
        self._pairer = ToolCallPairer()
        self._exit_ids: set[str] = set()
        self._results: dict[str, Mapping[str, Any]] = {}  # ExitPlanMode id -> toolUseResult

    def add(self, entry: Entry) -> None:
        if self.cwd is None and entry.cwd:
            self.cwd = entry.cwd
        slug = entry.slug
        if slug and slug not in self.slugs:
            self.slugs[slug] = None
        if entry.type == TYPE_ATTACHMENT:
            self._attachment(entry.raw.get("attachment"))
            return
        uses = entry.tool_uses
        if uses:
            plan_call = False
            for block in uses:
                name = block.get("name")
                tool_input = block.get("input")
                if name == EXIT_PLAN_MODE and isinstance(block.get("id"), str):
                    self._exit_ids.add(block["id"])
                    plan_call = True
                elif isinstance(name, str) and isinstance(tool_input, Mapping):
                    target = written_file(name, tool_input)
                    if target is not None and target.endswith(PLAN_FILE_SUFFIX):
                        self.written.add(target)
            if plan_call:
                self._pairer.add(entry)
        elif self._exit_ids and entry.is_tool_result_carrier:
            mine = [r for r in entry.tool_results if r.tool_use_id in self._exit_ids]
            if mine:
                self._pairer.add(entry)
                for result in mine:
                    if isinstance(result.extra, Mapping):
                        self._results[result.tool_use_id] = result.extra
                        named = result.extra.get("filePath")
                        if isinstance(named, str) and named:
                            self.named_files.setdefault(named, LINK_RESULT)

    def _attachment(self, attachment: Any) -> None:
        if not isinstance(attachment, Mapping):
            return
        kind = attachment.get("type")
        named = attachment.get("planFilePath")
        if isinstance(kind, str) and kind.startswith("plan") and isinstance(named, str) and named:
            self.named_files.setdefault(named, LINK_ATTACHMENT)

    def exit_plan_calls(self) -> list[ToolCall]:
        return [c for c in self._pairer.calls() if c.name == EXIT_PLAN_MODE]

    def plans(self, session: Session, *, root: Path) -> list[Plan]:
        """The plans of `session`, scanned with this among its observers."""
        return plans_of(session, self, root=root)

    def named_file(self, call_id: str) -> str | None:
        """The plan file an ExitPlanMode result named (`toolUseResult.filePath`)."""
        value = self._results.get(call_id, {}).get("filePath")
        return value if isinstance(value, str) and value else None

    def approved_text(self, call_id: str) -> str | None:
        """The plan as the result recorded it (a person may edit it before approving)."""
        value = self._results.get(call_id, {}).get("plan")
        return value if isinstance(value, str) and value.strip() else None


# --- the plans ------------------------------------------------------------------------------


def session_plans(ref: SessionRef, *, root: Path) -> list[Plan]:
    """Every plan of the session, oldest first (the last one is the latest)."""
    scan = PlanScan()
    return scan.plans(Session(ref).scan(scan), root=root)


def plans_of(session: Session, scan: PlanScan, *, root: Path) -> list[Plan]:
    """The plans of a session that was scanned with `scan` among its observers."""
    agents = session.agents
    found: list[Plan] = []
    in_files: set[Path] = set()  # plan files an empty ExitPlanMode call stands for
    for call in scan.exit_plan_calls():
        text = scan.approved_text(call.id) or _str(call.input.get("plan"))
        named = scan.named_file(call.id)
        if text and text.strip():
            found.append(_exit_plan(call, text, session.ref.path))
        elif named is not None:
            in_files.add(Path(named))
            found.append(_plan_in_file(call, Path(named)))
    for run in agents:
        for call in run.calls:
            text = _str(call.input.get("plan")) if call.name == EXIT_PLAN_MODE else None
            if text and text.strip():
                found.append(_exit_plan(call, text, run.log.path, agent_id=run.agent_id))
        if (run.agent_type or "").lower() == PLAN_AGENT_TYPE and run.final_answer and run.final_answer.strip():
            found.append(
                Plan(
                    SOURCE_PLAN_AGENT,
                    run.final_answer,
                    run.end,
                    run.log.path,
                    agent_id=run.agent_id,
                    tool_use_id=run.tool_use_id,
                    status=run.status,
                )
            )
    written = {
        target
        for run in agents
        for call in run.calls
        if (target := written_file(call.name, call.input)) is not None and target.endswith(PLAN_FILE_SUFFIX)
    }
    found.extend(p for p in _plan_files(scan, root, [r.agent_id for r in agents], written) if p.path not in in_files)
    found.sort(key=lambda p: p.timestamp or _EARLIEST)  # stable: same-time plans keep their order
    return found


def _exit_plan(call: ToolCall, text: str, path: Path, *, agent_id: str | None = None) -> Plan:
    return Plan(
        SOURCE_EXIT_PLAN_MODE,
        text,
        call.started,
        path,
        agent_id=agent_id,
        line=call.line,
        tool_use_id=call.id,
        status=call.status,
    )


def _plan_in_file(call: ToolCall, path: Path) -> Plan:
    """The plan of an ExitPlanMode call with empty input: the file its result named."""
    read = _read_plan_file(path)
    return Plan(
        SOURCE_PLAN_FILE,
        read[0] if read else "",
        call.started,
        path,
        line=call.line,
        tool_use_id=call.id,
        status=call.status,
        linked_by=LINK_RESULT,
        file_found=read is not None,
    )


def _plan_files(scan: PlanScan, root: Path, agent_ids: Iterable[str], agents_wrote: Iterable[str]) -> list[Plan]:
    dirs = plan_dirs(root, scan.cwd)
    linked: dict[Path, tuple[str, str | None]] = {}  # path -> (how, agent id)
    for named, how in scan.named_files.items():
        linked.setdefault(Path(named), (how, None))
    slugs = [s for s in scan.slugs if is_plain_id(s)]  # a slug never names another folder
    agent_ids = list(agent_ids)
    for folder in dirs:
        for slug in slugs:
            linked.setdefault(folder / f"{slug}.md", (LINK_SLUG, None))
            for agent_id in agent_ids:
                linked.setdefault(folder / f"{slug}-agent-{agent_id}.md", (LINK_SLUG, agent_id))
    for written in sorted({*scan.written, *agents_wrote}):
        path = Path(written)
        if path.parent in dirs:
            linked.setdefault(path, (LINK_WRITTEN, None))
    plans = []
    for path, (how, agent_id) in linked.items():
        read = _read_plan_file(path)
        if read is None:
            continue
        text, mtime = read
        if text.strip():
            plans.append(Plan(SOURCE_PLAN_FILE, text, mtime, path, agent_id=agent_id, linked_by=how, file_found=True))
    return plans


def _read_plan_file(path: Path) -> tuple[str, datetime] | None:
    try:
        with open_regular(path) as f:
            mtime = timestamps.from_seconds(timestamps.mtime(os.fstat(f.fileno())))
            data = f.read(MAX_PLAN_BYTES)
    except OSError:  # not there (most candidates), a folder, a FIFO or device, or unreadable
        return None
    return data.decode("utf-8", "replace"), mtime


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None
