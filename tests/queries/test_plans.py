"""A session's plans: from ExitPlanMode, Plan agents and plan files; never another session's."""

from __future__ import annotations

import json
import os
from pathlib import Path

from session_kit.queries.plans import session_plans
from session_kit.sessions.resolve import resolve_session
from tests.support.sessions import build_planned
from tests.support.transcripts import Transcript


def plans_of(root: Path, session_id: str):
    return session_plans(resolve_session(session_id, root), root=root)


def test_every_source_in_time_order(claude_root: Path):
    p = build_planned(claude_root)
    plans = plans_of(claude_root, p.alpha.session_id)
    assert [(x.source, x.text.strip(), x.agent_id) for x in plans] == [
        ("exit_plan_mode", "ALPHA AGENT EXIT PLAN", p.plan_agent),
        ("plan_agent", "ALPHA PLAN AGENT ANSWER: step one, step two", p.plan_agent),
        ("exit_plan_mode", "ALPHA EXIT PLAN", None),
        ("plan_file", "# ALPHA PLAN FILE\n1. first", None),  # its mtime is the newest
    ]


def test_a_plan_file_named_by_plan_mode_is_linked_by_that_attachment(claude_root: Path):
    p = build_planned(claude_root)
    plans = plans_of(claude_root, p.alpha.session_id)
    assert plans[-1].linked_by == "plan_mode_attachment"


def test_an_exit_plan_mode_without_an_answer_is_pending_at_its_line(claude_root: Path):
    p = build_planned(claude_root)
    plans = plans_of(claude_root, p.alpha.session_id)
    assert plans[2].status == "pending" and plans[2].line is not None


def test_a_session_never_sees_a_newer_plan_file_of_a_session_running_beside_it(claude_root: Path):
    p = build_planned(claude_root)
    alpha = " ".join(x.text for x in plans_of(claude_root, p.alpha.session_id))
    assert "BETA" not in alpha and "NOBODY" not in alpha  # beta's file is newer than alpha's


def test_a_session_running_beside_another_has_only_its_own_plans_linked_by_slug(claude_root: Path):
    p = build_planned(claude_root)
    beta = plans_of(claude_root, p.beta.session_id)
    assert [x.text.strip() for x in beta] == ["BETA EXIT PLAN", "# BETA PLAN FILE"]
    assert beta[-1].linked_by == "slug"
    assert not any("ALPHA" in x.text or "NOBODY" in x.text for x in beta)


def test_older_layout_plans_come_from_the_plan_agent_and_exit_plan_mode(claude_root: Path):
    p = build_planned(claude_root)
    old = plans_of(claude_root, p.old.session_id)
    assert [(x.source, x.text) for x in old] == [
        ("plan_agent", "LEGACY PLAN AGENT ANSWER"),
        ("exit_plan_mode", "LEGACY EXIT PLAN"),
    ]


def test_older_layout_sessions_of_one_project_keep_their_plans_apart(claude_root: Path):
    p = build_planned(claude_root)
    other = plans_of(claude_root, p.old_other.session_id)
    assert [x.text for x in other] == ["OTHER LEGACY PLAN AGENT ANSWER", "OTHER LEGACY EXIT PLAN"]


def test_a_session_without_a_plan_has_none(claude_root: Path):
    t = Transcript()
    t.user("hello")
    t.say("hi")
    t.write_session(claude_root)
    (claude_root / "plans").mkdir()
    (claude_root / "plans" / "someone-else.md").write_text("# not mine\n")
    assert plans_of(claude_root, t.session_id) == []


def approved_elsewhere(claude_root: Path, tmp_path: Path) -> tuple[Path, list]:
    """An ExitPlanMode whose result carries the edited, approved plan and a plan file outside the plans folders."""
    elsewhere = tmp_path / "anywhere" / "named.md"
    elsewhere.parent.mkdir()
    elsewhere.write_text("# the named file\n")
    t = Transcript(slug="no-file-for-this-slug")
    t.user("plan")
    call = t.tool_use("ExitPlanMode", {"plan": "as proposed"})
    t.tool_result(
        call, "User has approved your plan.", extra={"plan": "as edited and approved", "filePath": str(elsewhere)}
    )
    t.write_session(claude_root)
    return elsewhere, plans_of(claude_root, t.session_id)


def test_an_approved_plan_is_the_text_the_user_approved(claude_root: Path, tmp_path: Path):
    _, plans = approved_elsewhere(claude_root, tmp_path)
    assert [(x.source, x.text.strip(), x.status) for x in plans][0] == (
        "exit_plan_mode",
        "as edited and approved",
        "ok",
    )


def test_the_plan_file_named_in_an_approval_is_linked_wherever_it_is(claude_root: Path, tmp_path: Path):
    elsewhere, plans = approved_elsewhere(claude_root, tmp_path)
    assert [(x.path, x.linked_by) for x in plans if x.source == "plan_file"] == [(elsewhere, "exit_plan_mode_result")]


def test_a_plan_file_in_the_projects_plans_directory_is_found_by_slug(claude_root: Path, tmp_path: Path):
    project = tmp_path / "proj"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "settings.json").write_text(json.dumps({"plansDirectory": "myplans"}))
    t = Transcript(cwd=str(project), slug="calm-slug")
    t.user("plan")
    t.write_session(claude_root)
    (project / "myplans").mkdir()
    (project / "myplans" / "calm-slug.md").write_text("# in the project\n")
    [plan] = plans_of(claude_root, t.session_id)
    assert plan.path == project / "myplans" / "calm-slug.md" and plan.linked_by == "slug"


def test_plan_files_the_session_wrote_and_its_agents_slug_files_are_its_own(claude_root: Path):
    plans = claude_root / "plans"
    plans.mkdir()
    t = Transcript(slug="bright-slug")
    t.user("plan")
    w = t.tool_use("Write", {"file_path": str(plans / "chosen-name.md"), "content": "# written\n"})
    t.tool_result(w, "ok")
    call = t.tool_use("Agent", {"subagent_type": "general-purpose", "description": "d", "prompt": "P"})
    agent = Transcript(t.session_id, agent_id="ag3nt1", start=t.clock)
    agent.user("P")
    aw = agent.tool_use("Write", {"file_path": str(plans / "agent-wrote.md"), "content": "# by the agent\n"})
    agent.tool_result(aw, "ok")
    agent.say("done")
    t.write_session(claude_root)
    agent.write_subagent(claude_root, t, meta={"toolUseId": call})
    (plans / "chosen-name.md").write_text("# written\n")
    (plans / "agent-wrote.md").write_text("# by the agent\n")
    (plans / "bright-slug-agent-ag3nt1.md").write_text("# the agent's\n")
    (plans / "other-slug.md").write_text("# not mine\n")
    found = {(x.path.name, x.linked_by, x.agent_id) for x in plans_of(claude_root, t.session_id)}
    assert found == {
        ("chosen-name.md", "written_by_session", None),
        ("agent-wrote.md", "written_by_session", None),
        ("bright-slug-agent-ag3nt1.md", "slug", "ag3nt1"),
    }


def test_a_slug_cannot_reach_outside_the_plans_folder(claude_root: Path):
    (claude_root / "secret.md").write_text("secret")
    (claude_root / "plans").mkdir()
    t = Transcript(slug="../secret")
    t.user("x")
    t.write_session(claude_root)
    assert plans_of(claude_root, t.session_id) == []


def test_plan_file_order_uses_mtime_only_among_the_sessions_own(claude_root: Path):
    p = build_planned(claude_root)
    alpha_file = claude_root / "plans" / "alpha-slug-one.md"
    os.utime(alpha_file, (0, 0))  # older than everything in the transcript
    plans = plans_of(claude_root, p.alpha.session_id)
    assert plans[0].source == "plan_file" and plans[-1].text == "ALPHA EXIT PLAN"


def test_an_empty_exit_plan_mode_is_the_plan_file_its_result_names(claude_root: Path, tmp_path: Path):
    t = Transcript("e3e30000-0000-0000-0000-000000000001")
    t.user("plan it")
    there, gone = tmp_path / "there.md", tmp_path / "gone.md"
    there.write_text("# THE PLAN\n")
    for path in (there, gone):
        call = t.tool_use("ExitPlanMode", {})
        t.tool_result(call, "User has approved your plan.", extra={"plan": None, "filePath": str(path)})
    t.write_session(claude_root)
    plans = plans_of(claude_root, t.session_id)
    assert [(p.source, p.path, p.file_found, p.text) for p in plans] == [
        ("plan_file", there, True, "# THE PLAN\n"),
        ("plan_file", gone, False, ""),
    ]
    assert all(p.tool_use_id and p.linked_by == "exit_plan_mode_result" for p in plans)
