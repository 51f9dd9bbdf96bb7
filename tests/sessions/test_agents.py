"""Agent runs: nesting, ending in error, the tree, and picking agents (both layouts)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.support.sessions import build, build_planned
from tests.support.transcripts import Transcript

from session_kit.queries.agent_tree import agent_tree, find_agent, select_agents
from session_kit.sessions.resolve import resolve_session
from session_kit.sessions.session import Session
from session_kit.errors import Ambiguous, NotFound


def agents_of(root: Path, session_id: str):
    ref = resolve_session(session_id, root)
    return Session(ref, keep_payload=True).agents


def test_an_agent_started_by_an_agent_is_nested_under_it(claude_root: Path):
    p = build_planned(claude_root)
    runs = {r.agent_id: r for r in agents_of(claude_root, p.alpha.session_id)}
    inner = runs[p.inner_agent]
    assert inner.parent_agent_id == p.outer_agent
    assert inner.tool_use_id == runs[p.outer_agent].calls[1].id  # the Agent call in the outer log
    assert runs[p.outer_agent].parent_agent_id is None
    tree = agent_tree(list(runs.values()))
    assert [(n.run.agent_id, n.depth) for n in tree] == [
        (p.plan_agent, 0), (p.outer_agent, 0), (p.inner_agent, 1), (p.error_agent, 0)
    ]
    assert tree[1].children == (p.inner_agent,)


def test_nesting_is_found_from_the_spawning_call_without_parent_agent_id(claude_root: Path):
    t = Transcript("5e550000-0000-0000-0000-00000000000a")
    call = t.tool_use("Agent", {"subagent_type": "general-purpose", "description": "outer", "prompt": "OUT"})
    outer = Transcript(t.session_id, agent_id="0uter1", start=t.clock)
    outer.user("OUT")
    nested = outer.tool_use("Agent", {"subagent_type": "Explore", "description": "inner", "prompt": "IN"})
    inner = Transcript(t.session_id, agent_id="1nner1", start=outer.clock)
    inner.user("IN")
    inner.say("found")
    outer.tool_result(nested, "found")
    t.tool_result(call, "done", extra={"agentId": "0uter1"})
    t.write_session(claude_root)
    outer.write_subagent(claude_root, t, meta={"toolUseId": call})
    inner.write_subagent(claude_root, t, meta={"toolUseId": nested})  # no parentAgentId, no agentType
    runs = {r.agent_id: r for r in agents_of(claude_root, t.session_id)}
    assert runs["1nner1"].parent_agent_id == "0uter1"
    assert runs["1nner1"].agent_type == "Explore" and runs["1nner1"].description == "inner"


def test_an_agent_whose_api_call_failed_ended_in_error(claude_root: Path):
    p = build_planned(claude_root)
    runs = {r.agent_id: r for r in agents_of(claude_root, p.alpha.session_id)}
    err = runs[p.error_agent]
    assert err.ended_in_error and err.failed and not err.failures
    assert err.error == "API Error: 400 FAKE-BAD-REQUEST"
    assert err.final_answer is None  # the error message is not its answer
    assert err.as_dict(calls=False)["status"] == "failed"
    assert not runs[p.plan_agent].failed and runs[p.plan_agent].error is None


def test_a_failed_spawning_call_is_the_error_when_the_log_says_nothing(claude_root: Path):
    t = Transcript("5e550000-0000-0000-0000-00000000000b")
    call = t.tool_use("Agent", {"subagent_type": "general-purpose", "description": "d", "prompt": "P"})
    agent = Transcript(t.session_id, agent_id="cut0ff", start=t.clock)
    agent.user("P")
    t.tool_result(call, "Agent terminated early due to an API error: boom", is_error=True, extra="Error: boom")
    t.write_session(claude_root)
    agent.write_subagent(claude_root, t, meta={"toolUseId": call})
    [run] = agents_of(claude_root, t.session_id)
    assert run.error == "Agent terminated early due to an API error: boom"


def test_an_interrupted_agent_ended_in_error(claude_root: Path):
    t = Transcript("5e550000-0000-0000-0000-00000000000c")
    call = t.tool_use("Agent", {"subagent_type": "general-purpose", "description": "d", "prompt": "P"})
    agent = Transcript(t.session_id, agent_id="1nterr", start=t.clock)
    agent.user("P")
    agent.user("[Request interrupted by user]")
    t.write_session(claude_root)
    agent.write_subagent(claude_root, t, meta={"toolUseId": call})
    [run] = agents_of(claude_root, t.session_id)
    assert run.error == "interrupted by the user"


def test_legacy_agents_are_linked_by_time_and_never_another_sessions(claude_root: Path):
    p = build_planned(claude_root)
    [run] = agents_of(claude_root, p.old.session_id)
    assert run.agent_id == p.legacy_plan_agent and run.log.layout == "legacy"
    assert run.agent_type == "Plan" and run.tool_use_id is not None
    [other] = agents_of(claude_root, p.old_other.session_id)
    assert other.agent_id == "07herp1a"


def test_find_agent_by_prefix(claude_root: Path):
    p = build_planned(claude_root)
    runs = agents_of(claude_root, p.alpha.session_id)
    assert find_agent(runs, "aout").agent_id == p.outer_agent
    assert find_agent(runs, "agent-ainner").agent_id == p.inner_agent
    with pytest.raises(Ambiguous) as amb:
        find_agent(runs, "a")
    assert amb.value.exit_code == 4 and len(amb.value.candidates) == 4
    with pytest.raises(NotFound):
        find_agent(runs, "zzz")


def test_select_agents_failed_by_default_all_one_type_and_tool(claude_root: Path):
    p = build_planned(claude_root)
    runs = agents_of(claude_root, p.alpha.session_id)
    ids = lambda sel: [n.run.agent_id for n in sel.shown]  # noqa: E731
    default = select_agents(runs)
    assert ids(default) == [p.outer_agent, p.inner_agent, p.error_agent]
    assert [n.run.agent_id for n in default.others] == [p.plan_agent]
    assert (default.total, default.failed) == (4, 3)
    assert ids(select_agents(runs, all_agents=True)) == [p.plan_agent, p.outer_agent, p.inner_agent, p.error_agent]
    assert ids(select_agents(runs, agent="aplan")) == [p.plan_agent]
    assert ids(select_agents(runs, all_agents=True, agent_type="explore")) == [p.inner_agent]
    assert ids(select_agents(runs, all_agents=True, tool="agent")) == [p.outer_agent]
    assert ids(select_agents(runs, tool="bash")) == [p.outer_agent, p.inner_agent]


def test_the_seed_fixture_agents_keep_their_shape(claude_root: Path):
    b = build(claude_root)
    runs = agents_of(claude_root, b.current.session_id)
    assert [(r.agent_id, r.failed, r.parent_agent_id, r.error) for r in runs] == [
        (b.plan_agent, False, None, None), (b.worker_agent, True, None, None)
    ]
