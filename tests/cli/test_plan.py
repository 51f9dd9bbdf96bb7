"""`session-kit plan`, in process, on hand-made and real files."""

from __future__ import annotations

from pathlib import Path

from tests.support.cli import invoke, invoke_json
from tests.support.transcripts import Transcript

REAL = Path(__file__).parents[1] / "fixtures" / "real"


def test_plan_shows_the_latest_plan(planned):
    latest = invoke("plan", "--session", planned.alpha.session_id)
    assert latest.exit_code == 0 and "Plan 4 of 4 — plan file" in latest.stdout and "# ALPHA PLAN FILE" in latest.stdout


def test_plan_all_shows_every_plan_oldest_first(planned):
    every = invoke("plan", "--all", "--session", planned.alpha.session_id).stdout
    assert every.index("ALPHA AGENT EXIT PLAN") < every.index("ALPHA EXIT PLAN") < every.index("# ALPHA PLAN FILE")


def test_plan_json_shape(planned):
    sid = planned.alpha.session_id
    doc = invoke_json("plan", "--all", "--session", sid)
    assert doc["kind"] == "plan" and doc["count"] == 4 and len(doc["plans"]) == 4
    assert set(doc["plans"][0]) == {
        "source",
        "text",
        "timestamp",
        "path",
        "agent_id",
        "line",
        "tool_use_id",
        "status",
        "linked_by",
        "file_found",
    }
    assert len(invoke_json("plan", "--session", sid)["plans"]) == 1


def test_plan_never_shows_another_sessions_plans(planned):
    beta = invoke("plan", "--all", "--session", planned.beta.session_id).stdout
    assert "BETA" in beta and "ALPHA" not in beta and "NOBODY" not in beta


def test_plan_when_there_is_none_says_so_and_exits_0(claude_root: Path):
    t = Transcript()
    t.user("hi")
    t.write_session(claude_root)
    result = invoke("plan", "--session", t.session_id)
    assert result.exit_code == 0 and result.stdout.startswith("No plan in session")
    assert invoke_json("plan", "--session", t.session_id)["plans"] == []


def test_plan_on_real_client_files():
    plans = invoke_json("plan", "--all", "--session", "266f", "--claude-dir", str(REAL))["plans"]
    assert [p["source"] for p in plans] == ["plan_agent", "exit_plan_mode"]
    assert plans[-1]["status"] == "error" and plans[-1]["text"].startswith("1. Write notes.txt")
