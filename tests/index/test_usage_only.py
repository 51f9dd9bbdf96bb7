"""An update for usage alone (as `usage` runs it on a history the index never saw): no texts,
no calls, no full-text rows; the first search or export after it reads those files' texts
from the start and answers exactly as an index built in full would."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from session_kit.index import db
from session_kit.index.update import update
from session_kit.queries.indexed import export_history, search_history
from session_kit.usage.history import usage_report
from session_kit.usage.prices import load_prices
from tests.support.sessions import build

TABLES = ("files", "sessions", "messages", "agent_results", "texts", "calls", "agents")


def _tables(state: str, root: Path) -> dict[str, list[tuple]]:
    conn = db.connect(state, claude_root=root)
    try:
        return {t: conn.execute(f"SELECT * FROM {t}").fetchall() for t in TABLES}
    finally:
        conn.close()


def _count(conn: sqlite3.Connection, table: str) -> int:
    return conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


def _usage(root: Path, state: str):
    return usage_report(str(root), load_prices(state_root=state), by="session", state_root=state)


def _export(root: Path, state: str, out: Path) -> dict[str, bytes]:
    export_history(root, state, str(out), source="test")
    return {p.name: p.read_bytes() for p in sorted(out.iterdir())}


def test_usage_on_a_new_index_writes_no_texts_calls_or_full_text_rows(claude_root: Path, tmp_path: Path):
    build(claude_root)
    assert _usage(claude_root, str(tmp_path / "usage")).files_read > 0
    conn = db.connect(str(tmp_path / "usage"), claude_root=claude_root)
    assert db.has_fts(conn)
    assert [_count(conn, t) for t in ("texts", "calls", "texts_fts_docsize")] == [0, 0, 0]
    assert _count(conn, "messages") > 0
    assert {row[0] for row in conn.execute("SELECT texts FROM files")} == {0}
    conn.close()
    full = str(tmp_path / "full")
    update(db.connect(full, claude_root=claude_root), claude_root)
    counted, whole = _tables(str(tmp_path / "usage"), claude_root), _tables(full, claude_root)
    # What `usage`, `sessions --tokens` and the status line read is already what a full build holds.
    for table in ("sessions", "messages", "agent_results", "agents"):
        assert counted[table] == whole[table], table
    strip = [row[:-1] for row in counted["files"]]  # all but `texts`
    assert strip == [row[:-1] for row in whole["files"]]


def test_usage_on_a_whole_index_reads_nothing(claude_root: Path, tmp_path: Path):
    build(claude_root)
    state = str(tmp_path / "state")
    update(db.connect(state, claude_root=claude_root), claude_root)
    assert _usage(claude_root, state).files_read == 0


@pytest.mark.parametrize("refresh", [True, False], ids=["search", "search-no-refresh"])
def test_a_search_after_usage_finds_words_in_files_read_for_usage_alone(
    claude_root: Path, tmp_path: Path, refresh: bool
):
    built = build(claude_root)
    state = str(tmp_path / "state")
    assert _usage(claude_root, state).files_read > 0
    found = search_history("SENTINEL_FAILURE", claude_root, state, limit=None, refresh=refresh)
    assert [(h.session_id, h.agent_id) for h in found.hits] == [(built.current.session_id, built.worker_agent)]
    assert [h.session_id for h in search_history("Please build", claude_root, state).hits] == [built.current.session_id]
    conn = db.connect(state, claude_root=claude_root)
    assert {row[0] for row in conn.execute("SELECT texts FROM files")} == {1}


def test_the_index_after_usage_then_export_is_the_index_a_full_build_makes(claude_root: Path, tmp_path: Path):
    build(claude_root)
    first, full = str(tmp_path / "usage-first"), str(tmp_path / "full")
    _usage(claude_root, first)
    after_usage = _export(claude_root, first, tmp_path / "out-usage-first")
    direct = _export(claude_root, full, tmp_path / "out-full")
    assert after_usage == direct
    assert _tables(first, claude_root) == _tables(full, claude_root)
    assert _usage(claude_root, first).files_read == 0


def _append(root: Path, t, write) -> None:
    """Lines `write(t)` adds, appended to `t`'s transcript."""
    t.lines.clear()
    write(t)
    with next(root.glob(f"projects/*/{t.session_id}.jsonl")).open("a") as f:
        f.write(t.text())


def _agent_whose_log_is_gone(t, agent_id: str, tokens: int) -> None:
    call = t.tool_use("Agent", {"subagent_type": "Explore", "description": "Look around", "prompt": "look"})
    usage = {"input_tokens": tokens, "output_tokens": 2 * tokens, "cache_read_input_tokens": 3 * tokens}
    t.tool_result(
        call,
        [{"type": "text", "text": "Looked."}],
        extra={"agentId": agent_id, "status": "completed", "usage": usage, "resolvedModel": "claude-sonnet-4-5"},
    )


def test_lines_added_after_a_usage_update_count_once_when_the_texts_are_read(claude_root: Path, tmp_path: Path):
    built = build(claude_root)
    t = built.current
    _append(claude_root, t, lambda t: _agent_whose_log_is_gone(t, "9011e0000000gone", 100))
    first, full = str(tmp_path / "usage-first"), str(tmp_path / "full")
    _usage(claude_root, first)

    def later(t) -> None:
        t.user("Now the deltaword step")
        t.bash("make again", exit_code=1, stderr="LATE_FAILURE")
        _agent_whose_log_is_gone(t, "9011e0000001gone", 1000)
        t.compact("Summary: a second compaction.")
        t.say("done")

    _append(claude_root, t, later)
    after_usage = _export(claude_root, first, tmp_path / "out-usage-first")
    direct = _export(claude_root, full, tmp_path / "out-full")
    assert after_usage == direct
    assert _tables(first, claude_root) == _tables(full, claude_root)
    conn = db.connect(first, claude_root=claude_root)
    assert conn.execute("SELECT compactions FROM sessions WHERE id=?", (t.session_id,)).fetchone() == (2,)
    assert conn.execute("SELECT count(*), sum(input) FROM agent_results").fetchone() == (2, 1100)
    assert [h.session_id for h in search_history("LATE_FAILURE", claude_root, first).hits] == [t.session_id]


def test_a_whole_file_stays_whole_when_usage_reads_what_it_gained(claude_root: Path, tmp_path: Path):
    built = build(claude_root)
    state = str(tmp_path / "state")
    update(db.connect(state, claude_root=claude_root), claude_root)
    t = built.current
    _append(claude_root, t, lambda t: t.user("an epsilonword request"))
    assert _usage(claude_root, state).files_read == 1
    conn = db.connect(state, claude_root=claude_root)
    assert {row[0] for row in conn.execute("SELECT texts FROM files")} == {1}
    hits = search_history("epsilonword", claude_root, state, refresh=False).hits
    assert [h.session_id for h in hits] == [t.session_id]
