"""Opening files the kit reads: regular files only, never a block or an endless read; and
the one policy for text it writes (lone surrogates as U+FFFD)."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from session_kit.files import TEXT_ERRORS, NotARegularFile, open_regular, open_sized, read_small


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
    fd, size = open_sized(path)
    try:
        assert size == 1234 and os.read(fd, 2000) == b"x" * 1234
    finally:
        os.close(fd)
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(NotARegularFile):
        open_sized(fifo)


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
