"""`session-kit agents`: each subagent of a session as it is now, from the agent model (the
transcript and the logs) and the hooks' live record together."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from session_kit.errors import KitError
from session_kit.queries.live_agents import live_agents, parse_threshold
from session_kit.sessions.resolve import resolve_session
from session_kit.state import live_agents as live
from session_kit.state.scratch import SessionScratch
from tests.support.cli import invoke, invoke_json
from tests.support.transcripts import Transcript

SID = "5e55101d-aaaa-bbbb-cccc-000000000002"


def _launch(t: Transcript, agent_id: str, description: str) -> None:
    call = t.tool_use(
        "Agent",
        {"subagent_type": "Explore", "description": description, "prompt": description, "run_in_background": True},
    )
    t.tool_result(
        call,
        f"Async agent launched successfully.\nagentId: {agent_id} (use it to check on the agent)",
        extra={"status": "async_launched", "agentId": agent_id, "description": description},
    )


def _log(root: Path, t: Transcript, agent_id: str, description: str, *, answer: str | None, mtime: float) -> Path:
    a = Transcript(t.session_id, agent_id=agent_id, start=t.clock)
    a.user(description)
    a.bash(f"grep -rn parser src/{agent_id}", "12: parser")
    if answer:
        a.say(answer)
    path = a.write_subagent(root, t, meta={"agentType": "Explore", "description": description})
    os.utime(path, (mtime, mtime))
    return path


@pytest.fixture
def three_agents(claude_root: Path) -> dict:
    """Three background agents: `done` told SubagentStop its last message; `quiet` has not
    written for 20 minutes; `busy` wrote a second ago. The hooks saw all three start."""
    now = time.time()
    t = Transcript(SID, cwd="/work/proj")
    t.user("look at the parser three ways")
    for agent_id, what in (("done1", "Find the parser"), ("quiet2", "Read the lexer"), ("busy3", "Run the suite")):
        _launch(t, agent_id, what)
    t.say("They run; I will wait.")
    t.write_session(claude_root)
    _log(claude_root, t, "done1", "Find the parser", answer="The parser is in src/parse.py.", mtime=now - 30)
    _log(claude_root, t, "quiet2", "Read the lexer", answer=None, mtime=now - 1200)
    _log(claude_root, t, "busy3", "Run the suite", answer=None, mtime=now - 1)
    scratch = SessionScratch.for_session(SID, project_path="/work/proj").create()
    for agent_id in ("done1", "quiet2", "busy3"):
        live.record_start(scratch.path, agent_id, agent_type="Explore")
    live.record_stop(
        scratch.path, "done1", agent_type="Explore", log=None, last_message="Found it: src/parse.py, line 40."
    )
    return {"root": claude_root, "now": now, "scratch": scratch}


def by_id(report: dict) -> dict:
    return {a["agent_id"]: a for a in report["agents"]}


def test_agents_shows_finished_with_its_last_message_stalled_for_a_silent_one_and_running_otherwise(three_agents):
    report = invoke_json("agents", SID)
    assert report["kind"] == "agents" and report["hooks_seen"] is True
    agents = by_id(report)
    assert agents["done1"]["status"] == "finished"
    assert agents["done1"]["last_message"] == "Found it: src/parse.py, line 40."
    assert agents["done1"]["last_message_source"] == "hooks"
    assert agents["quiet2"]["status"] == "stalled" and agents["quiet2"]["idle_s"] >= 1199
    assert agents["busy3"]["status"] == "running"
    assert agents["busy3"]["doing"].startswith("Bash: grep -rn parser src/busy3")
    assert agents["busy3"]["tokens"] == 1115 and agents["busy3"]["type"] == "Explore"
    assert report["counts"] == {"running": 1, "stalled": 1, "finished": 1, "failed": 0, "stopped": 0, "unknown": 0}


def test_the_stall_threshold_is_the_callers_to_choose(three_agents):
    agents = by_id(invoke_json("agents", SID, "--stalled-after", "30m"))
    assert agents["quiet2"]["status"] == "running"
    agents = by_id(invoke_json("agents", SID, "--stalled-after", "0.5s"))
    assert agents["busy3"]["status"] == "stalled" and agents["done1"]["status"] == "finished"


def test_an_agent_the_hooks_saw_start_before_its_log_exists_is_running(three_agents):
    live.record_start(three_agents["scratch"].path, "fresh4", agent_type="Plan")
    agent = by_id(invoke_json("agents", SID))["fresh4"]
    assert agent["status"] == "running" and agent["type"] == "Plan" and agent["sources"] == ["hooks"]


def test_without_the_hooks_the_logs_alone_tell_running_from_stalled(claude_root: Path):
    now = time.time()
    t = Transcript(SID, cwd="/work/proj")
    t.user("go")
    _launch(t, "solo5", "Read the lexer")
    t.write_session(claude_root)
    _log(claude_root, t, "solo5", "Read the lexer", answer=None, mtime=now - 1200)
    report = live_agents(resolve_session(SID, claude_root), state_root=os.environ["SESSION_KIT_HOME"])
    assert report.hooks_seen is False and [a.status for a in report.agents] == ["stalled"]


def test_an_agent_over_its_budget_says_so_with_the_calls_denied(three_agents):
    env = {"SESSION_KIT_AGENT_BUDGET": "1000"}
    before = by_id(invoke_json("agents", SID, env=env))
    assert before["busy3"]["over_budget"] is True and before["busy3"]["denied_calls"] == 0  # 1,115 tokens
    assert by_id(invoke_json("agents", SID))["busy3"]["budget"] is None
    live.record_denied(three_agents["scratch"].path, "busy3", agent_type="Explore", budget=1000, tokens=1115)
    agent = by_id(invoke_json("agents", SID, env=env))["busy3"]
    assert agent["budget"] == 1000 and agent["over_budget"] is True and agent["denied_calls"] == 1
    text = invoke("agents", SID, env=env).stdout
    assert "over budget" in text and "1 call denied" in text
    # one readable figure, in human units (issue 40: it read `1.1k/1.0k over budget, 1 call denied tok`)
    assert "1.1k of 1.0k tokens (over budget; 1 call denied)" in text


def test_a_malformed_agent_budget_is_one_note_on_stderr_and_no_budget(three_agents):
    result = invoke("agents", SID, env={"SESSION_KIT_AGENT_BUDGET": "0x10"})
    assert result.exit_code == 0
    assert result.stderr.count("SESSION_KIT_AGENT_BUDGET = '0x10' is no budget") == 1
    assert all(
        a["budget"] is None for a in invoke_json("agents", SID, env={"SESSION_KIT_AGENT_BUDGET": "0x10"})["agents"]
    )


def test_the_text_names_each_status_and_the_finished_agents_last_message(three_agents):
    result = invoke("agents", SID)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "3 agents · 1 running · 1 stalled · 1 finished" in out
    assert "stalled 20m" in out and "last: Found it: src/parse.py, line 40." in out
    assert "now: Bash: grep -rn parser src/busy3" in out


@pytest.mark.parametrize(
    ("text", "seconds"), [("10", 600.0), ("0.5", 30.0), ("30s", 30.0), ("2m", 120.0), ("1h", 3600.0)]
)
def test_a_stall_threshold_reads_as_minutes_or_with_a_unit(text: str, seconds: float):
    assert parse_threshold(text) == seconds


@pytest.mark.parametrize("text", ["0", "-1", "soon", "nan", "inf"])
def test_a_threshold_that_is_no_positive_time_is_refused_in_one_line(three_agents, text: str):
    with pytest.raises(KitError):
        parse_threshold(text)
    result = invoke("agents", SID, "--stalled-after", text)
    assert result.exit_code == 2 and "--stalled-after" in result.stderr and "Traceback" not in result.output


@pytest.mark.parametrize(
    "denied", ['"many"', "Infinity", "-Infinity", "NaN", "1e400", "-3", "true", "[1]", "{}", "100000000000000000000"]
)
def test_a_hand_corrupted_live_record_field_is_dropped_never_an_error(three_agents, denied: str):
    path = Path(live.live_path(three_agents["scratch"].path))
    record = path.read_text()
    corrupt = record.replace('"busy3": {', f'"busy3": {{"denied": {{"calls": {denied}, "tokens": "x"}}, ', 1)
    corrupt = corrupt.replace('"quiet2": {', '"quiet2": {"started": 7, "type": ["Explore"], ', 1)
    assert corrupt != record
    path.write_text(corrupt)
    for args in (("agents", SID, "--json"), ("agents", SID)):
        result = invoke(*args, env={"SESSION_KIT_AGENT_BUDGET": "1000"})
        assert result.exit_code == 0, result.output
    agents = by_id(invoke_json("agents", SID))
    assert agents["busy3"]["denied_calls"] == 0 and agents["quiet2"]["status"] in ("stalled", "running")
    live.record_denied(three_agents["scratch"].path, "busy3", agent_type="Explore", budget=1000, tokens=1115)
    assert by_id(invoke_json("agents", SID))["busy3"]["denied_calls"] == 1
