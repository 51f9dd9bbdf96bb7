from __future__ import annotations

from pathlib import Path

from tests.support.sessions import build

from session_kit.queries.report import session_report
from session_kit.sessions.resolve import resolve_session


def test_report_of_a_current_layout_session(claude_root: Path):
    b = build(claude_root)
    report = session_report(resolve_session(b.current.session_id, claude_root))
    assert [r.text for r in report.requests] == ["Please build the feature", "Go on after compaction"]
    assert report.tools == {"Agent": 2, "Bash": 2, "Write": 1, "Read": 1, "Edit": 1, "ExitPlanMode": 1}
    [failure] = report.failures
    assert failure.summary == "ls /nonexistent-dir" and failure.exit_code == 2
    [comp] = report.compactions
    assert comp.summary == "Summary: the feature was planned; checks failed."
    agents = {a.agent_id: a for a in report.agents}
    assert agents[b.plan_agent].agent_type == "Plan" and not agents[b.plan_agent].failed
    worker = agents[b.worker_agent]
    assert worker.failed and worker.failures[0].exit_code == 3
    assert worker.tool_use_id is not None and worker.final_answer == "The checks failed with exit code 3."
    assert report.entry_types["attachment"] == 1 and report.entry_types["queue-operation"] == 1
    assert report.read.skipped == 0
    assert report.branch == "feat/kit"


def test_report_of_a_legacy_layout_session_links_agents_by_time(claude_root: Path):
    b = build(claude_root)
    report = session_report(resolve_session(b.legacy.session_id, claude_root))
    [agent] = report.agents
    assert agent.agent_id == b.legacy_agent and agent.log.layout == "legacy"
    assert agent.agent_type == "Explore" and agent.description == "Explore code"
    assert agent.tool_use_id is not None
    assert [c.dialect for c in report.compactions] == ["2025"]
