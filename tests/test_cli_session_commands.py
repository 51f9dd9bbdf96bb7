"""`debug-agent`, `plan` and `info` through the real entry point, on hand-made and real files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.support.sessions import build_planned
from tests.support.cli import run, run_json
from tests.support.transcripts import Transcript

REAL = Path(__file__).parent / "fixtures" / "real"


@pytest.fixture
def planned(claude_root: Path):
    return build_planned(claude_root)


def test_debug_agent_shows_the_failed_agents_nested_and_names_the_rest(planned):
    proc = run("debug-agent", "--session", planned.alpha.session_id)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "4 agents, 3 failed" in out
    assert f"\n{planned.outer_agent}  [general-purpose] Outer work  FAILED (1 failed call)" in out
    assert f"\n  {planned.inner_agent}  [Explore] Inner look  FAILED" in out  # under its parent
    assert f"spawned by agent {planned.outer_agent}" in out
    assert "FAIL exit 1  Bash" in out and "cat: /nonexistent-inner: No such file or directory" in out
    assert "FAILED (ended in error)" in out and "API Error: 400 FAKE-BAD-REQUEST" in out
    assert f"1 other agent (not failed): {planned.plan_agent} [Plan] Design it (ok)" in out
    assert "ALPHA PLAN AGENT ANSWER" not in out  # the ok agent is only named


def test_debug_agent_prints_markup_in_errors_as_it_is(planned):
    out = run("debug-agent", "aouter", "--session", planned.alpha.session_id).stdout
    # markup untouched; the escape character written out, so it cannot drive a terminal
    assert planned.markup_error.replace("\x1b", "\\x1b") in out


def test_debug_agent_one_agent_in_detail_all_and_filters(planned):
    sid = planned.alpha.session_id
    one = run("debug-agent", "aplan", "--session", sid).stdout
    assert "prompt:\n    ALPHA-PLAN-AGENT: design it" in one and "final answer:\n    ALPHA PLAN AGENT ANSWER" in one
    assert "ExitPlanMode" in one  # every call of the agent
    every = run("debug-agent", "--all", "--session", sid).stdout
    assert all(a in every for a in (planned.plan_agent, planned.outer_agent, planned.inner_agent, planned.error_agent))
    assert "other agent" not in every
    explore = run("debug-agent", "--all", "--type", "Explore", "--session", sid).stdout
    assert planned.inner_agent in explore.split("other agents")[0] and "3 other agents (not shown)" in explore
    doc = run_json("debug-agent", "--all", "--tool", "Bash", "--session", sid)
    assert [a["agent_id"] for a in doc["agents"]] == [planned.outer_agent, planned.inner_agent]
    assert all(c["name"] == "Bash" for a in doc["agents"] for c in a["calls"])


def test_debug_agent_json_shape(planned):
    doc = run_json("debug-agent", "--session", planned.alpha.session_id)
    assert doc["version"] == 1 and doc["kind"] == "debug-agent"
    assert (doc["total"], doc["failed"]) == (4, 3)
    by_id = {a["agent_id"]: a for a in doc["agents"]}
    outer, inner, err = by_id[planned.outer_agent], by_id[planned.inner_agent], by_id[planned.error_agent]
    assert outer["depth"] == 0 and outer["children"] == [planned.inner_agent]
    assert inner["depth"] == 1 and inner["parent_agent_id"] == planned.outer_agent and inner["spawn_depth"] == 2
    assert err["status"] == "failed" and err["error"] == "API Error: 400 FAKE-BAD-REQUEST"
    [bash] = [c for c in outer["calls"] if c["name"] == "Bash"]
    assert bash["exit_code"] == 7 and bash["error"] == planned.markup_error.strip()  # --json never cuts
    assert outer["prompt"] == "OUTER: do the work" and outer["final_answer"] == "Outer report."
    assert doc["others"] == [
        {"agent_id": planned.plan_agent, "type": "Plan", "description": "Design it", "parent_agent_id": None, "status": "ok"}
    ]


def test_debug_agent_cuts_long_errors_unless_full(claude_root: Path):
    t = Transcript()
    call = t.tool_use("Agent", {"subagent_type": "general-purpose", "description": "long", "prompt": "P"})
    agent = Transcript(t.session_id, agent_id="l0ng", start=t.clock)
    agent.user("P")
    agent.bash("noisy", exit_code=2, stderr="E" * 3000 + "THE-END")
    t.write_session(claude_root)
    agent.write_subagent(claude_root, t, meta={"toolUseId": call})
    cut = run("debug-agent", "--session", t.session_id).stdout
    assert "THE-END" not in cut and "more characters; --full shows all" in cut
    assert "THE-END" in run("debug-agent", "--full", "--session", t.session_id).stdout


def test_debug_agent_errors_and_empty_sessions(planned, claude_root: Path):
    sid = planned.alpha.session_id
    missing = run("debug-agent", "zzz", "--session", sid)
    assert missing.returncode == 3 and "no agent of this session matches" in missing.stderr
    amb = run("debug-agent", "a", "--session", sid)
    assert amb.returncode == 4 and amb.stderr.count("\n") == 1
    none = run("debug-agent", "--session", planned.beta.session_id)
    assert none.returncode == 0 and "No subagents in this session." in none.stdout
    assert "Traceback" not in missing.stderr + amb.stderr


def test_an_empty_session_option_means_the_current_session(planned):
    doc = run_json("plan", "--session", "", env={"SESSION_CONTEXT": f"session_id={planned.beta.session_id}"})
    assert doc["session_id"] == planned.beta.session_id
    info = run_json("info", "", env={"CLAUDE_CODE_SESSION_ID": planned.alpha.session_id})
    assert info["id"] == planned.alpha.session_id


def test_debug_agent_on_the_older_layout(planned):
    doc = run_json("debug-agent", "--all", "--session", planned.old.session_id)
    [agent] = doc["agents"]
    assert agent["agent_id"] == planned.legacy_plan_agent and agent["layout"] == "legacy" and agent["type"] == "Plan"


def test_plan_latest_all_and_json(planned):
    sid = planned.alpha.session_id
    latest = run("plan", "--session", sid)
    assert latest.returncode == 0 and "Plan 4 of 4 — plan file" in latest.stdout and "# ALPHA PLAN FILE" in latest.stdout
    every = run("plan", "--all", "--session", sid).stdout
    assert every.index("ALPHA AGENT EXIT PLAN") < every.index("ALPHA EXIT PLAN") < every.index("# ALPHA PLAN FILE")
    doc = run_json("plan", "--all", "--session", sid)
    assert doc["kind"] == "plan" and doc["count"] == 4 and len(doc["plans"]) == 4
    assert set(doc["plans"][0]) == {"source", "text", "timestamp", "path", "agent_id", "line", "tool_use_id", "status", "linked_by"}
    assert len(run_json("plan", "--session", sid)["plans"]) == 1
    beta = run("plan", "--all", "--session", planned.beta.session_id).stdout
    assert "BETA" in beta and "ALPHA" not in beta and "NOBODY" not in beta


def test_plan_when_there_is_none(claude_root: Path):
    t = Transcript()
    t.user("hi")
    t.write_session(claude_root)
    proc = run("plan", "--session", t.session_id)
    assert proc.returncode == 0 and proc.stdout.startswith("No plan in session")
    assert run_json("plan", "--session", t.session_id)["plans"] == []


def test_info_text_and_json(planned):
    sid = planned.alpha.session_id
    assert run("scratch", "set", "step", "three", "--session", sid).returncode == 0
    assert run("scratch", "note", "remember", "--session", sid).returncode == 0
    text = run("info", sid).stdout
    assert f"Session {sid}" in text and "agents:      4, 3 failed" in text
    assert "work state:  keys: step; 1 notes" in text and "plans:       4" in text
    doc = run_json("info", sid)
    assert doc["kind"] == "info" and doc["id"] == sid and doc["project"] == "-work-multi"
    assert doc["failed_agents"] == 3 and len(doc["agents"]) == 4 and doc["plans"] == 4
    assert doc["latest_plan"]["source"] == "plan_file"
    ws = doc["work_state"]
    assert ws["exists"] and ws["keys"] == ["step"] and ws["notes"] == 1 and Path(ws["path"]).is_dir()
    assert doc["compactions"] == [] and doc["path"].endswith(f"{sid}.jsonl")


def test_commands_on_real_client_files():
    doc = run_json("debug-agent", "--all", "--session", "266f", "--claude-dir", str(REAL))
    by_type = {a["type"]: a for a in doc["agents"]}
    assert set(by_type) == {"Plan", "general-purpose"} and doc["failed"] == 1
    [failed] = [c for c in by_type["general-purpose"]["calls"] if c["status"] == "error"]
    assert failed["summary"] == "cat /nonexistent-subagent-file" and failed["exit_code"] == 1
    plans = run_json("plan", "--all", "--session", "266f", "--claude-dir", str(REAL))["plans"]
    assert [p["source"] for p in plans] == ["plan_agent", "exit_plan_mode"]
    assert plans[-1]["status"] == "error" and plans[-1]["text"].startswith("1. Write notes.txt")
    info = run_json("info", "266f", "--claude-dir", str(REAL))
    assert len(info["compactions"]) == 1 and info["failed_agents"] == 1 and info["plans"] == 2
    assert json.dumps(info)  # whole and serialisable
