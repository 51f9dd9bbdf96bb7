"""A session's report: requests, tool counts, failures, compactions, agents, in both layouts."""

from __future__ import annotations

from pathlib import Path

import pytest

from session_kit.queries.report import SessionReport, session_report
from session_kit.sessions.resolve import resolve_session
from tests.support.sessions import Built, build


@pytest.fixture
def built(claude_root: Path) -> Built:
    return build(claude_root)


@pytest.fixture
def current(built: Built, claude_root: Path) -> SessionReport:
    return session_report(resolve_session(built.current.session_id, claude_root))


@pytest.fixture
def legacy(built: Built, claude_root: Path) -> SessionReport:
    return session_report(resolve_session(built.legacy.session_id, claude_root))


def test_the_requests_are_the_users_prompts_across_a_compaction(current: SessionReport):
    assert [r.text for r in current.requests] == ["Please build the feature", "Go on after compaction"]


def test_tools_are_counted_by_name(current: SessionReport):
    assert current.tools == {"Agent": 2, "Bash": 2, "Write": 1, "Read": 1, "Edit": 1, "ExitPlanMode": 1}


def test_the_failures_are_the_main_conversations_failed_calls(current: SessionReport):
    [failure] = current.failures
    assert failure.summary == "ls /nonexistent-dir" and failure.exit_code == 2


def test_a_compaction_is_reported_with_its_summary(current: SessionReport):
    [comp] = current.compactions
    assert comp.summary == "Summary: the feature was planned; checks failed."


def test_agents_are_reported_with_type_and_outcome(current: SessionReport, built: Built):
    agents = {a.agent_id: a for a in current.agents}
    assert agents[built.plan_agent].agent_type == "Plan" and not agents[built.plan_agent].failed
    worker = agents[built.worker_agent]
    assert worker.failed and worker.failures[0].exit_code == 3
    assert worker.tool_use_id is not None and worker.final_answer == "The checks failed with exit code 3."


def test_entry_types_are_counted_noise_included(current: SessionReport):
    assert current.entry_types["attachment"] == 1 and current.entry_types["queue-operation"] == 1


def test_a_clean_file_skips_no_line(current: SessionReport):
    assert current.read.skipped == 0


def test_the_branch_is_the_sessions(current: SessionReport):
    assert current.branch == "feat/kit"


def test_a_legacy_agent_is_linked_to_its_task_call_by_time(legacy: SessionReport, built: Built):
    [agent] = legacy.agents
    assert agent.agent_id == built.legacy_agent and agent.log.layout == "legacy"
    assert agent.tool_use_id is not None


def test_a_legacy_agent_takes_type_and_description_from_its_task_call(legacy: SessionReport):
    [agent] = legacy.agents
    assert agent.agent_type == "Explore" and agent.description == "Explore code"


def test_a_2025_summary_is_the_title_not_a_compaction(legacy: SessionReport):
    assert legacy.compactions == ()
    assert legacy.title == "Earlier: explored the repo"


def test_a_file_copied_into_itself_counts_each_request_and_compaction_once(claude_root: Path):
    from session_kit.sessions.store import session_ref_from_path
    from tests.support.transcripts import Transcript

    t = Transcript()
    t.user("the one request")
    t.bash("ls", "a")
    t.compact("compacted once")
    path = t.write_session(claude_root)
    path.write_text(t.text() * 3)  # resumed or copied: the same entries, the same uuids
    report = session_report(session_ref_from_path(path))
    assert [r.text for r in report.requests] == ["the one request"]
    assert len(report.compactions) == 1 and len(report.calls) == 1
    assert report.read.repeated == 2 * len(t.lines)
