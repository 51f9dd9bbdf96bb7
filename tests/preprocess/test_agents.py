"""Agent logs tied to the calls that spawned them, through the one linker, as they are converted."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from pathlib import Path

from session_kit.preprocess import PreprocessOptions, PreprocessResult, preprocess_session
from session_kit.sessions.store import session_ref_from_path
from tests.support.transcripts import Transcript


def run(t: Transcript, root: Path, out: Path) -> PreprocessResult:
    ref = session_ref_from_path(t.write_session(root))
    return preprocess_session(ref, PreprocessOptions(output_dir=out))


def agent_root(result: PreprocessResult, agent_id: str) -> ET.Element:
    (doc,) = [d for d in result.documents if d.agent_id == agent_id]
    return ET.fromstring(doc.path.read_bytes())


def test_a_2025_agent_is_linked_by_the_agent_id_its_spawning_call_returned(claude_root: Path, tmp_path: Path):
    # Fixed on purpose: the agent id used to be put in the call's `agent_id` (the agent whose
    # log holds the call), so the linker neither found it by `toolUseResult.agentId` nor let
    # the agent take it by time: the agent came out without type, description or call.
    t = Transcript(cwd="/work/link")
    t.user("Look around please")
    t.say("Starting an agent.")
    call = t.tool_use("Task", {"subagent_type": "Explore", "description": "Look around", "prompt": "Look"})
    agent = Transcript(t.session_id, cwd=t.cwd, agent_id="1d0f2025", start=t.clock)
    agent.user("Look")
    agent.say("Looked.")
    t.clock = agent.clock
    t.tool_result(call, "Looked.", extra={"agentId": "1d0f2025", "status": "completed"})
    agent.write_legacy_agent(claude_root, t)
    result = run(t, claude_root, tmp_path)
    (info,) = result.agents
    assert (info.agent_type, info.description, info.tool_use_id) == ("Explore", "Look around", call)
    root = agent_root(result, "1d0f2025")
    assert (root.get("type"), root.get("tool_use_id"), root.get("layout")) == ("Explore", call, "legacy")


def test_an_agent_started_by_an_agent_is_linked_to_the_call_in_its_parents_log(claude_root: Path, tmp_path: Path):
    # Fixed on purpose: only the main conversation's calls used to be offered to the linker.
    t = Transcript(cwd="/work/nest")
    t.user("Do the big job")
    t.say("Delegating.")
    outer_call = t.tool_use("Task", {"subagent_type": "general-purpose", "description": "Big job", "prompt": "Do it"})
    outer = Transcript(t.session_id, cwd=t.cwd, agent_id="00de2025", start=t.clock)
    outer.user("Do it")
    inner_call = outer.tool_use("Task", {"subagent_type": "Explore", "description": "Small part", "prompt": "Part"})
    inner = Transcript(t.session_id, cwd=t.cwd, agent_id="11de2025", start=outer.clock)
    inner.user("Part")
    inner.say("Part done.")
    outer.clock = inner.clock
    outer.tool_result(inner_call, "Part done.")
    outer.say("Job done.")
    t.clock = outer.clock
    t.tool_result(outer_call, "Job done.")
    outer.write_legacy_agent(claude_root, t)
    inner.write_legacy_agent(claude_root, t)
    result = run(t, claude_root, tmp_path)
    by_id = {a.agent_id: a for a in result.agents}
    assert [a.agent_id for a in result.agents] == ["00de2025", "11de2025"]  # start order
    assert (by_id["00de2025"].agent_type, by_id["00de2025"].tool_use_id) == ("general-purpose", outer_call)
    assert (by_id["11de2025"].agent_type, by_id["11de2025"].description, by_id["11de2025"].tool_use_id) == (
        "Explore",
        "Small part",
        inner_call,
    )
    assert agent_root(result, "11de2025").get("tool_use_id") == inner_call


def test_the_meta_file_wins_over_the_call_and_a_call_is_taken_once(claude_root: Path, tmp_path: Path):
    t = Transcript(cwd="/work/meta")
    t.user("Two agents")
    t.say("Starting them.")
    first = t.tool_use("Agent", {"subagent_type": "Plan", "description": "From the call", "prompt": "P"})
    plan = Transcript(t.session_id, cwd=t.cwd, agent_id="a0000000000meta1", start=t.clock)
    plan.user("P")
    plan.say("Planned.")
    t.clock = plan.clock
    t.tool_result(first, "Planned.")
    plan.write_subagent(claude_root, t, meta={"agentType": "Plan", "description": "From the meta", "toolUseId": first})
    stray = Transcript(t.session_id, cwd=t.cwd, agent_id="a0000000000meta2", start=plan.clock)
    stray.user("Q")
    stray.say("Nobody started me.")
    stray.write_subagent(claude_root, t)
    result = run(t, claude_root, tmp_path)
    by_id = {a.agent_id: a for a in result.agents}
    assert (by_id["a0000000000meta1"].description, by_id["a0000000000meta1"].tool_use_id) == ("From the meta", first)
    # the only call was named by a meta file: the stray log does not get it by time
    assert (by_id["a0000000000meta2"].agent_type, by_id["a0000000000meta2"].tool_use_id) == (None, None)


def test_a_file_without_sidechain_entries_is_never_read_for_inline_agents(claude_root: Path, monkeypatch):
    """Every current-format session: the whole file was searched for `"isSidechain":true`
    before its first line was converted."""
    from session_kit.conversation import agents as module
    from tests.support import dialects

    looked = []
    original = module.file_holds
    monkeypatch.setattr(module, "file_holds", lambda fd, needle: looked.append(needle) or original(fd, needle))
    three = dialects.subagents_2_1(claude_root)
    run = preprocess_session(session_ref_from_path(three.path), PreprocessOptions(to_stdout=True), stream=io.StringIO())
    assert run.ok and run.agents  # its agents (in their own files) are there
    assert looked == []
    one = dialects.inline_1_0(claude_root)
    run = preprocess_session(session_ref_from_path(one.path), PreprocessOptions(to_stdout=True), stream=io.StringIO())
    assert len(looked) == 1 and len(run.agents) == 2  # the 1.0.x file: looked for once, found
