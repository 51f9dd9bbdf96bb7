"""The index's `agents` table lists a session's agents as `debug-agent` does: an agent whose log
has no meta file is typed from its spawning call (so `search --agent TYPE` finds it), an agent
whose log is gone still has its row, and a call that started nothing has none."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.cli import invoke_json
from tests.support.transcripts import Transcript


def _session(root: Path) -> Transcript:
    t = Transcript(version="2.1.330")
    t.user("Look into the parser")
    no_meta = t.tool_use("Agent", {"subagent_type": "Explore", "description": "Find it", "prompt": "Find it"})
    a = Transcript(t.session_id, agent_id="a0meta0001", start=t.clock)
    a.user("Find it")
    a.say("NEEDLE_in_the_log: the parser drops the last token.")
    a.write_subagent(root, t)  # no .meta.json: its type is its call's
    t.clock = a.clock
    t.tool_result(no_meta, "Found it.", extra={"status": "completed", "agentId": "a0meta0001"})
    gone = t.tool_use("Agent", {"subagent_type": "Plan", "description": "Plan it", "prompt": "Plan it"})
    t.tool_result(gone, "The plan.", extra={"status": "completed", "agentId": "g0ne0002", "totalToolUseCount": 3})
    refused = t.tool_use("Task", {"description": "No prompt"})
    t.tool_result(refused, "<tool_use_error>InputValidationError: prompt is missing</tool_use_error>", is_error=True)
    t.say("Done.")
    t.write_session(root)
    return t


def test_search_by_agent_type_finds_an_agent_whose_log_has_no_meta_file(claude_root: Path):
    _session(claude_root)
    assert invoke_json("search", "NEEDLE_in_the_log", "--all", "--agent", "Explore")["total"] == 1
    assert invoke_json("search", "NEEDLE_in_the_log", "--all", "--agent", "Plan")["total"] == 0


def test_export_lists_the_agents_debug_agent_lists_logs_gone_included(claude_root: Path, tmp_path: Path):
    t = _session(claude_root)
    out = tmp_path / "export"
    invoke_json("export", "--output-dir", str(out))
    rows = [json.loads(line) for line in (out / "agents.jsonl").read_text().splitlines()]
    exported = {(r["agent_id"], r["type"], r["path"] is not None, r["tool_use_id"] is not None) for r in rows}
    assert exported == {("a0meta0001", "Explore", True, True), ("g0ne0002", "Plan", False, True)}
    debugged = invoke_json("debug-agent", t.session_id, "--all")["agents"]
    assert {(a["agent_id"], a["type"]) for a in debugged} == {(r[0], r[1]) for r in exported}
    [session] = [json.loads(line) for line in (out / "sessions.jsonl").read_text().splitlines()]
    assert session["agents"] == 2
