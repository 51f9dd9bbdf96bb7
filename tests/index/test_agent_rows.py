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


def _exported(root: Path, out: Path) -> set[tuple[str, str]]:
    invoke_json("export", "--output-dir", str(out))
    return {(r["session"], r["agent_id"]) for r in map(json.loads, (out / "agents.jsonl").read_text().splitlines())}


def test_a_session_file_holding_only_an_agents_thread_has_that_agent_as_show_lists_it(
    claude_root: Path, tmp_path: Path
):
    agent = Transcript("s-only-thread", agent_id="e1c84ba5", version="2.0.46")
    agent.user("Find the parser")
    agent.tool_use("Grep", {"pattern": "def parse"})
    agent.say("It is in parser.py.")
    agent.write_session(claude_root)
    shown = invoke_json("show", "s-only-thread")["agents"]
    assert [a["agent_id"] for a in shown] == ["e1c84ba5"]
    assert _exported(claude_root, tmp_path / "export") == {("s-only-thread", "e1c84ba5")}


def test_an_inline_thread_written_after_the_main_conversation_adds_no_agent_of_its_own(
    claude_root: Path, tmp_path: Path
):
    # 1.0.x: the thread's row is its Task call's; an update that starts mid-thread adds none.
    t = Transcript("s-inline", version="1.0.98")
    t.user("Look into the parser")
    task = t.tool_use("Task", {"description": "Find it", "prompt": "Find it"})
    path = t.write_session(claude_root)
    assert _exported(claude_root, tmp_path / "first") == {("s-inline", task)}
    thread = t.inline_agent()
    thread.user("Find it")
    thread.say("In parser.py.")
    t.clock = thread.clock
    t.tool_result(task, "In parser.py.")
    t.write(path)
    assert _exported(claude_root, tmp_path / "second") == {("s-inline", task)}
