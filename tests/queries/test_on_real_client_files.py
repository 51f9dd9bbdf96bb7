"""The core on transcripts the real client wrote (tests/fixtures/real/, see its README).

These need no client: they pin what the kit reads from real files, in the current layout,
whatever the dialect's surprises (noise first, agents in the background, partial compaction).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from session_kit.sessions.overview import overview
from session_kit.sessions.resolve import resolve_session
from session_kit.sessions.session import Session
from session_kit.sessions.store import find_agent_logs, list_all_sessions
from session_kit.transcript.entries import read_entries
from session_kit.transcript.reader import ReadStats
from session_kit.queries.report import session_report
from session_kit.queries.search import Query, SearchTarget, search_file

ROOT = Path(__file__).parent.parent / "fixtures" / "real"


@pytest.fixture(scope="module")
def ref():
    [only] = list_all_sessions(ROOT)
    return only


def test_every_line_is_read_and_noise_is_recognised(ref):
    stats = ReadStats()
    entries = list(read_entries(ref.path, stats))
    assert stats.skipped == 0 and stats.records == len(entries)
    kinds = {e.kind for e in entries}
    assert "unknown" not in kinds, {e.type for e in entries if e.kind == "unknown"}
    assert sum(len(str(e.raw)) for e in entries if e.kind == "noise") > sum(len(str(e.raw)) for e in entries) / 2


def test_overview_from_head_and_tail(ref):
    ov = overview(ref)
    assert ov.first_prompt.startswith("SCENARIO-START") and ov.agents == 2
    assert ov.cwd == "/tmp/real-fixture/project" and ov.start <= ov.end


def test_report_requests_failures_agents_and_compaction(ref):
    r = session_report(ref)
    assert [q.text.split(":")[0] for q in r.requests] == ["SCENARIO-START", "/compact", "SCENARIO-FOLLOW-UP"]
    assert [(c.name, c.exit_code) for c in r.failures] == [("Bash", 2), ("ExitPlanMode", None)]
    assert "No such tool available" in r.failures[1].error
    assert len(r.compactions) == 1 and r.compactions[0].trigger == "manual" and r.compactions[0].summary
    agents = {a.agent_type: a for a in r.agents}
    assert set(agents) == {"Plan", "general-purpose"}
    assert all(a.tool_use_id for a in r.agents)  # linked to the Agent calls that spawned them
    assert agents["general-purpose"].failed and not agents["Plan"].failed
    assert r.tokens["messages"] == len({e.message_id for e in read_entries(ref.path) if e.kind == "assistant" and e.message_id})


def test_timeline_includes_the_agents_calls(ref):
    calls = Session(ref, keep_payload=True).all_calls()
    inside = [c for c in calls if c.agent_id]
    assert [(c.name, c.exit_code, c.failed) for c in inside] == [("Bash", 1, True)]
    assert [c.spawned_agent_id for c in calls if c.name == "Agent"] == [log.agent_id for log in sorted(
        find_agent_logs(ref), key=lambda log: [c.id for c in calls].index(log.tool_use_id))]


def test_resolution_and_search(ref):
    assert resolve_session(ref.id[:6], ROOT).path == ref.path
    hits = search_file(SearchTarget(ref.path, ref.id), Query("scenario-needle"))
    assert {(h.where, h.tool) for h in hits} >= {("tool_input", "Write"), ("tool_output", "Read")}
