"""A small Claude root with one rich session per layout, shared by the report, search and CLI tests."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from transcripts import Transcript


@dataclass
class Built:
    root: Path
    current: Transcript  # current layout: subagents/ + meta, Agent tool, compaction
    legacy: Transcript  # 2025 layout: agent-*.jsonl beside, Task tool, summary entry
    plan_agent: str
    worker_agent: str
    legacy_agent: str


def build(root: Path) -> Built:
    t = Transcript("c0ffee00-1111-2222-3333-444455556666", cwd="/work/proj", branch="feat/kit")
    t.noise("attachment", size=3000)
    t.noise("queue-operation")
    t.user("Please build the feature")
    t.bash("echo hello", "hello\n")
    t.bash("ls /nonexistent-dir", exit_code=2, stderr="ls: cannot access '/nonexistent-dir': No such file or directory")
    w = t.tool_use("Write", {"file_path": "/work/proj/notes.txt", "content": "alpha beta\n"})
    t.tool_result(w, "File created successfully at: /work/proj/notes.txt", extra={"type": "create"})
    r = t.tool_use("Read", {"file_path": "/work/proj/notes.txt"})
    t.tool_result(r, "     1\talpha beta\n", extra={"type": "text"})
    e = t.tool_use("Edit", {"file_path": "/work/proj/notes.txt", "old_string": "beta", "new_string": "gamma"})
    t.tool_result(e, "The file has been updated.", extra={"filePath": "/work/proj/notes.txt"})
    plan_call = t.tool_use("Agent", {"subagent_type": "Plan", "description": "Plan the feature", "prompt": "Make a plan for the feature"})
    plan = Transcript(t.session_id, cwd=t.cwd, agent_id="a11ce0000000plan", start=t.clock)
    plan.user("Make a plan for the feature")
    plan.say("1. Do A\n2. Do B")
    t.clock = plan.clock
    t.tool_result(plan_call, [{"type": "text", "text": "1. Do A\n2. Do B"}], extra={"agentId": "a11ce0000000plan", "status": "completed"})
    work_call = t.tool_use("Agent", {"subagent_type": "general-purpose", "description": "Run the checks", "prompt": "Run the checks please"})
    worker = Transcript(t.session_id, cwd=t.cwd, agent_id="b0b000000000work", start=t.clock)
    worker.user("Run the checks please")
    worker.bash("make check", exit_code=3, stderr="make: *** [check] Error 3 SENTINEL_FAILURE")
    worker.say("The checks failed with exit code 3.")
    t.clock = worker.clock
    t.tool_result(work_call, [{"type": "text", "text": "The checks failed with exit code 3."}], extra={"agentId": "b0b000000000work", "status": "completed"})
    t.tool_use("ExitPlanMode", {"plan": "# The Plan\n\nDo A, then B."})
    t.compact("Summary: the feature was planned; checks failed.")
    t.user("Go on after compaction")
    t.say("Continuing.")
    t.write_session(root)
    plan.write_subagent(root, t, meta={"agentType": "Plan", "description": "Plan the feature", "toolUseId": plan_call, "spawnDepth": 1})
    worker.write_subagent(root, t, meta={"agentType": "general-purpose", "description": "Run the checks", "toolUseId": work_call, "spawnDepth": 1})

    old = Transcript("0ld5e551-0000-0000-0000-000000000000", cwd="/work/old", branch="main")
    old.summary_2025("Earlier: explored the repo")
    old.raw({"type": "file-history-snapshot", "messageId": "m", "snapshot": {}})
    old.user("Explore the old code")
    task = old.tool_use("Task", {"subagent_type": "Explore", "description": "Explore code", "prompt": "Find the parser"})
    explorer = Transcript(old.session_id, cwd=old.cwd, agent_id="e4c0de01", start=old.clock)
    explorer.user("Find the parser")
    explorer.bash("grep -rn parse src", "src/parser.py:1:def parse")
    explorer.say("The parser is in src/parser.py")
    old.clock = explorer.clock
    old.tool_result(task, "The parser is in src/parser.py")
    old.write_session(root)
    explorer.write_legacy_agent(root, old)
    return Built(root, t, old, "a11ce0000000plan", "b0b000000000work", "e4c0de01")
