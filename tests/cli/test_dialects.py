"""Every command that reports agents, requests, compactions, titles or plans, on a hand-made
Claude root per generation of the client's format (`tests/support/dialects.py`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support import dialects
from tests.support.cli import invoke, invoke_json


@pytest.fixture
def one(claude_root: Path) -> dialects.Inline10:
    return dialects.inline_1_0(claude_root)


@pytest.fixture
def two(claude_root: Path) -> dialects.Legacy20:
    return dialects.legacy_2_0(claude_root)


@pytest.fixture
def three(claude_root: Path) -> dialects.Subagents21:
    return dialects.subagents_2_1(claude_root)


@pytest.fixture
def odd(claude_root: Path, tmp_path: Path) -> dialects.OddFiles:
    return dialects.odd_files(claude_root, tmp_path / "elsewhere")


def _listed(sid: str) -> dict:
    (row,) = [s for s in invoke_json("sessions", "--all")["sessions"] if s["id"] == sid]
    return row


# --- 1.0.x: titles, inline agents, requests --------------------------------------------------


def test_1_0_summary_lines_are_the_title_and_only_the_real_compaction_counts(one):
    sid = one.session.session_id
    shown = invoke_json("show", sid)
    assert shown["title"] == one.title  # the latest title whose leafUuid is in this file
    assert [c["dialect"] for c in shown["compactions"]] == ["current"]
    info = invoke_json("info", sid)
    assert info["title"] == one.title and len(info["compactions"]) == 1
    assert _listed(sid)["title"] == one.title
    assert one.title in invoke("show", sid).stdout and one.title in invoke("sessions", "--all").stdout
    assert "compactions: 1" in invoke("info", sid).stdout


def test_1_0_requests_are_what_the_person_typed(one):
    sid = one.session.session_id
    texts = [r["text"] for r in invoke_json("show", sid)["requests"]]
    assert texts == [dialects.PLAIN_PROMPT, "Now make the failing test pass"]
    assert _listed(sid)["first_prompt"] == dialects.PLAIN_PROMPT


def test_1_0_inline_threads_are_agents_linked_to_their_task_calls(one):
    sid = one.session.session_id
    agents = invoke_json("show", sid)["agents"]
    assert [(a["tool_use_id"], a["layout"], a["status"], a["failures"]) for a in agents] == [
        (one.search_task, "inline", "finished", 0),
        (one.failing_task, "inline", "finished", 1),  # it ended well; one of its calls failed
    ]
    detail = invoke_json("debug-agent", sid, "--all")
    assert [a["prompt"] for a in detail["agents"]] == list(one.thread_prompts)
    assert [c["name"] for c in detail["agents"][0]["calls"]] == ["Grep"]
    assert "INLINE_SENTINEL" in detail["agents"][1]["calls"][0]["error"]
    assert invoke_json("info", sid)["failed_agents"] == 1


def test_1_0_inline_agents_calls_are_theirs_not_the_main_conversations(one):
    sid = one.session.session_id
    shown = invoke_json("show", sid)
    assert shown["tools"] == {"Task": 2, "Bash": 1} and shown["failures"] == []
    events = invoke_json("events", sid)["events"]
    by_agent = {(e["name"], e["agent_id"] is None) for e in events}
    assert ("Grep", False) in by_agent and ("Bash", True) in by_agent
    main_only = invoke_json("events", sid, "--main-only")["events"]
    assert [e["name"] for e in main_only] == ["Task", "Task", "Bash"]


def test_1_0_preprocess_gives_each_inline_agent_its_own_section(one, tmp_path: Path):
    out = invoke("preprocess", one.session.session_id, "--stdout")
    assert out.exit_code == 0, out.stderr
    main, *agents = out.stdout.split("<agent ")
    assert "SEARCH: find it</user>" not in main and "INLINE_SENTINEL" not in main
    assert len(agents) == 2 and 'layout="inline"' in agents[0] and "SEARCH: find it" in agents[0]
    assert f'tool_use_id="{one.failing_task}"' in agents[1] and "INLINE_SENTINEL" in agents[1]


def test_an_empty_git_branch_is_unknown_and_sessions_and_show_agree(one, three):
    for sid in (one.session.session_id, three.session.session_id):
        listed, shown = _listed(sid), invoke_json("show", sid)
        assert {k: listed[k] for k in ("start", "end", "cwd", "branch")} == {
            k: shown[k] for k in ("start", "end", "cwd", "branch")
        }
    assert _listed(one.session.session_id)["branch"] is None


def test_the_end_is_never_the_files_mtime(claude_root: Path):
    path = claude_root / "projects" / "-work-x" / "0e0d0000-0000-0000-0000-000000000001.jsonl"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"type": "user", "message": {"role": "user", "content": "no times"}}) + "\n")
    assert _listed(path.stem)["end"] is None


# --- 2.0.x: legacy agents, warmups, plan files -----------------------------------------------


def test_2_0_warmup_logs_are_not_agents(two):
    sid = two.session.session_id
    assert [a["agent_id"] for a in invoke_json("show", sid)["agents"]] == [two.agent]
    assert _listed(sid)["agents"] == 1
    detail = invoke_json("debug-agent", sid, "--all")
    assert detail["total"] == 1 and {w["agent_id"] for w in detail["warmups"]} == set(two.warmups)
    assert "2 warmup logs left out" in invoke("debug-agent", sid, "--all").stdout
    assert [a["agent_id"] for a in invoke_json("info", sid)["agents"]] == [two.agent]


def test_2_0_an_agent_named_in_its_results_text_is_linked_by_that_name(two):
    (agent,) = invoke_json("show", two.session.session_id)["agents"]
    events = invoke_json("events", two.session.session_id)["events"]
    task = next(e for e in events if e["name"] == "Task")
    assert task["spawned_agent_id"] == two.agent and agent["tool_use_id"] == task["id"]


def test_2_0_an_empty_exit_plan_mode_is_the_plan_in_its_file(two):
    doc = invoke_json("plan", two.session.session_id)
    (plan,) = doc["plans"]
    assert plan["source"] == "plan_file" and plan["path"] == str(two.plan_file) and plan["file_found"]
    assert "LOADER PLAN" in plan["text"] and plan["tool_use_id"]
    assert "LOADER PLAN" in invoke("plan", two.session.session_id).stdout
    assert invoke_json("info", two.session.session_id)["plans"] == 1


def test_2_0_title_is_the_first_summary_when_none_belongs(two):
    assert invoke_json("show", two.session.session_id)["title"] == two.title
    assert invoke_json("show", two.session.session_id)["compactions"] == []


# --- 2.1.x: subagents with and without meta, workflows, missing logs, missing plan file -----


def test_2_1_agents_with_and_without_meta_workflows_and_missing_logs(three):
    agents = {a["agent_id"]: a for a in invoke_json("show", three.session.session_id)["agents"]}
    assert agents[three.with_meta]["layout"] == "subagents" and agents[three.with_meta]["type"] == "Explore"
    assert agents[three.without_meta]["tool_use_id"] and agents[three.without_meta]["failures"] == 1
    assert agents[three.workflow]["layout"] == "workflow" and agents[three.workflow]["status"] == "finished"
    for gone in three.missing:
        assert agents[gone]["log_found"] is False and agents[gone]["path"] is None
        assert agents[gone]["duration_s"] and agents[gone]["description"]
    failed_early = [a for a in agents.values() if a["description"] == "Failed early"]
    assert [(a["log_found"], a["status"]) for a in failed_early] == [(False, "failed")]
    assert len(agents) == 6
    assert _listed(three.session.session_id)["agents"] == 3  # the logs on disk: 2 + the workflow's


def test_2_1_missing_logs_are_said_so_in_text(three):
    sid = three.session.session_id
    text = invoke("debug-agent", sid, "--all").stdout
    assert text.count("log: not found") == 3
    assert "log not found" in invoke("show", sid).stdout and "log not found" in invoke("info", sid).stdout


def test_2_1_a_missing_plan_file_is_a_plan_not_found(three):
    (plan,) = invoke_json("plan", three.session.session_id)["plans"]
    assert plan["file_found"] is False and plan["path"] == str(three.missing_plan)
    text = invoke("plan", three.session.session_id).stdout
    assert "was not found" in text and "No plan" not in text


def test_2_1_requests_leave_out_ide_context_bash_output_and_interruptions(three):
    texts = [r["text"] for r in invoke_json("show", three.session.session_id)["requests"]]
    assert texts == ["Audit the service", "Explain these lines"]


# --- odd files ------------------------------------------------------------------------------


@pytest.mark.parametrize("which", ["renamed", "two_ids", "agent_log"])
def test_a_named_file_is_converted_for_what_it_holds(odd, which):
    path = getattr(odd, which)
    result = invoke("preprocess", str(path), "--stdout")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.count("<user ") >= 1
    assert "session_filter" not in result.stderr


def test_a_two_session_file_keeps_both_sessions_entries(odd):
    out = invoke("preprocess", str(odd.two_ids), "--stdout").stdout
    assert "Start of the work" in out and "Continue the work" in out


def test_other_sessions_entries_are_still_dropped_from_a_file_with_its_own(claude_root: Path):
    from tests.support.transcripts import Transcript

    t = Transcript("5e550000-0000-0000-0000-000000000001")
    t.user("MINE")
    t.say("ok")
    t.user("again")
    other = Transcript("5e550000-0000-0000-0000-000000000002", start=t.clock)
    other.user("FOREIGN")
    t.lines.extend(other.lines)
    t.write_session(claude_root)
    out = invoke("preprocess", t.session_id, "--stdout")
    assert "MINE" in out.stdout and "FOREIGN" not in out.stdout and "session_filter" in out.stderr


def test_orphan_agent_logs_are_searched(odd):
    hits = invoke_json("search", "ORPHAN_", "--all")["hits"]
    assert {h["snippet"].split(":")[0] for h in hits} == set(odd.orphan_needles)
    assert {h["agent_id"] for h in hits} == {"0f0f0001", "0f0f0002"}


def test_a_file_that_is_not_a_transcript_is_not_found(odd):
    for command in ("show", "events", "info", "debug-agent", "plan", "preprocess"):
        result = invoke(command, str(odd.not_a_transcript))
        assert result.exit_code == 3, (command, result.output)
        assert result.stderr.startswith("session-kit: not a transcript") and result.stdout == ""
