"""The kit's own state folder: where it is, and writes that are whole, private and locked."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import platformdirs
import pytest

from session_kit.state import root as state


@pytest.mark.skipif(not (sys.platform.startswith("linux") or sys.platform == "darwin"), reason="mirrors the POSIX rule")
@pytest.mark.parametrize("xdg", [None, "/custom/state", "relative/ignored"])
def test_state_root_is_platformdirs_user_state_dir(monkeypatch: pytest.MonkeyPatch, xdg: str | None):
    monkeypatch.delenv("SESSION_KIT_HOME")
    if xdg is None:
        monkeypatch.delenv("XDG_STATE_HOME", raising=False)
    else:
        monkeypatch.setenv("XDG_STATE_HOME", xdg)
    assert state.state_root() == platformdirs.user_state_dir(state.APP_NAME, appauthor=False)


def test_session_kit_home_overrides(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    monkeypatch.setenv("SESSION_KIT_HOME", str(tmp_path / "x"))
    assert state.state_root() == str(tmp_path / "x")


def test_a_held_lock_makes_another_wait_and_time_out(tmp_path: Path):
    path = str(tmp_path / "x")
    with state.locked(path), pytest.raises(TimeoutError), state.locked(path, timeout=0.05):
        pass


def test_a_released_lock_can_be_taken_again(tmp_path: Path):
    path = str(tmp_path / "x")
    with state.locked(path):
        pass
    with state.locked(path, timeout=0.05):
        pass


def test_the_log_appends_one_line_per_message_with_the_pid(tmp_path: Path):
    path = state.log(str(tmp_path), "one")
    state.log(str(tmp_path), "two")
    lines = Path(path).read_text().splitlines()
    assert len(lines) == 2 and lines[1].endswith("two") and f"pid={os.getpid()}" in lines[0]


class _User:
    def __init__(self, home: str) -> None:
        self.pw_dir = home


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the Linux default")
@pytest.mark.parametrize("home", ["", "/", "relative/home"])
def test_an_empty_or_unusable_home_falls_back_to_the_users_home(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, home: str
):
    import pwd

    monkeypatch.delenv("SESSION_KIT_HOME")
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.setenv("HOME", home)
    monkeypatch.setattr(pwd, "getpwuid", lambda uid: _User(str(tmp_path / "me")))
    assert state.state_root() == str(tmp_path / "me" / ".local" / "state" / state.APP_NAME)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the Linux default")
def test_no_usable_home_at_all_is_a_clear_error(monkeypatch: pytest.MonkeyPatch):
    import pwd

    monkeypatch.delenv("SESSION_KIT_HOME")
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.setenv("HOME", "")
    monkeypatch.setattr(pwd, "getpwuid", lambda uid: _User(""))
    with pytest.raises(state.StateRootUnknown, match="SESSION_KIT_HOME"):
        state.state_root()


# --- private, and no writes through planted symlinks -----------------------------------------------


def test_the_state_root_and_every_folder_made_in_it_are_private(tmp_path: Path):
    from session_kit.state.scratch import SessionScratch

    root = str(tmp_path / "fresh" / "state")
    s = SessionScratch.for_session("s1", project_path="/work/proj", root=root)
    s.set("k", "v")
    folders = [Path(root), Path(root) / "projects", Path(s.path).parent.parent, Path(s.path).parent, Path(s.path)]
    assert {oct(p.stat().st_mode & 0o777) for p in folders} == {"0o700"}
    assert oct(Path(s.file("state.json")).stat().st_mode & 0o777) == "0o600"


def test_a_symlink_planted_for_a_session_folder_is_not_written_through(tmp_path: Path):
    from session_kit.state.scratch import SessionScratch

    root = str(tmp_path / "state")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    s = SessionScratch.for_session("s1", project_path="/work/proj", root=root)
    Path(s.path).parent.mkdir(parents=True)
    Path(s.path).symlink_to(elsewhere)
    with pytest.raises(state.UnsafePath):
        s.set("k", "v")
    assert list(elsewhere.iterdir()) == []


def test_a_symlink_planted_for_the_projects_folder_is_not_written_through(tmp_path: Path):
    from session_kit.state.scratch import SessionScratch

    root = tmp_path / "state"
    root.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (root / "projects").symlink_to(elsewhere)
    with pytest.raises(state.UnsafePath):
        SessionScratch.for_session("s1", project_path="/work/proj", root=str(root)).create()
    assert list(elsewhere.iterdir()) == []


def test_a_symlink_planted_for_the_hook_log_is_not_followed(tmp_path: Path):
    root = tmp_path / "state"
    (root / "logs").mkdir(parents=True)
    victim = tmp_path / "victim"
    victim.write_text("mine\n")
    (root / "logs" / "hooks.log").symlink_to(victim)
    with pytest.raises(OSError):
        state.log(str(root), "a message")
    assert victim.read_text() == "mine\n"


def test_a_symlink_planted_for_a_lock_file_is_not_followed(tmp_path: Path):
    target = tmp_path / "not-a-lock"
    (tmp_path / "f.lock").symlink_to(target)
    with pytest.raises(OSError), state.locked(str(tmp_path / "f")):
        pass
    assert not target.exists()


def test_session_kit_scratch_cannot_point_writes_outside_the_state_root(tmp_path: Path):
    from session_kit.state.scratch import scratch_of

    root = str(tmp_path / "state")
    outside = tmp_path / "outside" / "key" / "sessions" / "s1"
    s = scratch_of("s1", root=root, env={"SESSION_KIT_SCRATCH": str(outside)})
    s.set("k", "v")
    assert s.path.startswith(root + os.sep) and not outside.exists()


def test_session_kit_scratch_inside_the_state_root_is_used_as_it_is(tmp_path: Path):
    from session_kit.state.scratch import scratch_of

    root = str(tmp_path / "state")
    inside = os.path.join(root, "projects", "some-key", "sessions", "s1")
    assert scratch_of("s1", root=root, env={"SESSION_KIT_SCRATCH": inside}).path == inside
