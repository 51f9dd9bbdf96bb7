"""Projects, sessions and agent logs on disk: listed, newest first, each session's own."""

from __future__ import annotations

from pathlib import Path

from session_kit.claude.encoding import encode_project_dir
from session_kit.sessions.store import find_agent_logs, find_project, list_all_sessions, list_sessions
from tests.support.sessions import make_session
from tests.support.transcripts import Transcript


def test_sessions_are_listed_newest_first_without_agent_logs(claude_root: Path):
    parent = make_session(claude_root, "aaaa1111", mtime=1000)
    make_session(claude_root, "bbbb2222", mtime=3000)
    make_session(claude_root, "cccc3333", mtime=2000)
    Transcript(parent.session_id, agent_id="x1").write_legacy_agent(claude_root, parent)
    project = claude_root / "projects" / encode_project_dir("/work/proj")
    assert [s.id for s in list_sessions(project)] == ["bbbb2222", "cccc3333", "aaaa1111"]


def test_agent_logs_in_both_layouts_belong_to_their_session_only(claude_root: Path):
    mine = make_session(claude_root, "s-mine")
    other = make_session(claude_root, "s-other")

    def agent(parent: Transcript, agent_id: str) -> Transcript:
        t = Transcript(parent.session_id, agent_id=agent_id)
        t.user("agent prompt")
        return t

    agent(mine, "cur1").write_subagent(claude_root, mine, meta={"agentType": "Plan", "toolUseId": "toolu_1"})
    agent(mine, "old1").write_legacy_agent(claude_root, mine)
    agent(other, "old2").write_legacy_agent(claude_root, other)
    [ref] = [s for s in list_all_sessions(claude_root) if s.id == "s-mine"]
    logs = find_agent_logs(ref)
    assert [(log.agent_id, log.layout) for log in logs] == [("cur1", "subagents"), ("old1", "legacy")]
    assert logs[0].agent_type == "Plan" and logs[0].tool_use_id == "toolu_1"


def test_a_project_is_found_from_a_folder_inside_it(claude_root: Path):
    make_session(claude_root, "s1", cwd="/work/proj")
    assert find_project(claude_root, "/work/proj/a/b").name == encode_project_dir("/work/proj")


def test_a_renamed_project_folder_is_found_by_the_cwd_recorded_inside_it(claude_root: Path):
    t = Transcript("s2", cwd="/strange/place")
    t.user("x")
    t.write(claude_root / "projects" / "renamed-by-someone" / "s2.jsonl")
    assert find_project(claude_root, "/strange/place").name == "renamed-by-someone"


def test_a_folder_of_no_project_has_none(claude_root: Path):
    make_session(claude_root, "s1", cwd="/work/proj")
    assert find_project(claude_root, "/nowhere") is None
