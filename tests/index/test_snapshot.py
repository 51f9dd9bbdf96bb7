"""Every read of the index in one transaction (a reader that asks several questions never mixes
two states of it), and one whole build at a time."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from session_kit.index import background, db, journal
from session_kit.queries.indexed import export_history, search_history
from session_kit.state.root import locked
from session_kit.usage.history import _index_rows
from tests.support.sessions import build


def _state() -> str:
    return os.environ["SESSION_KIT_HOME"]


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, bool]]:
    """Whether each reader's queries ran inside a transaction."""
    found: list[tuple[str, bool]] = []

    def watch(module: object, name: str) -> None:
        real = getattr(module, name)

        def wrapped(conn, *args, **kw):
            found.append((name, conn.in_transaction))
            return real(conn, *args, **kw)

        monkeypatch.setattr(module, name, wrapped)

    from session_kit.index import export, query, usage

    watch(export, "export_tables")
    watch(usage, "usage_rows")
    watch(query, "search_index")
    return found


def test_search_export_and_usage_read_the_index_in_one_transaction(claude_root: Path, tmp_path: Path, seen):
    build(claude_root)
    search_history("Please", claude_root, _state(), limit=None)
    export_history(claude_root, _state(), str(tmp_path / "out"), source="test")
    _index_rows(str(claude_root), _state())
    assert {name for name, _ in seen} == {"export_tables", "usage_rows", "search_index"}
    assert all(inside for _, inside in seen), seen


def test_a_build_started_while_another_runs_ends_at_once(claude_root: Path):
    build(claude_root)
    path = journal.index_path(_state(), claude_root)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with locked(path + ".build", timeout=0):  # a build running elsewhere
        assert background.build_now(_state(), str(claude_root)) is False
    assert not os.path.exists(path)  # nothing read, nothing made
    assert background.build_now(_state(), str(claude_root)) is True
    conn = db.connect(_state(), claude_root=claude_root)
    try:
        assert conn.execute("SELECT count(*) FROM files").fetchone()[0] > 0
    finally:
        conn.close()
