"""The kit's own file I/O: files opened without blocking, written whole and private, and the
JSON of its state files."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from session_kit.state import fileio


def write_twice(tmp_path: Path) -> Path:
    target = tmp_path / "f.json"
    fileio.atomic_write(str(target), b"one")
    fileio.atomic_write(str(target), b"two")
    return target


def test_an_atomic_write_replaces_the_content(tmp_path: Path):
    assert write_twice(tmp_path).read_bytes() == b"two"


def test_an_atomic_write_makes_the_file_private(tmp_path: Path):
    assert oct(write_twice(tmp_path).stat().st_mode & 0o777) == "0o600"


def test_an_atomic_write_leaves_no_temp_file(tmp_path: Path):
    write_twice(tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["f.json"]


def test_an_atomic_write_syncs_its_bytes_unless_told_it_need_not(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    synced: list[int] = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real(fd)))
    fileio.atomic_write(str(tmp_path / "kept"), b"kept")
    assert len(synced) == 1
    fileio.atomic_write(str(tmp_path / "hint"), b"hint", sync=False)
    assert len(synced) == 1
    assert (tmp_path / "hint").read_bytes() == b"hint" and not list(tmp_path.glob(".*.tmp"))


def test_a_failed_replace_leaves_no_temp_file(tmp_path: Path):
    tmp = fileio.write_temp(str(tmp_path / "f"), b"x")
    with pytest.raises(OSError):
        fileio.replace(tmp, str(tmp_path / "missing-folder" / "f"))
    assert list(tmp_path.iterdir()) == []


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path):
    fifo = tmp_path / "x.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(fileio.NotARegularFile, match="FIFO"):
        fileio.open_fd(fifo)


def test_an_append_open_creates_a_private_file(tmp_path: Path):
    fd, st = fileio.open_fd(tmp_path / "env", flags=os.O_RDWR | os.O_APPEND | os.O_CREAT)
    os.close(fd)
    assert st.st_size == 0 and stat.S_IMODE(os.stat(tmp_path / "env").st_mode) == 0o600


def test_json_with_a_lone_surrogate_reads_back_as_it_was_written(tmp_path: Path):
    value = {"path": "/tmp/caf\udce9", "n": [1, 2.5, None, True]}
    fileio.write_json(str(tmp_path / "s.json"), value, indent=1)
    (tmp_path / "s.json").read_bytes().decode("utf-8")  # valid UTF-8
    assert fileio.read_json(str(tmp_path / "s.json"), 1 << 20) == value


def test_a_json_file_past_its_limit_is_refused(tmp_path: Path):
    fileio.write_json(str(tmp_path / "big.json"), {"x": "y" * 100})
    with pytest.raises(ValueError, match="larger than"):
        fileio.read_json(str(tmp_path / "big.json"), 50)


@pytest.mark.parametrize(
    ("content", "problem"),
    [(None, None), (b"{", "not JSON"), (b"[1]", "not a JSON object"), (b"{}" + b" " * 64, "larger than")],
)
def test_a_config_file_reads_as_an_object_and_says_what_was_wrong(tmp_path: Path, content, problem):
    path = tmp_path / "config.json"
    if content is not None:
        path.write_bytes(content)
    value, found = fileio.read_json_object(str(path), 32)
    assert value == {}
    assert (found is None) if problem is None else (problem in found and str(path) in found)
