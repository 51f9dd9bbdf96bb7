"""The kit's CLI on the transcripts the real client wrote for the shared scenario.

Each test runs ``python -m session_kit … --json`` once and checks one meaning: failed Bash calls
are failures, agents are linked to their Agent calls, the compaction is found, search reaches
tool inputs, outputs and agent logs. The JSON field names used are gathered in the small
accessors below, so a change of shape is a change in one place (see docs/reference/json.md).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Mapping
from typing import Any

import pytest

from . import scenario as sc
from .scenario import ScenarioRun
from .transcript import read_entries, tool_uses

MAIN_TOOL_CALLS = ["Bash", "Bash", "Write", "Read", "Edit", "Agent", "Agent", "ExitPlanMode", "Bash"]


def kit(run: ScenarioRun, *args: str) -> Any:
    """``python -m session_kit ARGS --claude-dir <scenario config> --json``, parsed."""
    command = [sys.executable, "-m", "session_kit", *args, "--claude-dir", str(run.home.config_dir), "--json"]
    env = {"PATH": "/usr/bin:/bin", **run.home.env()}
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, cwd=run.project, env=env, check=False)
    assert done.returncode == 0, f"{' '.join(command[1:])} -> exit {done.returncode}\n{done.stderr[-3000:]}"
    return json.loads(done.stdout)


# --- accessors: the only places that know the JSON field names ------------------------------


def session_ids(listing: Mapping[str, Any]) -> list[str]:
    return [s["id"] for s in listing["sessions"]]


def is_main_conversation(event: Mapping[str, Any]) -> bool:
    return not event.get("is_sidechain")


def exit_code(event: Mapping[str, Any]) -> int | None:
    return event.get("exit_code")


def failed(event: Mapping[str, Any]) -> bool:
    return event["status"] == "error"


def command(event: Mapping[str, Any]) -> str:
    return event["summary"]


def agent_links(show: Mapping[str, Any]) -> dict[str, str]:
    """Agent tool_use id -> agent type, as the kit linked them."""
    return {a["tool_use_id"]: a["type"] for a in show["agents"]}


def compaction_summaries(show: Mapping[str, Any]) -> list[str]:
    return [c["summary"] for c in show["compactions"]]


def hits(found: Mapping[str, Any]) -> list[tuple[str | None, str | None, str]]:
    """(tool, agent id, where) of each search hit."""
    return [(h["tool"], h["agent_id"], h["where"]) for h in found["hits"]]


# --- the tests ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def run(scenario: ScenarioRun) -> ScenarioRun:
    return scenario


def test_sessions_lists_the_scenario_session(run: ScenarioRun) -> None:
    listing = kit(run, "sessions", "--all")
    assert session_ids(listing) == [run.session_id]


def test_events_trace_every_tool_call_of_the_main_conversation_in_order(run: ScenarioRun) -> None:
    events = kit(run, "events", run.session_id)["events"]
    assert [e["name"] for e in events if is_main_conversation(e)] == MAIN_TOOL_CALLS


def test_events_errors_are_the_failed_bash_and_the_refused_plan(run: ScenarioRun) -> None:
    events = [e for e in kit(run, "events", run.session_id, "--errors")["events"] if is_main_conversation(e)]
    assert all(failed(e) for e in events)
    assert [(e["name"], exit_code(e)) for e in events] == [("Bash", 2), ("ExitPlanMode", None)]
    assert command(events[0]) == sc.FAILING_COMMAND


def test_show_links_each_agent_to_its_agent_call(run: ScenarioRun) -> None:
    calls = {b["id"]: b["input"]["subagent_type"] for _, b in tool_uses(read_entries(run.transcript), "Agent")}
    assert agent_links(kit(run, "show", run.session_id)) == calls


def test_show_finds_the_failures_and_the_compaction(run: ScenarioRun) -> None:
    show = kit(run, "show", run.session_id)
    assert {(f["name"], exit_code(f)) for f in show["failures"]} >= {("Bash", 2)}
    (summary,) = compaction_summaries(show)
    assert "SCENARIO-SUMMARY" in summary


def test_search_reaches_tool_inputs_outputs_and_agent_logs(run: ScenarioRun) -> None:
    needle = hits(kit(run, "search", "scenario-needle", "--all"))
    assert ("Write", None, "tool_input") in needle and ("Read", None, "tool_output") in needle
    in_agent = hits(kit(run, "search", sc.SUBAGENT_FAILING_COMMAND, "--all"))
    assert {agent for _, agent, _ in in_agent} - {None}, in_agent


def test_events_errors_include_the_failing_call_inside_the_general_purpose_agent(run: ScenarioRun) -> None:
    show = kit(run, "show", run.session_id)
    gp_agent = next(a["agent_id"] for a in show["agents"] if a["type"] == "general-purpose")
    inside = [e for e in kit(run, "events", run.session_id, "--errors")["events"] if e["agent_id"] == gp_agent]
    assert [(command(e), exit_code(e)) for e in inside] == [(sc.SUBAGENT_FAILING_COMMAND, 1)]
    assert "No such file or directory" in inside[0]["error"]
    plan = next(a for a in show["agents"] if a["type"] == "Plan")
    gp = next(a for a in show["agents"] if a["agent_id"] == gp_agent)
    # it ended well; the failing call inside it is counted apart
    assert plan["status"] == "finished" and (gp["status"], gp["failures"]) == ("finished", 1)


def test_show_requests_are_what_the_person_sent_not_client_notifications(run: ScenarioRun) -> None:
    # `/compact` is run by the client itself: its echo is not a request to the model.
    requests = [r["text"] for r in kit(run, "show", run.session_id)["requests"]]
    assert requests == [sc.FIRST_PROMPT, sc.FOLLOW_UP_PROMPT]


def test_doctor_sees_no_format_drift_in_the_clients_transcripts(scenario: ScenarioRun):
    """Every entry and content-block type the client under test wrote is one the kit knows
    (run with CLAUDE_CODE_VERSION=latest, this is where a new format shows first)."""
    drift = kit(scenario, "doctor", "--transcripts", "--strict")
    assert drift["drifted"] is False, (drift["unknown_entry_types"], drift["unknown_block_types"])
    assert drift["files"] >= 3 and drift["entries"] > 0


def _text_of(run: ScenarioRun, *args: str) -> str:
    """``python -m session_kit ARGS --claude-dir <scenario config>``: its standard output."""
    command = [sys.executable, "-m", "session_kit", *args, "--claude-dir", str(run.home.config_dir)]
    env = {"PATH": "/usr/bin:/bin", **run.home.env()}
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, cwd=run.project, env=env, check=False)
    assert done.returncode == 0, f"{' '.join(command[1:])} -> exit {done.returncode}\n{done.stderr[-3000:]}"
    return done.stdout


def test_no_bookkeeping_line_of_the_client_reaches_preprocess_or_view(scenario: ScenarioRun):
    """Attachments, request blobs, hook progress and mode lines are never written out raw."""
    outputs = {
        "preprocess": _text_of(scenario, "preprocess", scenario.session_id, "--stdout"),
        "view html": _text_of(scenario, "view", scenario.session_id, "-o", "-"),
        "view md": _text_of(scenario, "view", scenario.session_id, "--format", "md", "-o", "-"),
    }
    for name, text in outputs.items():
        for raw in ('"parentUuid"', "parentUuid&#34;", "&quot;parentUuid", "<entry", "skill_listing"):
            assert raw not in text, (name, raw)
    drift = kit(scenario, "doctor", "--transcripts")
    assert drift["unknown_entry_types"] == {}
