"""A session's scratch folder: values and notes that survive, a bounded rendering, and cleaning."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from session_kit.state import scratch as sc
from session_kit.state.scratch import ScratchError, SessionScratch, render_state


@pytest.fixture
def root(isolated_home: Path) -> str:
    return os.environ["SESSION_KIT_HOME"]


def written_and_found_again(root: str) -> tuple[SessionScratch, SessionScratch]:
    s = SessionScratch.for_session("s1", project_path="/work/proj", root=root)
    s.set("task", "ünïcode ✓ value")
    s.set("task", "replaced")
    s.note("first")
    s.note("second")
    return s, SessionScratch.for_session("s1", project_path="/elsewhere", root=root)


def test_a_sessions_scratch_is_found_where_it_is_whatever_the_project(root: str):
    s, again = written_and_found_again(root)
    assert again.path == s.path


def test_a_value_set_twice_keeps_the_last(root: str):
    _, again = written_and_found_again(root)
    assert again.get("task") == "replaced"


def test_notes_keep_their_order(root: str):
    _, again = written_and_found_again(root)
    assert [n["text"] for n in again.read_state()["notes"]] == ["first", "second"]


def test_unset_says_whether_there_was_a_value(root: str):
    _, again = written_and_found_again(root)
    assert again.unset("task") and not again.unset("task")


@pytest.mark.parametrize("key", ["", "a\nb", "x" * 201])
def test_bad_keys_are_refused(root: str, key: str):
    with pytest.raises(ScratchError):
        SessionScratch.for_session("s1", root=root).set(key, "v")


def test_a_damaged_state_file_reads_as_empty_and_is_replaced(root: str):
    s = SessionScratch.for_session("s2", root=root).create()
    Path(s.file(sc.STATE_FILE)).write_text("{not json")
    assert s.read_state()["values"] == {}
    s.set("k", "v")
    assert s.get("k") == "v"


def test_a_large_state_is_rendered_within_the_limit_and_names_its_file(root: str):
    s = SessionScratch.for_session("s3", root=root)
    for i in range(100):
        s.set(f"k{i}", "v" * 500)
        s.note("n" * 300)
    text = render_state(s.read_state(), session_id="s3", scratch_path=s.path, limit=3000, heading="H")
    assert len(text) <= 3000 and s.file(sc.STATE_FILE) in text


def test_a_small_state_is_rendered_whole(root: str):
    s = SessionScratch.for_session("s3", root=root)
    small = render_state(
        {"values": {"a": "b"}, "notes": []}, session_id="s3", scratch_path=s.path, limit=3000, heading="H"
    )
    assert "- a: b" in small and "cut" not in small


def idle_and_current(root: str, monkeypatch: pytest.MonkeyPatch) -> tuple[SessionScratch, list[SessionScratch]]:
    """An idle scratch dir, and three that must stay: idle but current by the environment,
    idle but current by a project pointer, and fresh."""
    old = SessionScratch.for_session("old-1", project_path="/p", root=root).create()
    current = SessionScratch.for_session("cur-1", project_path="/p", root=root).create()
    pointed = SessionScratch.for_session("ptr-1", project_path="/q", root=root).create()
    pointed.point_here()
    fresh = SessionScratch.for_session("new-1", project_path="/p", root=root).create()
    past = time.time() - 10 * 86400
    for s in (old, current, pointed):
        os.utime(s.path, (past, past))
    monkeypatch.setenv("SESSION_CONTEXT", "session_id=cur-1")
    return old, [current, pointed, fresh]


def test_a_dry_run_clean_names_the_idle_dirs_and_removes_nothing(root: str, monkeypatch: pytest.MonkeyPatch):
    old, _ = idle_and_current(root, monkeypatch)
    assert sc.clean(root, older_than_s=86400, dry_run=True) == [old.path]
    assert os.path.isdir(old.path)


def test_clean_removes_idle_dirs(root: str, monkeypatch: pytest.MonkeyPatch):
    old, _ = idle_and_current(root, monkeypatch)
    assert sc.clean(root, older_than_s=86400) == [old.path]
    assert not os.path.exists(old.path)


def test_clean_never_removes_a_current_or_fresh_session(root: str, monkeypatch: pytest.MonkeyPatch):
    _, kept = idle_and_current(root, monkeypatch)
    sc.clean(root, older_than_s=86400)
    assert all(os.path.isdir(s.path) for s in kept)
