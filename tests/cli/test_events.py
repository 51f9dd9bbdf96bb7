"""`session-kit events`, in process: every call in order, and its filters."""

from __future__ import annotations

from tests.support.cli import invoke, invoke_json


def test_events_lists_the_main_conversations_and_the_agents_calls_in_order(built):
    doc = invoke_json("events", built.current.session_id)
    names = [(e["name"], e["agent_id"]) for e in doc["events"]]
    assert names == [
        ("Bash", None),
        ("Bash", None),
        ("Write", None),
        ("Read", None),
        ("Edit", None),
        ("Agent", None),
        ("Agent", None),
        ("Bash", built.worker_agent),
        ("ExitPlanMode", None),
    ]


def test_events_errors_keeps_only_failed_calls_with_their_exit_codes(built):
    errors = invoke_json("events", built.current.session_id, "--errors")["events"]
    assert [(e["summary"], e["exit_code"], e["agent_id"]) for e in errors] == [
        ("ls /nonexistent-dir", 2, None),
        ("make check", 3, built.worker_agent),
    ]


def test_events_main_only_leaves_out_the_agents_calls(built):
    main_only = invoke_json("events", built.current.session_id, "--errors", "--main-only")["events"]
    assert [e["summary"] for e in main_only] == ["ls /nonexistent-dir"]


def test_events_tool_filter_ignores_case(built):
    agent_calls = invoke_json("events", built.current.session_id, "--tool", "agent")["events"]
    assert [e["spawned_agent_id"] for e in agent_calls] == [built.plan_agent, built.worker_agent]


def test_events_text_shows_the_exit_code_and_the_error(built):
    text = invoke("events", built.current.session_id, "--errors").stdout
    assert "FAIL exit 2" in text and "No such file or directory" in text
