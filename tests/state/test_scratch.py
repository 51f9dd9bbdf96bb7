from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from session_kit.state import current
from session_kit.state import scratch as sc
from session_kit.state.scratch import ScratchError, SessionScratch, render_state


@pytest.fixture
def root(isolated_home: Path) -> str:
    return os.environ["SESSION_KIT_HOME"]


def test_values_and_notes_round_trip(root: str):
    s = SessionScratch.for_session("s1", project_path="/work/proj", root=root)
    s.set("task", "ünïcode ✓ value")
    s.set("task", "replaced")
    s.note("first")
    s.note("second")
    again = SessionScratch.for_session("s1", project_path="/elsewhere", root=root)  # found where it is
    assert again.path == s.path and again.get("task") == "replaced"
    assert [n["text"] for n in again.read_state()["notes"]] == ["first", "second"]
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


def test_render_fits_the_limit_and_names_the_file(root: str):
    s = SessionScratch.for_session("s3", root=root)
    for i in range(100):
        s.set(f"k{i}", "v" * 500)
        s.note("n" * 300)
    text = render_state(s.read_state(), session_id="s3", scratch_path=s.path, limit=3000, heading="H")
    assert len(text) <= 3000 and s.file(sc.STATE_FILE) in text
    small = render_state({"values": {"a": "b"}, "notes": []}, session_id="s3", scratch_path=s.path, limit=3000, heading="H")
    assert "- a: b" in small and "cut" not in small


def test_clean_removes_idle_dirs_but_never_the_current_session(root: str, monkeypatch: pytest.MonkeyPatch):
    old = SessionScratch.for_session("old-1", project_path="/p", root=root).create()
    current = SessionScratch.for_session("cur-1", project_path="/p", root=root).create()
    pointed = SessionScratch.for_session("ptr-1", project_path="/q", root=root).create()
    pointed.point_here()
    fresh = SessionScratch.for_session("new-1", project_path="/p", root=root).create()
    past = time.time() - 10 * 86400
    for s in (old, current, pointed):
        os.utime(s.path, (past, past))
    monkeypatch.setenv("SESSION_CONTEXT", "session_id=cur-1")
    assert sc.clean(root, older_than_s=86400, dry_run=True) == [old.path]
    assert os.path.isdir(old.path)
    assert sc.clean(root, older_than_s=86400) == [old.path]
    assert not os.path.exists(old.path)
    assert all(os.path.isdir(s.path) for s in (current, pointed, fresh))


def test_pointer_is_found_from_a_subdirectory(root: str):
    SessionScratch.for_session("p-1", project_path="/work/proj", root=root).create().point_here()
    assert current.read_pointer(root, "/work/proj/src/deep") == "p-1"
    assert current.read_pointer(root, "/other") is None
