from __future__ import annotations

import os
from pathlib import Path

import pytest
from tests.support.transcripts import Transcript

from session_kit.sessions.overview import overview
from session_kit.sessions.resolve import resolve_session
from session_kit.sessions.store import find_agent_logs, find_project, list_all_sessions, list_sessions
from session_kit.state.current import session_id_from_env
from session_kit.errors import Ambiguous, KitError, NotFound
from session_kit.claude.paths import encode_project_dir


def make_session(root: Path, sid: str, *, cwd: str = "/work/proj", mtime: float | None = None, prompt: str = "do it") -> Transcript:
    t = Transcript(sid, cwd=cwd)
    t.noise("attachment", size=5000)
    t.user(prompt)
    t.say("ok")
    path = t.write_session(root)
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return t


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


def test_resolve_by_id_prefix_path_and_current(claude_root: Path, monkeypatch: pytest.MonkeyPatch):
    make_session(claude_root, "12345678-aaaa", mtime=1000)
    make_session(claude_root, "12345678-bbbb", mtime=2000)
    make_session(claude_root, "99999999-cccc", cwd="/other", mtime=500)
    assert resolve_session("12345678-aaaa", claude_root).id == "12345678-aaaa"
    assert resolve_session("9999", claude_root).id == "99999999-cccc"
    with pytest.raises(Ambiguous) as exc:
        resolve_session("1234", claude_root)
    assert exc.value.candidates == ["12345678-aaaa", "12345678-bbbb"] and exc.value.exit_code == 4
    with pytest.raises(NotFound):
        resolve_session("ffff", claude_root)
    path = next(claude_root.glob("projects/*/99999999-cccc.jsonl"))
    assert resolve_session(str(path), claude_root).id == "99999999-cccc"
    with pytest.raises(KitError):
        resolve_session("../../etc/passwd-ish", claude_root)
    # current: the environment first, else the newest session of the cwd's project
    monkeypatch.setenv("SESSION_CONTEXT", "session_id=12345678-aaaa")
    assert resolve_session("current", claude_root).id == "12345678-aaaa"
    monkeypatch.delenv("SESSION_CONTEXT")
    monkeypatch.setenv("CLAUDE_CODE_SESSION_ID", "99999999-cccc")
    assert resolve_session("current", claude_root).id == "99999999-cccc"
    monkeypatch.delenv("CLAUDE_CODE_SESSION_ID")
    assert resolve_session("current", claude_root, cwd="/work/proj/src/deep").id == "12345678-bbbb"


def test_session_id_from_env_formats():
    assert session_id_from_env({"SESSION_CONTEXT": "session_id=abc"}) == "abc"
    assert session_id_from_env({"SESSION_CONTEXT": 'foo=1 session_id="abc-1"'}) == "abc-1"
    assert session_id_from_env({"SESSION_CONTEXT": "", "CLAUDE_CODE_SESSION_ID": "xyz"}) == "xyz"
    assert session_id_from_env({}) is None


def test_find_project_walks_up_then_matches_recorded_cwd(claude_root: Path, tmp_path: Path):
    make_session(claude_root, "s1", cwd="/work/proj")
    assert find_project(claude_root, "/work/proj/a/b").name == encode_project_dir("/work/proj")
    # A project dir whose name we cannot compute (renamed): found by the cwd inside it.
    t = Transcript("s2", cwd="/strange/place")
    t.user("x")
    t.write(claude_root / "projects" / "renamed-by-someone" / "s2.jsonl")
    assert find_project(claude_root, "/strange/place").name == "renamed-by-someone"
    assert find_project(claude_root, "/nowhere") is None


def test_overview_reads_head_and_tail(claude_root: Path):
    t = Transcript("ov1", cwd="/work/proj", branch="feature/x")
    for _ in range(50):
        t.noise("attachment", size=4000)  # noise before the first prompt
    t.user("<command-name>/plan</command-name>\n<command-args>now</command-args>")
    t.say("ok")
    t.tick(3600)
    t.say("later")
    t.noise("last-prompt")
    path = t.write_session(claude_root)
    [ref] = list_all_sessions(claude_root)
    ov = overview(ref)
    assert ov.first_prompt == "/plan now"
    assert ov.branch == "feature/x" and ov.cwd == "/work/proj"
    assert ov.duration_s == pytest.approx(3600 + 54, abs=2)
    assert ov.ref.size == path.stat().st_size


def test_overview_of_a_file_being_written(claude_root: Path):
    t = Transcript("half", cwd="/work/proj")
    t.user("hello")
    t.write(claude_root / "projects" / encode_project_dir("/work/proj") / "half.jsonl", tail=b'{"type":"assistant","mess')
    [ref] = list_all_sessions(claude_root)
    ov = overview(ref)
    assert ov.first_prompt == "hello" and ov.end is not None
