"""Reading, listing, reporting and searching transcripts the real client wrote (tests/fixtures/real/, see its README).

These need no client: they pin what the kit reads from real files, in the current layout,
whatever the dialect's surprises (noise first, agents in the background, partial compaction).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from session_kit.queries.report import session_report
from session_kit.queries.search import Query, SearchTarget, search_file
from session_kit.sessions.overview import overview
from session_kit.sessions.resolve import resolve_session
from session_kit.sessions.session import Session
from session_kit.sessions.store import find_agent_logs, list_all_sessions
from session_kit.transcript.entries import read_entries
from session_kit.transcript.reader import ReadStats

ROOT = Path(__file__).parent.parent / "fixtures" / "real"


@pytest.fixture(scope="module")
def ref():
    [only] = list_all_sessions(ROOT)
    return only


@pytest.fixture(scope="module")
def report(ref):
    return session_report(ref)


def test_every_line_of_a_real_transcript_is_read(ref):
    stats = ReadStats()
    entries = list(read_entries(ref.path, stats))
    assert stats.skipped == 0 and stats.records == len(entries)


def test_every_real_entry_type_is_known(ref):
    entries = list(read_entries(ref.path))
    kinds = {e.kind for e in entries}
    assert "unknown" not in kinds, {e.type for e in entries if e.kind == "unknown"}


def test_noise_is_most_of_a_real_transcript(ref):
    entries = list(read_entries(ref.path))
    assert sum(len(str(e.raw)) for e in entries if e.kind == "noise") > sum(len(str(e.raw)) for e in entries) / 2


def test_the_overview_finds_the_first_request_and_counts_the_agents(ref):
    ov = overview(ref)
    assert ov.first_prompt.startswith("SCENARIO-START") and ov.agents == 2


def test_the_overview_has_the_cwd_and_times_in_order(ref):
    ov = overview(ref)
    assert ov.cwd == "/tmp/real-fixture/project" and ov.start <= ov.end


def test_the_report_lists_the_requests_and_not_the_compact_command_the_client_ran_itself(report):
    assert [q.text.split(":")[0] for q in report.requests] == ["SCENARIO-START", "SCENARIO-FOLLOW-UP"]


def test_the_report_lists_the_failed_calls_with_their_errors(report):
    assert [(c.name, c.exit_code) for c in report.failures] == [("Bash", 2), ("ExitPlanMode", None)]
    assert "No such tool available" in report.failures[1].error


def test_the_report_has_the_manual_compaction_and_its_summary(report):
    assert len(report.compactions) == 1 and report.compactions[0].trigger == "manual" and report.compactions[0].summary


def test_the_report_links_each_agent_to_its_spawning_call(report):
    agents = {a.agent_type: a for a in report.agents}
    assert set(agents) == {"Plan", "general-purpose"}
    assert all(a.tool_use_id for a in report.agents)  # linked to the Agent calls that spawned them
    assert agents["general-purpose"].failed and not agents["Plan"].failed


def test_the_report_counts_tokens_once_per_message(ref, report):
    assert report.tokens["messages"] == len(
        {e.message_id for e in read_entries(ref.path) if e.kind == "assistant" and e.message_id}
    )


def test_all_calls_include_the_agents_calls(ref):
    calls = Session(ref, keep_payload=True).all_calls()
    inside = [c for c in calls if c.agent_id]
    assert [(c.name, c.exit_code, c.failed) for c in inside] == [("Bash", 1, True)]


def test_each_agent_call_names_the_agent_whose_log_it_spawned(ref):
    calls = Session(ref, keep_payload=True).all_calls()
    assert [c.spawned_agent_id for c in calls if c.name == "Agent"] == [
        log.agent_id
        for log in sorted(find_agent_logs(ref), key=lambda log: [c.id for c in calls].index(log.tool_use_id))
    ]


def test_a_real_session_resolves_by_id_prefix(ref):
    assert resolve_session(ref.id[:6], ROOT).path == ref.path


def test_search_finds_a_needle_in_a_real_tool_input_and_output(ref):
    hits = search_file(SearchTarget(ref.path, ref.id), Query("scenario-needle"))
    assert {(h.where, h.tool) for h in hits} >= {("tool_input", "Write"), ("tool_output", "Read")}
