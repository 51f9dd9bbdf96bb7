"""An agent log read as a session (`show`, `preprocess`, a `search` hit's hint) and the one
linking of agents to their calls (`events` and `show` name the same agent)."""

from __future__ import annotations

from pathlib import Path

from tests.support import dialects
from tests.support.cli import invoke, invoke_json
from tests.support.transcripts import Transcript

USAGE = {"input_tokens": 300, "output_tokens": 40, "cache_read_input_tokens": 2000}


def _session_with_agent_log(root: Path, **prompt_fields) -> tuple[Transcript, Path]:
    t = Transcript()
    t.user("Look into the parser")
    call = t.tool_use("Agent", {"subagent_type": "Explore", "description": "look", "prompt": "Look at src and report"})
    a = Transcript(t.session_id, agent_id="a5c0de", start=t.clock)
    a.user("Look at src and report", **prompt_fields)
    read = a.tool_use("Read", {"file_path": "/work/proj/src/parser.py"})
    a.tool_result(read, "def parse(): ...")
    [line] = a.say("Report: the parser is fine.")
    line["message"]["usage"] = dict(USAGE)
    t.tool_result(call, "Report: the parser is fine.", extra={"agentId": "a5c0de", "status": "completed"})
    t.write_session(root)
    return t, a.write_subagent(root, t, meta={"agentType": "Explore", "description": "look"})


def test_show_counts_the_tokens_of_an_agent_log_named_as_the_session(claude_root: Path):
    _, log = _session_with_agent_log(claude_root)
    tokens = invoke_json("show", str(log))["tokens"]
    # two API messages of the builder's default usage, and the last one's own
    assert (tokens["input"], tokens["output"], tokens["messages"]) == (10 + 300, 5 + 40, 2)


def test_preprocess_reads_an_agent_log_whose_prompt_the_client_marked_as_its_own(claude_root: Path):
    # The agent's prompt is its log's first user entry, whatever origin the client gives it.
    _, log = _session_with_agent_log(claude_root, origin={"kind": "agent"}, promptSource="system")
    result = invoke("preprocess", str(log), "--stdout")
    assert result.exit_code == 0, result.stderr
    assert "Look at src and report" in result.stdout and "Report: the parser is fine." in result.stdout


def test_events_and_show_link_a_1_0_inline_agent_to_its_task_call_alike(claude_root: Path):
    one = dialects.inline_1_0(claude_root)
    sid = one.session.session_id
    agents = {a["tool_use_id"]: a["agent_id"] for a in invoke_json("show", sid)["agents"]}
    for with_agents in ((), ("--main-only",)):
        events = invoke_json("events", sid, *with_agents)["events"]
        tasks = {e["id"]: e["spawned_agent_id"] for e in events if e["name"] == "Task"}
        assert tasks == agents and None not in tasks.values()


def test_a_search_hit_in_an_orphan_agent_log_offers_a_command_that_works(claude_root: Path, tmp_path: Path):
    odd = dialects.odd_files(claude_root, tmp_path)
    hits = invoke_json("search", "ORPHAN_SUBAGENT_NEEDLE", "--all")["hits"]
    assert hits, "the orphan log is found"
    for hit in hits:
        command = hit["resume"]
        assert "session-kit restore" not in command  # nothing was archived: restore would exit 3
        assert command.startswith("session-kit show ") and str(odd.orphan_subagent) in command
        assert invoke("show", str(odd.orphan_subagent)).exit_code == 0
