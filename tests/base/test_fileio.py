"""The kit's file I/O: files opened without blocking (regular files only, never a block or an
endless read), written whole and private, the JSON of its state files, and the one policy for
text it writes (lone surrogates as U+FFFD)."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from session_kit.base import fileio
from session_kit.base.fileio import TEXT_ERRORS, NotARegularFile, open_fd, open_regular, read_small


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


def opened_within(path: Path, seconds: float = 5.0) -> BaseException | None:
    """What opening `path` raised, run in a thread so that a block fails the test instead of hanging it."""
    outcome: list[BaseException | None] = []

    def attempt() -> None:
        try:
            open_regular(path).close()
            outcome.append(None)
        except BaseException as exc:
            outcome.append(exc)

    worker = threading.Thread(target=attempt, daemon=True)
    worker.start()
    worker.join(seconds)
    assert outcome, f"opening {path} blocked"
    return outcome[0]


def test_a_fifo_is_refused_at_once_instead_of_waiting_for_a_writer(tmp_path: Path):
    fifo = tmp_path / "session.jsonl"
    os.mkfifo(fifo)
    assert isinstance(opened_within(fifo), NotARegularFile)


def test_a_file_opened_sized_comes_with_its_size_and_a_fifo_is_refused_as_well(tmp_path: Path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"x" * 1234)
    fd, st = open_fd(path)
    size = st.st_size
    try:
        assert size == 1234 and os.read(fd, 2000) == b"x" * 1234
    finally:
        os.close(fd)
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(NotARegularFile):
        open_fd(fifo)


def test_a_link_to_dev_zero_is_refused(tmp_path: Path):
    link = tmp_path / "agent-x.meta.json"
    link.symlink_to("/dev/zero")
    error = opened_within(link)
    assert isinstance(error, NotARegularFile) and "device" in str(error)


def test_a_folder_and_a_symlink_loop_are_oserrors(tmp_path: Path):
    (tmp_path / "agent-x.jsonl").mkdir()
    loop = tmp_path / "loop.jsonl"
    loop.symlink_to(loop)
    assert isinstance(opened_within(tmp_path / "agent-x.jsonl"), NotARegularFile)
    assert isinstance(opened_within(loop), OSError)


def test_a_path_with_a_lone_surrogate_or_a_nul_is_an_oserror_not_a_crash(tmp_path: Path):
    for name in ("plan\ud83d.md", "plan\x00.md"):
        with pytest.raises(OSError):
            open_regular(tmp_path / name)


def test_a_small_file_is_read_only_up_to_its_limit(tmp_path: Path):
    path = tmp_path / "settings.json"
    path.write_bytes(b"x" * 10_000)
    assert read_small(path, 100) == b"x" * 100


def test_text_written_with_the_kits_policy_turns_lone_surrogates_into_replacement_characters():
    assert "half \ud83d an emoji".encode("utf-8", TEXT_ERRORS) == "half \ufffd an emoji".encode()
    assert "a whole 😀 stays".encode("utf-8", TEXT_ERRORS) == "a whole 😀 stays".encode()
    assert "é\ud83d".encode("ascii", TEXT_ERRORS) == b"??"
