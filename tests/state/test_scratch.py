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


# --- nothing lost: any text the shell hands over, and a damaged state file is kept --------------

NON_UTF8 = os.fsdecode(b"report-\xe9t\xe9-\xff.txt")  # what Python makes of a Latin-1 file name


def test_a_value_with_a_byte_that_is_not_utf8_reads_back_as_given(root: str):
    s = SessionScratch.for_session("s1", project_path="/work/proj", root=root)
    s.set("keep", "saved before")
    s.set("file", NON_UTF8)
    again = SessionScratch.for_session("s1", project_path="/work/proj", root=root)
    assert again.get("file") == NON_UTF8 and again.get("keep") == "saved before"


def test_the_state_file_stays_valid_utf8_json_whatever_the_value(root: str):
    s = SessionScratch.for_session("s1", project_path="/work/proj", root=root)
    s.set("file", NON_UTF8)
    s.note(NON_UTF8)
    raw = Path(s.file(sc.STATE_FILE)).read_bytes()
    raw.decode("utf-8")  # strict: raises if not UTF-8


def test_a_write_after_a_non_utf8_value_keeps_every_other_value_and_note(root: str):
    s = SessionScratch.for_session("s1", project_path="/work/proj", root=root)
    s.set("a", "1")
    s.note("a note")
    s.set("file", NON_UTF8)
    s.set("b", "2")
    state = s.read_state()
    assert state["values"] == {"a": "1", "file": NON_UTF8, "b": "2"}
    assert [n["text"] for n in state["notes"]] == ["a note"]


@pytest.mark.parametrize(
    "damaged",
    [b'{"values": {"a": "1"', b"\xff\xfe not json", b"[1, 2]", b'{"values": ["not", "a", "map"]}'],
    ids=["cut-short", "not-utf8", "not-an-object", "values-not-a-map"],
)
def test_a_damaged_state_file_is_kept_and_no_write_replaces_it(root: str, damaged: bytes):
    s = SessionScratch.for_session("s1", project_path="/work/proj", root=root).create()
    Path(s.file(sc.STATE_FILE)).write_bytes(damaged)
    with pytest.raises(sc.StateFileDamaged) as caught:
        s.set("new", "value")
    assert s.file(sc.STATE_FILE) in str(caught.value)
    with pytest.raises(sc.StateFileDamaged):
        s.note("a note")
    with pytest.raises(sc.StateFileDamaged):
        s.read_state()
    assert Path(s.file(sc.STATE_FILE)).read_bytes() == damaged


def test_an_unreadable_state_file_is_not_taken_for_an_empty_one(root: str):
    s = SessionScratch.for_session("s1", project_path="/work/proj", root=root).create()
    os.mkdir(s.file(sc.STATE_FILE))  # a folder where the file should be: reading it fails
    with pytest.raises(sc.StateFileDamaged):
        s.set("new", "value")
    assert os.path.isdir(s.file(sc.STATE_FILE))


def test_a_snapshot_of_a_damaged_state_keeps_its_bytes(root: str):
    s = SessionScratch.for_session("s1", project_path="/work/proj", root=root).create()
    Path(s.file(sc.STATE_FILE)).write_bytes(b"{broken")
    path = s.snapshot("manual")
    assert path is not None and Path(path).read_bytes() == b"{broken"
