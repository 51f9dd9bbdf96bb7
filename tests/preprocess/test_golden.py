"""The XML and the reduction report of one rich hand-made session, pinned byte for byte.

The expected files in `golden/` were written by the code before the preprocess package was
split into steps, units, renderers and sinks: they prove that split changed no output. After a
change of output made on purpose, rewrite them with `UPDATE_GOLDEN=1` and review the diff.
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

from session_kit.preprocess import PreprocessOptions, preprocess_session
from session_kit.sessions.store import session_ref_from_path
from tests.support.transcripts import Transcript

GOLDEN = Path(__file__).parent / "golden"
SESSION = "901d0000-aaaa-bbbb-cccc-000000000001"
LONG_OUTPUT = "\n".join(f"line {n}" + (" ERROR: disk full" if n in (45, 70) else "") for n in range(1, 90))
DOC = "# Project guide\n" + "Always run the tests before you commit. " * 10


def build_rich(root: Path) -> Path:
    """A session with both agent layouts, an agent started by an agent, a compaction, errors,
    secrets, noise, a foreign line, a bad line and every element kind; ids fixed."""
    t = Transcript(SESSION, cwd="/work/rich", branch="feat/golden")
    t.noise("attachment", size=500)
    t.user("Build it. Guide follows.")
    t.user(DOC)
    t.assistant(
        {"type": "thinking", "thinking": "Let me think about <this> & that."},
        {"type": "text", "text": "I will look first."},
        {"type": "tool_use", "id": "toolu_g01", "name": "Bash", "input": {"command": "ls ~/.claude/projects"}},
    )
    t.tool_result("toolu_g01", "-work-rich\n")
    t.assistant(
        {"type": "tool_use", "id": "toolu_g02", "name": "Bash", "input": {"command": "make test", "description": "run"}}
    )
    t.tool_result("toolu_g02", LONG_OUTPUT, extra={"stdout": LONG_OUTPUT, "stderr": "", "interrupted": False})
    t.assistant({"type": "tool_use", "id": "toolu_g03", "name": "Bash", "input": {"command": "make lint"}})
    t.tool_result("toolu_g03", "Exit code 2\nlint: 3 problems <E501>", is_error=True, extra="Error: Exit code 2")
    t.assistant(
        {
            "type": "tool_use",
            "id": "toolu_g04",
            "name": "Edit",
            "input": {"file_path": "/work/rich/" + "deep/" * 50 + "x.py", "old_string": "a" * 300, "new_string": "b"},
        }
    )
    t.tool_result("toolu_g04", "<tool_use_error>String not found in file.</tool_use_error>", is_error=True)
    t.assistant(
        {
            "type": "tool_use",
            "id": "toolu_g05",
            "name": "Login",
            "input": {"user": "ann", "password": "hunter22", "retries": 3},
        }
    )
    t.tool_result("toolu_g05", "ok")
    t.assistant({"type": "tool_use", "id": "toolu_g06", "name": "Bash", "input": {"command": "cat .env"}})
    t.tool_result(
        "toolu_g06", "OPENAI_API_KEY=sk-proj-4fT9kQ2wX7mN1pR8sV3yB6cH0jL5dG2e\nbell\x07 esc\x1b[0m ]]> & done"
    )
    t.say("Same words.")
    t.assistant(
        {"type": "text", "text": "Same words."},
        {"type": "tool_use", "id": "toolu_g07", "name": "Read", "input": {"file_path": "/work/rich/a.py"}},
    )
    t.tool_result("toolu_g07", [{"type": "text", "text": "     1\tprint('a')"}, {"type": "image", "source": {}}])
    t.assistant({"type": "image", "source": {}}, {"type": "mystery_block", "data": "?"})
    t.user(DOC)
    t.user("<command-name>/review</command-name>\n<command-args>now</command-args>")
    t.user("<local-command-stdout>reviewed</local-command-stdout>")
    t.user("<task-notification>agent done</task-notification>")
    # current layout: a Plan agent, and an outer agent that starts an inner one
    t.assistant(
        {
            "type": "tool_use",
            "id": "toolu_g10",
            "name": "Agent",
            "input": {"subagent_type": "Plan", "description": "Plan <it>", "prompt": "Plan it"},
        }
    )
    plan = Transcript(SESSION, cwd=t.cwd, agent_id="a9010000000plan", start=t.clock)
    plan.user("Plan it")
    plan.say("1. A\n2. B")
    t.clock = plan.clock
    t.tool_result(
        "toolu_g10",
        [{"type": "text", "text": "1. A\n2. B"}],
        extra={"agentId": "a9010000000plan", "status": "completed"},
    )
    t.assistant(
        {
            "type": "tool_use",
            "id": "toolu_g11",
            "name": "Agent",
            "input": {"description": "Outer work AKIAIOSFODNN7Q7ZK2MX", "prompt": "Do the work"},
        }
    )
    outer = Transcript(SESSION, cwd=t.cwd, agent_id="a9010000000outer", start=t.clock)
    outer.user("Do the work")
    outer.assistant({"type": "tool_use", "id": "toolu_g14", "name": "Bash", "input": {"command": "make it"}})
    outer.tool_result("toolu_g14", "Exit code 7\nmake: *** failed", is_error=True, extra="Error: Exit code 7")
    outer.assistant(
        {
            "type": "tool_use",
            "id": "toolu_g12",
            "name": "Agent",
            "input": {"subagent_type": "Explore", "description": "Inner look", "prompt": "Look"},
        }
    )
    inner = Transcript(SESSION, cwd=t.cwd, agent_id="a9010000000inner", start=outer.clock)
    inner.user("Look")
    inner.say("Inner report.")
    outer.clock = inner.clock
    outer.tool_result("toolu_g12", [{"type": "text", "text": "Inner report."}])
    outer.say("Outer report.")
    t.clock = outer.clock
    t.tool_result(
        "toolu_g11",
        [{"type": "text", "text": "Outer report."}],
        extra={"agentId": "a9010000000outer", "status": "completed"},
    )
    # 2025 layout: an agent log beside the sessions, linked by time
    t.assistant(
        {
            "type": "tool_use",
            "id": "toolu_g13",
            "name": "Task",
            "input": {"subagent_type": "Explore", "description": "Old way", "prompt": "Find it"},
        }
    )
    legacy = Transcript(SESSION, cwd=t.cwd, agent_id="9010dead", start=t.clock)
    legacy.user("Find it")
    legacy.say("Found it.")
    t.clock = legacy.clock
    t.tool_result("toolu_g13", "Found it.")
    t.raw(
        {
            "type": "system",
            "subtype": "informational",
            "level": "warning",
            "content": "Low <disk>",
            "sessionId": SESSION,
            "timestamp": "2026-11-01T09:10:00Z",
        }
    )
    t.raw({"type": "system", "subtype": "turn_duration", "sessionId": SESSION, "timestamp": "2026-11-01T09:10:01Z"})
    t.raw(
        {
            "type": "user",
            "sessionId": "0ther000-0000-0000-0000-000000000000",
            "message": {"role": "user", "content": "FOREIGN"},
        }
    )
    t.raw({"type": "mystery-entry", "sessionId": SESSION, "payload": {"a": 1}})
    t.compact("Summary: planned, linted, failed once.")
    t.raw({"type": "summary", "summary": "Earlier work", "leafUuid": "leaf-0001"})
    t.user("Go on")
    t.say("Continuing. Contact ann@example.com, key AKIAIOSFODNN7Q7ZK2MX.")
    path = t.write_session(root)
    path.write_bytes(path.read_bytes() + b'{"type": "user", "broken\n')
    plan.write_subagent(
        root, t, meta={"agentType": "Plan", "description": "Plan <it>", "toolUseId": "toolu_g10", "spawnDepth": 1}
    )
    outer.write_subagent(root, t, meta={"toolUseId": "toolu_g11", "spawnDepth": 1})
    inner.write_subagent(
        root,
        t,
        meta={
            "agentType": "Explore",
            "description": "Inner look",
            "toolUseId": "toolu_g12",
            "parentAgentId": "a9010000000outer",
            "spawnDepth": 2,
        },
    )
    legacy.write_legacy_agent(root, t)
    return path


CASES = {
    "parts": {"max_tokens": 300},
    "whole": {},
    "nofilter": {"filtering": False, "thinking": True, "redact": False},
}


def _outputs(root: Path, tmp_path: Path) -> dict[str, str]:
    ref = session_ref_from_path(build_rich(root))
    out: dict[str, str] = {}
    for case, options in CASES.items():
        result = preprocess_session(ref, PreprocessOptions(output_dir=tmp_path / case, **options))
        for doc in result.documents:
            out[f"{case}-{doc.path.name}"] = doc.path.read_text(encoding="utf-8")
        report = result.as_dict()
        facts = {k: report[k] for k in ("status", "reduction", "redactions", "read")}
        facts["agents"] = [{k: v for k, v in a.items() if k != "path"} for a in report["agents"]]
        facts["documents"] = [{k: v for k, v in d.items() if k != "path"} for d in report["documents"]]
        out[f"{case}-report.json"] = json.dumps(facts, indent=1, sort_keys=True) + "\n"
    stream = io.StringIO()
    preprocess_session(ref, PreprocessOptions(to_stdout=True), stream=stream)
    out["stdout.xml"] = stream.getvalue()
    return out


def test_rich_session_output_is_pinned_byte_for_byte(claude_root: Path, tmp_path: Path):
    outputs = _outputs(claude_root, tmp_path)
    if os.environ.get("UPDATE_GOLDEN"):
        for old in GOLDEN.glob("*"):
            old.unlink()
        for name, text in outputs.items():
            (GOLDEN / name).write_text(text, encoding="utf-8", newline="\n")
    expected = {p.name: p.read_text(encoding="utf-8") for p in sorted(GOLDEN.glob("*"))}
    assert sorted(outputs) == sorted(expected)
    for name, text in outputs.items():
        assert text == expected[name], name
