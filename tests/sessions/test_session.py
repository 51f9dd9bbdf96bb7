"""A session read once: its calls, its agents, and observers fed by the same single pass."""

from __future__ import annotations

from pathlib import Path

import pytest

from session_kit.sessions.resolve import resolve_session
from session_kit.sessions.session import Session
from session_kit.transcript.entries import Entry
from tests.support.sessions import build


class Collector:
    def __init__(self) -> None:
        self.kinds: list[str] = []

    def add(self, entry: Entry) -> None:
        self.kinds.append(entry.kind)


def test_one_scan_feeds_every_observer_and_the_calls(claude_root: Path):
    b = build(claude_root)
    first, second = Collector(), Collector()
    session = Session(resolve_session(b.current.session_id, claude_root)).scan(first, second)
    assert first.kinds == second.kinds and "user" in first.kinds
    assert [c.name for c in session.calls][:2] == ["Bash", "Bash"]


def test_a_session_is_read_only_once(claude_root: Path):
    b = build(claude_root)
    session = Session(resolve_session(b.current.session_id, claude_root)).scan()
    with pytest.raises(RuntimeError, match="already read"):
        session.scan(Collector())


def test_calls_are_read_on_first_use(claude_root: Path):
    b = build(claude_root)
    session = Session(resolve_session(b.current.session_id, claude_root))
    assert len(session.calls) == 8  # 2 Bash, Write, Read, Edit, 2 Agent, ExitPlanMode
    with pytest.raises(RuntimeError, match="already read"):  # reading the calls was the one scan
        session.scan(Collector())


def test_all_calls_hold_the_agents_calls_in_time_order(claude_root: Path):
    b = build(claude_root)
    calls = Session(resolve_session(b.current.session_id, claude_root)).all_calls()
    assert [c.agent_id for c in calls if c.agent_id] == [b.worker_agent]
    started = [c.started for c in calls]
    assert started == sorted(started)
