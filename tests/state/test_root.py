from __future__ import annotations

import os
import sys
from pathlib import Path

import platformdirs
import pytest

from session_kit.state import ids
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


@pytest.mark.parametrize("good", ["a", "0f7e-11", "abc_DEF.1", "a" * 128])
def test_plain_ids_pass(good: str):
    assert ids.check_session_id(good) == good


@pytest.mark.parametrize("bad", ["", None, 5, "../x", "a/b", "a\\\\b", "x\x00", ".x", "-x", "a..b", "a b", "a" * 129, "é"])
def test_unsafe_ids_are_refused(bad):
    with pytest.raises(ids.InvalidSessionId):
        ids.check_session_id(bad)


def test_atomic_write_leaves_no_temp_and_sets_mode(tmp_path: Path):
    target = tmp_path / "f.json"
    state.atomic_write(str(target), b"one")
    state.atomic_write(str(target), b"two")
    assert target.read_bytes() == b"two" and oct(target.stat().st_mode & 0o777) == "0o600"
    assert [p.name for p in tmp_path.iterdir()] == ["f.json"]


def test_lock_is_exclusive(tmp_path: Path):
    path = str(tmp_path / "x")
    with state.locked(path):
        with pytest.raises(TimeoutError):
            with state.locked(path, timeout=0.05):
                pass
    with state.locked(path, timeout=0.05):
        pass


def test_log_appends_lines(tmp_path: Path):
    path = state.log(str(tmp_path), "one")
    state.log(str(tmp_path), "two")
    lines = Path(path).read_text().splitlines()
    assert len(lines) == 2 and lines[1].endswith("two") and f"pid={os.getpid()}" in lines[0]
