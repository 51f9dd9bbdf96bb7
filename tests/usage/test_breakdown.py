"""One session's tokens: main conversation, each agent (nested ones rolled up into their
parent), agents known only from their Agent result, and the session's total."""

from __future__ import annotations

from pathlib import Path

from session_kit.queries.report import session_report
from session_kit.sessions.store import find_session_by_id
from tests.support.transcripts import Transcript

U = {"input_tokens": 100, "output_tokens": 10}


def spawn(t: Transcript, agent_id: str, *, usage: dict | None = None) -> str:
    call = t.tool_use("Agent", {"subagent_type": "Explore", "description": "look", "prompt": "look around"})
    extra = {"status": "completed", "agentId": agent_id, "content": [{"type": "text", "text": "done"}]}
    if usage is not None:
        extra.update({"usage": usage, "resolvedModel": "claude-opus-5-5", "totalTokens": 1})
    t.tool_result(call, "done", extra=extra)
    return call


def agent_log(agent_id: str, parent: Transcript, root: Path, *, parent_agent: str | None = None, output: int = 10):
    a = Transcript(parent.session_id, agent_id=agent_id)
    a.user("look around")
    a.assistant({"type": "text", "text": "done"}, usage={"input_tokens": 100, "output_tokens": output})
    meta = {"agentType": "Explore", "description": "look"}
    if parent_agent:
        meta["parentAgentId"] = parent_agent
    a.write_subagent(root, parent, meta=meta)
    return a


def test_a_session_counts_its_own_messages_and_each_agents_log(claude_root: Path):
    t = Transcript()
    t.user("go")
    t.assistant({"type": "text", "text": "x"}, usage=U)
    spawn(t, "aaa1")
    t.write_session(claude_root)
    agent_log("aaa1", t, claude_root, output=20)
    usage = session_report(find_session_by_id(claude_root, t.session_id)).usage
    assert usage.main.total.output == 5 + 10  # the tool_use message (builder default) and one of 10
    [agent] = usage.agents
    assert (agent.agent_id, agent.source, agent.own.total.output) == ("aaa1", "log", 20)
    assert usage.total.total.output == 35 and usage.total.total.messages == 3


def test_nested_agents_roll_up_into_their_parent_and_are_listed_apart(claude_root: Path):
    t = Transcript()
    t.user("go")
    spawn(t, "outer")
    t.write_session(claude_root)
    agent_log("outer", t, claude_root, output=10)
    agent_log("inner", t, claude_root, parent_agent="outer", output=7)
    usage = session_report(find_session_by_id(claude_root, t.session_id)).usage
    outer, inner = usage.of_agent("outer"), usage.of_agent("inner")
    assert (outer.own.total.output, inner.own.total.output) == (10, 7)
    assert outer.with_nested.total.output == 17 and inner.with_nested.total.output == 7
    assert usage.total.total.output == 5 + 10 + 7  # every agent once


def test_an_agent_whose_log_is_missing_counts_with_the_usage_its_result_reports(claude_root: Path):
    t = Transcript()
    t.user("go")
    spawn(t, "gone", usage={"input_tokens": 6804, "output_tokens": 21, "cache_read_input_tokens": 3})
    t.write_session(claude_root)
    usage = session_report(find_session_by_id(claude_root, t.session_id)).usage
    [agent] = usage.agents
    assert agent.source == "result" and agent.floor and agent.own.by_model[0][0] == "claude-opus-5-5"
    assert (agent.own.total.input, agent.own.total.output, agent.own.total.cache_read) == (6804, 21, 3)
    assert usage.as_dict()["agents"][0]["cost"]["complete"] is True


def test_an_agent_with_a_log_is_not_counted_again_from_its_result(claude_root: Path):
    t = Transcript()
    t.user("go")
    spawn(t, "aaa2", usage={"input_tokens": 999, "output_tokens": 999})
    t.write_session(claude_root)
    agent_log("aaa2", t, claude_root)
    usage = session_report(find_session_by_id(claude_root, t.session_id)).usage
    assert [(a.agent_id, a.source) for a in usage.agents] == [("aaa2", "log")]


def test_the_session_cost_names_the_models_without_a_price(claude_root: Path):
    t = Transcript()  # the builder's model is `claude-test`, which has no price
    t.user("go")
    t.say("x")
    t.write_session(claude_root)
    cost = session_report(find_session_by_id(claude_root, t.session_id)).usage.cost
    assert cost.unknown_models == ("claude-test",) and cost.usd == 0 and cost.display() == "?"


def test_an_inline_1_0_agents_lines_count_once_as_the_agents_not_the_main_conversations(claude_root: Path):
    t = Transcript()
    t.user("go")
    call = t.tool_use("Task", {"subagent_type": "general-purpose", "description": "d", "prompt": "look"})
    thread = t.inline_agent()
    thread.user("look")
    thread.assistant({"type": "text", "text": "found"}, usage={"input_tokens": 100, "output_tokens": 40})
    t.clock = thread.clock
    t.tool_result(call, "found")
    t.write_session(claude_root)
    usage = session_report(find_session_by_id(claude_root, t.session_id)).usage
    assert usage.main.total.output == 5  # the Task call's message only
    assert [a.own.total.output for a in usage.agents] == [40]
    assert usage.total.total.output == 45


def test_warmup_logs_are_billed_and_listed_as_warmups_not_agents(claude_root: Path):
    from tests.support import dialects

    two = dialects.legacy_2_0(claude_root)
    report = session_report(find_session_by_id(claude_root, two.session.session_id))
    warmups = [a for a in report.usage.agents if a.agent_type == "warmup"]
    assert sorted(a.agent_id for a in warmups) == sorted(two.warmups)
    assert {a.agent_id for a in report.agents}.isdisjoint(two.warmups)
    logged = sum(a.own.total.messages for a in report.usage.agents)
    assert report.usage.total.total.messages == report.usage.main.total.messages + logged
