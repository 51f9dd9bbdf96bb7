"""The tool-call timeline: the main conversation's calls and the agents', picked by failure and tool."""

from __future__ import annotations

from pathlib import Path

import pytest

from session_kit.queries.timeline import session_timeline
from session_kit.sessions.resolve import resolve_session
from session_kit.sessions.store import SessionRef
from tests.support.sessions import Built, build


@pytest.fixture
def built(claude_root: Path) -> Built:
    return build(claude_root)


@pytest.fixture
def ref(built: Built, claude_root: Path) -> SessionRef:
    return resolve_session(built.current.session_id, claude_root)


def test_the_timeline_holds_the_agents_calls_in_time_order(ref: SessionRef, built: Built):
    calls = session_timeline(ref).calls
    assert built.worker_agent in {c.agent_id for c in calls}
    stamps = [c.started for c in calls if c.started is not None]
    assert stamps == sorted(stamps)


def test_main_only_leaves_out_the_agents_calls(ref: SessionRef):
    assert {c.agent_id for c in session_timeline(ref, with_agents=False).calls} == {None}


def test_errors_only_keeps_the_failed_calls(ref: SessionRef):
    calls = session_timeline(ref, errors_only=True).calls
    assert calls and all(c.failed for c in calls)


def test_a_tool_filter_is_case_insensitive(ref: SessionRef):
    calls = session_timeline(ref, tool="bash").calls
    assert calls and {c.name for c in calls} == {"Bash"}


def test_the_timeline_keeps_whole_inputs(ref: SessionRef):
    write = next(c for c in session_timeline(ref).calls if c.name == "Write")
    assert write.input["content"] == "alpha beta\n"


def test_the_json_shape_names_the_session_and_what_was_read(ref: SessionRef):
    doc = session_timeline(ref).as_dict()
    assert doc["session_id"] == ref.id and doc["read"]["skipped"] == 0 and doc["events"]
