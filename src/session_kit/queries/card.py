"""One session's card, for `session-kit info` and `/session-info`.

Owns: putting together, from one read of the transcript and its agent logs, what a person
asks first about a session: where its files are, its project, its scratch dir, when it ran,
its compactions, its agents (and which failed), its plans and the keys of its work state.
The facts themselves come from `report`, `plans` and `state.scratch`; nothing is read twice
and nothing is created (a scratch dir that does not exist yet is only named). Does not print.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from session_kit.queries.plans import Plan, PlanScan
from session_kit.queries.report import ReportCollector, SessionReport
from session_kit.sessions.session import Session
from session_kit.sessions.store import SessionRef
from session_kit.state import root as state
from session_kit.state.ids import InvalidSessionId
from session_kit.state.scratch import SessionScratch
from session_kit.transcript.entries import format_timestamp


class WorkState(NamedTuple):
    path: str  # the scratch dir (where it would be, when it does not exist yet)
    exists: bool
    keys: tuple[str, ...]
    notes: int
    updated: str | None

    def as_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "exists": self.exists,
            "keys": list(self.keys),
            "notes": self.notes,
            "updated": self.updated,
        }


class SessionInfo(NamedTuple):
    report: SessionReport
    plans: tuple[Plan, ...]
    work_state: WorkState | None  # None: the session id cannot name a scratch dir

    def as_dict(self) -> dict[str, Any]:
        r = self.report
        latest = self.plans[-1] if self.plans else None
        return {
            "id": r.ref.id,
            "path": str(r.ref.path),
            "project": r.ref.project.name,
            "cwd": r.cwd,
            "branch": r.branch,
            "title": r.title,
            "start": format_timestamp(r.start),
            "end": format_timestamp(r.end),
            "duration_s": r.duration_s,
            "compactions": [c.as_dict() for c in r.compactions],
            "agents": [a.as_dict(calls=False) for a in r.agents],
            "failed_agents": sum(1 for a in r.agents if a.failed),
            "plans": len(self.plans),
            "latest_plan": latest.as_dict() if latest else None,
            "work_state": self.work_state.as_dict() if self.work_state else None,
            "usage": r.usage.as_dict() if r.usage is not None else None,
            "read": r.read.as_dict(),
        }


def session_card(ref: SessionRef, *, root: Path, state_root: str | None = None) -> SessionInfo:
    """The card, from one read of the transcript (the report's and the plans' observers
    together) and one of the agent logs."""
    collector, scan = ReportCollector(), PlanScan()
    session = Session(ref).scan(collector, scan)
    report = collector.report(session)
    return SessionInfo(report, tuple(scan.plans(session, root=root)), work_state_of(ref, state_root))


def work_state_of(session: SessionRef, state_root: str | None = None) -> WorkState | None:
    # Keyed by the client's project folder name, as the hooks and `preprocess` key it.
    try:
        scratch = SessionScratch.for_session(
            session.id, project_key=session.project.name, root=state_root or state.state_root()
        )
    except InvalidSessionId:
        return None
    if not scratch.exists():
        return WorkState(scratch.path, False, (), 0, None)
    current = scratch.read_state()
    return WorkState(scratch.path, True, tuple(current["values"]), len(current["notes"]), current["updated"])
