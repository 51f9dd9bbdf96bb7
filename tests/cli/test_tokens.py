"""Tokens and cost as `show`, `info`, `debug-agent` and `sessions --tokens` print them."""

from __future__ import annotations

from pathlib import Path

from session_kit.cli.tokens import human_tokens
from tests.support.cli import invoke, invoke_json
from tests.support.transcripts import Transcript


def session_with_agent(root: Path) -> Transcript:
    t = Transcript()
    t.user("go")
    call = t.tool_use("Agent", {"subagent_type": "Explore", "description": "look", "prompt": "look"})
    t.tool_result(call, "done", extra={"agentId": "ag1", "status": "completed"})
    t.write_session(root)
    a = Transcript(t.session_id, agent_id="ag1")
    a.user("look")
    [line] = a.assistant({"type": "text", "text": "found"}, usage={"input_tokens": 1000, "output_tokens": 200})
    line["message"]["model"] = "claude-opus-5-5"
    a.write_subagent(root, t, meta={"agentType": "Explore", "description": "look"})
    return t


def test_show_prints_the_sessions_total_its_own_and_each_agents_tokens(claude_root: Path):
    t = session_with_agent(claude_root)
    out = invoke("show", t.session_id).stdout
    assert "  tokens:    2.3k tokens, $0.01+ (input 1.0k, output 205," in out  # 1115 (builder) + 1200
    assert "    main:    1.1k tokens, ? (" in out
    assert "    agent ag1: 1.2k tokens, $0.01 (input 1.0k, output 200," in out
    assert "no price for claude-test: left out of the cost" in out
    assert "    by model: claude-opus-5-5 1.2k, $0.01; claude-test 1.1k, ?" in out
    assert "ag1  [Explore] look  0 calls, 1.0s (from its call), finished, 1.2k tokens, $0.01" in out


def test_show_json_keeps_tokens_and_adds_usage_with_the_price_tables_date(claude_root: Path):
    t = session_with_agent(claude_root)
    doc = invoke_json("show", t.session_id)
    assert doc["tokens"]["output"] == 5 and doc["tokens"]["by_model"]["claude-test"]["messages"] == 1
    assert doc["usage"]["total"]["tokens"]["output"] == 205 and doc["usage"]["prices"]["date"] == "2026-11-23"
    assert doc["usage"]["agents"][0]["agent_id"] == "ag1" and doc["agents"][0]["tokens"]["output"] == 200


def test_info_prints_the_tokens_and_each_agents(claude_root: Path):
    t = session_with_agent(claude_root)
    out = invoke("info", t.session_id).stdout
    assert "  tokens:      2.3k tokens, $0.01+" in out and "1.2k tokens, $0.01" in out
    assert invoke_json("info", t.session_id)["usage"]["total"]["tokens"]["total"] == 2315


def test_debug_agent_prints_each_agents_tokens_and_cost(claude_root: Path):
    t = session_with_agent(claude_root)
    assert "  tokens: 1.2k tokens, $0.01" in invoke("debug-agent", t.session_id, "--all").stdout
    [agent] = invoke_json("debug-agent", t.session_id, "--all")["agents"]
    assert agent["usage"]["tokens"]["output"] == 200 and agent["usage"]["cost"]["complete"] is True


def test_sessions_tokens_adds_a_tokens_and_a_cost_column(claude_root: Path):
    t = session_with_agent(claude_root)
    lines = invoke("sessions", "--all", "--tokens").stdout.splitlines()
    assert "TOKENS" in lines[0] and "COST" in lines[0]
    assert lines[1].startswith(t.session_id) and " 2.3k " in lines[1] and "$0.01+" in lines[1]
    [row] = invoke_json("sessions", "--all", "--tokens")["sessions"]
    assert row["tokens"]["total"] == 2315 and row["cost"]["unknown_models"] == ["claude-test"]


def test_sessions_without_tokens_has_no_tokens_column(claude_root: Path):
    session_with_agent(claude_root)
    assert "TOKENS" not in invoke("sessions", "--all").stdout
    assert "tokens" not in invoke_json("sessions", "--all")["sessions"][0]


def test_token_counts_read_short():
    assert [human_tokens(n) for n in (950, 12_345, 999_960, 16_526_897)] == ["950", "12.3k", "1.0M", "16.5M"]


def test_show_prints_every_token_figure_in_the_same_units(claude_root: Path):
    t = Transcript()
    t.user("go")
    t.assistant({"type": "text", "text": "ok"}, usage={"input_tokens": 16_526_000, "cache_read_input_tokens": 313_200})
    t.write_session(claude_root)
    [line] = [x for x in invoke("show", t.session_id).stdout.splitlines() if x.startswith("  tokens:")]
    assert "16.8M tokens" in line and "input 16.5M" in line and "cache read 313.2k" in line
    assert not any(len(word) > 6 and word.strip(",()").isdigit() for word in line.split())
