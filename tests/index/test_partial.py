"""No search waits for a long update: with much new to index (a first search) or another update
running, a search answers from the index for what it holds and scans the rest, and the index
is brought up to date in the background."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from session_kit.index import db
from session_kit.queries import indexed
from session_kit.queries.indexed import search_history
from tests.support.sessions import build


def _state() -> str:
    return os.environ["SESSION_KIT_HOME"]


def _seen(found: indexed.HistoryHits) -> list[tuple]:
    return [(h.session_id, h.agent_id, h.line, h.where, h.tool, h.project, h.path) for h in found.hits]


def _indexed_in_full(root: Path, word: str, tmp_path: Path) -> indexed.HistoryHits:
    return search_history(word, root, str(tmp_path / "other-state"), limit=None)


@pytest.fixture
def nothing_indexed_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every byte new is more than a search indexes before it answers."""
    monkeypatch.setattr(indexed, "INDEX_NOW_BYTES", 0)


def test_a_first_search_answers_from_a_scan_and_the_index_is_built_in_the_background(
    claude_root: Path, tmp_path: Path, nothing_indexed_first: None
):
    built = build(claude_root)
    found = search_history("SENTINEL_FAILURE", claude_root, _state(), limit=None)
    assert found.updated_files == 0 and found.scanned_files > 0
    assert [(h.session_id, h.agent_id, h.line, h.where) for h in found.hits] == [
        (built.current.session_id, built.worker_agent, 3, "tool_output")
    ]
    expected = _indexed_in_full(claude_root, "SENTINEL_FAILURE", tmp_path)
    assert _seen(found) == _seen(expected)
    assert found.hits[0].resume == expected.hits[0].resume
    # The build runs at a lowered priority: on a busy machine it may take a while.
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        again = search_history("SENTINEL_FAILURE", claude_root, _state(), limit=None)
        if again.scanned_files == 0:
            break
        time.sleep(0.5)
    assert again.scanned_files == 0 and _seen(again) == _seen(expected)


def test_a_search_while_another_update_runs_answers_at_once(claude_root: Path, tmp_path: Path):
    built = build(claude_root)
    conn = db.connect(_state(), claude_root=claude_root)
    try:
        with db.writer(conn):  # another process's update, holding the index
            began = time.monotonic()
            found = search_history("Please build", claude_root, _state(), limit=None)
            assert time.monotonic() - began < 20  # never the hour an update waits for another
    finally:
        conn.close()
    assert found.updated_files == 0 and found.scanned_files > 0
    assert {h.session_id for h in found.hits} == {built.current.session_id}
    assert _seen(found) == _seen(_indexed_in_full(claude_root, "Please build", tmp_path))


def test_the_scan_of_what_is_not_indexed_keeps_to_the_filters_it_can_tell(claude_root: Path):
    from session_kit.index.query import Filters

    build(claude_root)
    conn = db.connect(_state(), claude_root=claude_root)
    try:
        with db.writer(conn):  # nothing is indexed meanwhile: every hit comes from the scan
            assert search_history("SENTINEL_FAILURE", claude_root, _state()).scanned_files > 0
            for filters in (Filters(errors_only=True), Filters(project="-elsewhere"), Filters(since="2099-01-01")):
                assert search_history("SENTINEL_FAILURE", claude_root, _state(), filters).hits == ()
            assert len(search_history("SENTINEL_FAILURE", claude_root, _state(), Filters(tool="Bash")).hits) == 1
    finally:
        conn.close()
