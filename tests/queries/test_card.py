"""A session's card: one read of the transcript gives the report, the plans and the work state."""

from __future__ import annotations

from pathlib import Path

import pytest

from session_kit.queries.card import session_card
from session_kit.sessions.resolve import resolve_session
from session_kit.state.scratch import SessionScratch
from tests.support.sessions import Planned, build_planned


@pytest.fixture
def planned(claude_root: Path) -> Planned:
    return build_planned(claude_root)


def test_the_card_holds_the_agents_and_which_failed(planned: Planned, claude_root: Path):
    card = session_card(resolve_session(planned.alpha.session_id, claude_root), root=claude_root)
    ids = {a.agent_id for a in card.report.agents}
    assert {planned.plan_agent, planned.outer_agent, planned.inner_agent, planned.error_agent} <= ids
    assert card.as_dict()["failed_agents"] == sum(1 for a in card.report.agents if a.failed) > 0


def test_the_card_holds_the_sessions_own_plans_only(planned: Planned, claude_root: Path):
    card = session_card(resolve_session(planned.alpha.session_id, claude_root), root=claude_root)
    texts = "\n".join(p.text for p in card.plans)
    assert "# ALPHA PLAN FILE" in texts and "BETA" not in texts


def test_a_session_without_a_scratch_dir_names_where_it_would_be(planned: Planned, claude_root: Path, tmp_path: Path):
    card = session_card(
        resolve_session(planned.alpha.session_id, claude_root), root=claude_root, state_root=str(tmp_path)
    )
    assert card.work_state is not None and not card.work_state.exists
    assert card.work_state.path.startswith(str(tmp_path))


def test_the_work_state_keys_and_notes_are_counted(planned: Planned, claude_root: Path, tmp_path: Path):
    ref = resolve_session(planned.alpha.session_id, claude_root)
    scratch = SessionScratch.for_session(ref.id, project_key=ref.project.name, root=str(tmp_path))
    scratch.set("task", "step 3")
    scratch.note("flaky test")
    card = session_card(ref, root=claude_root, state_root=str(tmp_path))
    assert card.work_state is not None and card.work_state.keys == ("task",) and card.work_state.notes == 1
