"""`session-kit debug-agent`, in process, on hand-made and real files."""

from __future__ import annotations

from pathlib import Path

from tests.support.cli import invoke, invoke_json
from tests.support.transcripts import Transcript

REAL = Path(__file__).parents[1] / "fixtures" / "real"


def test_debug_agent_shows_the_failed_agents_nested_and_names_the_rest(planned):
    result = invoke("debug-agent", "--session", planned.alpha.session_id)
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "4 agents, 3 failed" in out
    assert f"\n{planned.outer_agent}  [general-purpose] Outer work  finished, 1 failed call" in out
    assert f"\n  {planned.inner_agent}  [Explore] Inner look  finished, 1 failed call" in out  # under its parent
    assert f"spawned by agent {planned.outer_agent}" in out
    assert "FAIL exit 1  Bash" in out and "cat: /nonexistent-inner: No such file or directory" in out
    assert "Erroring one  failed\n" in out and "API Error: 400 FAKE-BAD-REQUEST" in out
    assert f"1 other agent (not failed): {planned.plan_agent} [Plan] Design it (finished)" in out
    assert "ALPHA PLAN AGENT ANSWER" not in out  # the ok agent is only named


def test_debug_agent_prints_markup_in_errors_as_it_is(planned):
    out = invoke("debug-agent", "aouter", "--session", planned.alpha.session_id).stdout
    # markup untouched; the escape character written out, so it cannot drive a terminal
    assert planned.markup_error.replace("\x1b", "\\u001b") in out


def test_debug_agent_with_an_agent_shows_its_prompt_answer_and_every_call(planned):
    one = invoke("debug-agent", "aplan", "--session", planned.alpha.session_id).stdout
    assert "prompt:\n    ALPHA-PLAN-AGENT: design it" in one and "final answer:\n    ALPHA PLAN AGENT ANSWER" in one
    assert "ExitPlanMode" in one  # every call of the agent


def test_debug_agent_all_shows_every_agent(planned):
    every = invoke("debug-agent", "--all", "--session", planned.alpha.session_id).stdout
    assert all(a in every for a in (planned.plan_agent, planned.outer_agent, planned.inner_agent, planned.error_agent))
    assert "other agent" not in every


def test_debug_agent_type_shows_only_agents_of_that_type(planned):
    explore = invoke("debug-agent", "--all", "--type", "Explore", "--session", planned.alpha.session_id).stdout
    assert planned.inner_agent in explore.split("other agents")[0] and "3 other agents (not shown)" in explore


def test_debug_agent_tool_shows_only_agents_that_called_it_and_those_calls(planned):
    doc = invoke_json("debug-agent", "--all", "--tool", "Bash", "--session", planned.alpha.session_id)
    assert [a["agent_id"] for a in doc["agents"]] == [planned.outer_agent, planned.inner_agent]
    assert all(c["name"] == "Bash" for a in doc["agents"] for c in a["calls"])


def test_debug_agent_json_shape(planned):
    doc = invoke_json("debug-agent", "--session", planned.alpha.session_id)
    assert doc["version"] == 2 and doc["kind"] == "debug-agent"
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
        {
            "agent_id": planned.plan_agent,
            "type": "Plan",
            "description": "Design it",
            "parent_agent_id": None,
            "status": "finished",
        }
    ]


def _session_with_a_long_error(claude_root: Path) -> str:
    t = Transcript()
    call = t.tool_use("Agent", {"subagent_type": "general-purpose", "description": "long", "prompt": "P"})
    agent = Transcript(t.session_id, agent_id="l0ng", start=t.clock)
    agent.user("P")
    agent.bash("noisy", exit_code=2, stderr="E" * 3000 + "THE-END")
    t.write_session(claude_root)
    agent.write_subagent(claude_root, t, meta={"toolUseId": call})
    return t.session_id


def test_debug_agent_cuts_long_errors(claude_root: Path):
    cut = invoke("debug-agent", "--session", _session_with_a_long_error(claude_root)).stdout
    assert "THE-END" not in cut and "more characters; --full shows all" in cut


def test_debug_agent_full_prints_errors_whole(claude_root: Path):
    assert "THE-END" in invoke("debug-agent", "--full", "--session", _session_with_a_long_error(claude_root)).stdout


def test_debug_agent_with_an_unknown_agent_is_not_found(planned):
    missing = invoke("debug-agent", "zzz", "--session", planned.alpha.session_id)
    assert missing.exit_code == 3 and "no agent of this session matches" in missing.stderr
    assert "Traceback" not in missing.stderr


def test_debug_agent_with_an_ambiguous_agent_prefix_exits_4_in_one_line(planned):
    amb = invoke("debug-agent", "a", "--session", planned.alpha.session_id)
    assert amb.exit_code == 4 and amb.stderr.count("\n") == 1
    assert "Traceback" not in amb.stderr


def test_debug_agent_on_a_session_without_agents_says_so(planned):
    none = invoke("debug-agent", "--session", planned.beta.session_id)
    assert none.exit_code == 0 and "No subagents in this session." in none.stdout


def test_debug_agent_on_the_older_layout(planned):
    doc = invoke_json("debug-agent", "--all", "--session", planned.old.session_id)
    [agent] = doc["agents"]
    assert agent["agent_id"] == planned.legacy_plan_agent and agent["layout"] == "legacy" and agent["type"] == "Plan"


def test_debug_agent_on_real_client_files():
    doc = invoke_json("debug-agent", "--all", "--session", "266f", "--claude-dir", str(REAL))
    by_type = {a["type"]: a for a in doc["agents"]}
    assert set(by_type) == {"Plan", "general-purpose"} and doc["failed"] == 1
    [failed] = [c for c in by_type["general-purpose"]["calls"] if c["status"] == "error"]
    assert failed["summary"] == "cat /nonexistent-subagent-file" and failed["exit_code"] == 1


def test_debug_agent_hint_names_the_session_and_the_agent(planned):
    out = invoke("debug-agent", "--session", planned.alpha.session_id).stdout
    assert out.rstrip().endswith(
        "(`session-kit debug-agent SESSION --all` shows every agent; `session-kit debug-agent SESSION AGENT` one in detail)"
    )


def test_debug_agent_type_shows_the_agent_of_that_type_even_when_it_did_not_fail(planned):
    out = invoke("debug-agent", "--type", "Plan", "--session", planned.alpha.session_id).stdout
    assert out.split("\n\n")[1].startswith(f"{planned.plan_agent}  [Plan] Design it")


def test_debug_agent_keeps_the_lines_of_a_multi_line_answer_indented(built):
    out = invoke("debug-agent", "--all", "--session", built.current.session_id).stdout
    assert "\n  answer:\n    1. Do A\n    2. Do B\n" in out
