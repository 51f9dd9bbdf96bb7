"""On the files the real client wrote (tests/fixtures/real): `show`, `usage` and the status
line agree with a plain count of the files, every API message once, agents included."""

from __future__ import annotations

import json
from pathlib import Path

from session_kit.queries.report import session_report
from session_kit.sessions.store import find_session_by_id
from session_kit.usage.history import usage_report
from session_kit.usage.prices import load_prices

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "real"
SESSION = "266f5872-b716-4df1-b42b-7ca857a257ae"


def plain_count() -> tuple[int, int, int]:
    """(input, output, messages): the last line of each message id, over every file."""
    last: dict[str, dict] = {}
    for path in sorted(REAL.rglob("*.jsonl")):
        for line in path.read_text().splitlines():
            entry = json.loads(line)
            if entry.get("type") == "assistant" and "usage" in entry["message"]:
                last[entry["message"]["id"]] = entry["message"]["usage"]
    return sum(u["input_tokens"] for u in last.values()), sum(u["output_tokens"] for u in last.values()), len(last)


def test_show_counts_the_real_session_and_its_two_agents_as_a_plain_count_does():
    usage = session_report(find_session_by_id(REAL, SESSION)).usage
    total = usage.total.total
    assert (total.input, total.output, total.messages) == plain_count()
    assert len([a for a in usage.agents if a.source == "log"]) == 2
    assert usage.cost.complete and usage.total.models == ("claude-opus-5-5",)


def test_usage_over_the_real_root_counts_the_same():
    report = usage_report(str(REAL), load_prices(), by="session")
    [row] = report.rows
    assert row.key == SESSION
    t = row.tokens.total
    assert (t.input, t.output, t.messages) == plain_count()


def test_the_agents_result_reports_the_same_usage_its_log_holds():
    # The client's figure in the Agent result (what a missing log leaves) against the log.
    usage = session_report(find_session_by_id(REAL, SESSION)).usage
    from session_kit.queries.report import ReportCollector
    from session_kit.sessions.session import Session

    collector = ReportCollector()
    Session(find_session_by_id(REAL, SESSION)).scan(collector)
    for agent_id, from_result in collector.agent_results.by_agent.items():
        logged = usage.of_agent(agent_id)
        assert logged is not None and from_result.total.output <= logged.own.total.output
