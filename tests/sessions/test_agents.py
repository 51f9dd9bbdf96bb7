"""Agent runs linked to the calls that spawned them, nested, and how each ended (both layouts)."""

from __future__ import annotations

from pathlib import Path

from tests.support.sessions import agent_runs, build, build_planned
from tests.support.transcripts import Transcript


def by_id(root: Path, session_id: str) -> dict:
    return {r.agent_id: r for r in agent_runs(root, session_id)}


def nested_without_parent_agent_id(root: Path) -> dict:
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
    t.write_session(root)
    outer.write_subagent(root, t, meta={"toolUseId": call})
    inner.write_subagent(root, t, meta={"toolUseId": nested})  # no parentAgentId, no agentType
    return by_id(root, t.session_id)


def test_an_agent_started_by_an_agent_is_nested_under_it(claude_root: Path):
    p = build_planned(claude_root)
    runs = by_id(claude_root, p.alpha.session_id)
    inner = runs[p.inner_agent]
    assert inner.parent_agent_id == p.outer_agent
    assert inner.tool_use_id == runs[p.outer_agent].calls[1].id  # the Agent call in the outer log
    assert runs[p.outer_agent].parent_agent_id is None


def test_nesting_is_found_from_the_spawning_call_without_parent_agent_id(claude_root: Path):
    runs = nested_without_parent_agent_id(claude_root)
    assert runs["1nner1"].parent_agent_id == "0uter1"


def test_an_agent_without_meta_takes_its_type_and_description_from_its_call(claude_root: Path):
    runs = nested_without_parent_agent_id(claude_root)
    assert runs["1nner1"].agent_type == "Explore" and runs["1nner1"].description == "inner"


def test_an_agent_whose_api_call_failed_ended_in_error(claude_root: Path):
    p = build_planned(claude_root)
    err = by_id(claude_root, p.alpha.session_id)[p.error_agent]
    assert err.ended_in_error and err.failed and not err.failures
    assert err.error == "API Error: 400 FAKE-BAD-REQUEST"


def test_an_api_error_is_not_the_agents_answer(claude_root: Path):
    p = build_planned(claude_root)
    assert by_id(claude_root, p.alpha.session_id)[p.error_agent].final_answer is None


def test_an_agent_that_ended_in_error_has_the_status_failed(claude_root: Path):
    p = build_planned(claude_root)
    assert by_id(claude_root, p.alpha.session_id)[p.error_agent].as_dict(calls=False)["status"] == "failed"


def test_an_agent_that_answered_has_no_error(claude_root: Path):
    p = build_planned(claude_root)
    runs = by_id(claude_root, p.alpha.session_id)
    assert not runs[p.plan_agent].failed and runs[p.plan_agent].error is None


def test_a_failed_spawning_call_is_the_error_when_the_log_says_nothing(claude_root: Path):
    t = Transcript("5e550000-0000-0000-0000-00000000000b")
    call = t.tool_use("Agent", {"subagent_type": "general-purpose", "description": "d", "prompt": "P"})
    agent = Transcript(t.session_id, agent_id="cut0ff", start=t.clock)
    agent.user("P")
    t.tool_result(call, "Agent terminated early due to an API error: boom", is_error=True, extra="Error: boom")
    t.write_session(claude_root)
    agent.write_subagent(claude_root, t, meta={"toolUseId": call})
    [run] = agent_runs(claude_root, t.session_id)
    assert run.error == "Agent terminated early due to an API error: boom"


def test_an_interrupted_agent_ended_in_error(claude_root: Path):
    t = Transcript("5e550000-0000-0000-0000-00000000000c")
    call = t.tool_use("Agent", {"subagent_type": "general-purpose", "description": "d", "prompt": "P"})
    agent = Transcript(t.session_id, agent_id="1nterr", start=t.clock)
    agent.user("P")
    agent.user("[Request interrupted by user]")
    t.write_session(claude_root)
    agent.write_subagent(claude_root, t, meta={"toolUseId": call})
    [run] = agent_runs(claude_root, t.session_id)
    assert run.error == "interrupted by the user"


def test_a_legacy_agent_is_linked_to_its_call_by_time(claude_root: Path):
    p = build_planned(claude_root)
    [run] = agent_runs(claude_root, p.old.session_id)
    assert run.agent_id == p.legacy_plan_agent and run.log.layout == "legacy"
    assert run.agent_type == "Plan" and run.tool_use_id is not None


def test_a_legacy_agent_is_never_another_sessions(claude_root: Path):
    p = build_planned(claude_root)
    [other] = agent_runs(claude_root, p.old_other.session_id)
    assert other.agent_id == "07herp1a"


def test_the_seed_fixture_agents_keep_their_shape(claude_root: Path):
    b = build(claude_root)
    runs = agent_runs(claude_root, b.current.session_id)
    assert [(r.agent_id, r.failed, r.parent_agent_id, r.error) for r in runs] == [
        (b.plan_agent, False, None, None),
        (b.worker_agent, True, None, None),
    ]


# --- 1.0.x inline agents, and agents whose logs are gone ------------------------------------


def test_interleaved_inline_threads_are_split_along_parent_uuid(claude_root: Path):
    t = Transcript("1a1a0000-0000-0000-0000-000000000001", version="1.0.98")
    t.user("do both")
    a_call = t.tool_use("Task", {"description": "A", "prompt": "PROMPT A"})
    b_call = t.tool_use("Task", {"description": "B", "prompt": "PROMPT B"})
    a, b = t.inline_agent(), t.inline_agent()
    a.user("PROMPT A")
    b.user("PROMPT B")  # the two threads' lines alternate in the file
    b.bash("make b", exit_code=2, stderr="B FAILED")
    a.bash("make a", "a ok")
    b.say("B done")
    a.say("A done")
    t.clock = max(a.clock, b.clock)
    t.tool_result(a_call, "A done")
    t.tool_result(b_call, "B done")
    t.write_session(claude_root)
    runs = agent_runs(claude_root, t.session_id)
    assert [(r.tool_use_id, r.prompt, r.final_answer, r.failed) for r in runs] == [
        (a_call, "PROMPT A", "A done", False),
        (b_call, "PROMPT B", "B done", True),
    ]
    assert all(c.agent_id == r.agent_id for r in runs for c in r.calls)


def test_an_agent_log_named_as_the_session_is_its_own_conversation(claude_root: Path):
    from session_kit.sessions.session import Session
    from session_kit.sessions.store import session_ref_from_path

    built = build(claude_root)
    log = next(claude_root.rglob(f"agent-{built.worker_agent}.jsonl"))
    session = Session(session_ref_from_path(log))
    assert [c.name for c in session.calls] == ["Bash"] and session.agents == []


def test_agents_whose_logs_are_gone_are_known_from_their_calls(claude_root: Path):
    t = Transcript("90e00000-0000-0000-0000-000000000001")
    t.user("go")
    by_field = t.tool_use("Agent", {"subagent_type": "Explore", "description": "by field", "prompt": "P1"})
    t.tick(20)
    t.tool_result(by_field, "ok", extra={"agentId": "f1e1d000", "status": "completed"})
    by_text = t.tool_use("Task", {"description": "by text", "prompt": "P2"})
    t.tick(5)
    t.tool_result(by_text, "done\nagentId: 7e7e7000 (use SendMessage)")
    pending = t.tool_use("Agent", {"description": "still running", "prompt": "P3"})
    t.write_session(claude_root)
    runs = {r.tool_use_id: r for r in agent_runs(claude_root, t.session_id)}
    assert (runs[by_field].agent_id, runs[by_field].agent_type, runs[by_field].duration_s) == (
        "f1e1d000",
        "Explore",
        21.0,
    )
    assert (runs[by_text].agent_id, runs[by_text].agent_type) == ("7e7e7000", "general-purpose")
    assert runs[pending].agent_id == pending and runs[pending].end is None
    assert not any(r.log_found for r in runs.values())


def test_a_meta_file_nested_1000_deep_is_no_meta_and_the_agent_is_still_read(claude_root: Path):
    parent = Transcript(cwd="/work/deep")
    parent.user("go")
    parent.write_session(claude_root)
    agent = Transcript(parent.session_id, cwd=parent.cwd, agent_id="adeep")
    agent.user("the deep agent's task")
    agent.say("done")
    path = agent.write_subagent(claude_root, parent, meta={})
    path.with_name("agent-adeep.meta.json").write_text('{"a":' * 1000 + "1" + "}" * 1000)
    [run] = agent_runs(claude_root, parent.session_id)
    assert run.agent_id == "adeep" and run.prompt == "the deep agent's task" and run.agent_type is None


def test_an_agent_log_repeated_into_itself_has_each_call_once(claude_root: Path):
    parent = Transcript(cwd="/work/rep")
    parent.user("go")
    parent.write_session(claude_root)
    agent = Transcript(parent.session_id, cwd=parent.cwd, agent_id="arep")
    agent.user("task")
    agent.bash("false", exit_code=1, stderr="no")
    path = agent.write_subagent(claude_root, parent, meta={})
    path.write_text(agent.text() * 3)
    [run] = agent_runs(claude_root, parent.session_id)
    assert len(run.calls) == 1 and len(run.failures) == 1
