"""The one line follower: a checkpoint that knows the file it was taken of, whole lines only,
and the one BOM rule."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from session_kit.base.fileio import open_fd
from session_kit.base.follow import Checkpoint, Follow, resume, unchanged

LINE = b'{"type":"user","n":%d}\n'


def lines_of(count: int, start: int = 0) -> bytes:
    return b"".join(LINE % n for n in range(start, start + count))


def read(path: Path, cp: Checkpoint | None, **kwargs) -> tuple[list, Checkpoint, bool]:
    """What a reader does: the lines gained since `cp`, the next checkpoint, whether it restarted."""
    with Follow(path, cp) as f:
        got = [line for block in f.blocks(**kwargs) for line in block]
        return got, f.checkpoint(), f.restarted


def test_a_grown_file_gives_only_its_new_whole_lines(tmp_path: Path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(lines_of(3))
    first, cp, _ = read(path, None)
    with path.open("ab") as f:
        f.write(lines_of(2, start=3))
    got, cp2, restarted = read(path, cp)
    assert len(first) == 3 and got == lines_of(2, start=3).splitlines() and not restarted
    assert cp2.offset == path.stat().st_size


def test_a_half_written_last_line_is_left_for_next_time(tmp_path: Path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(lines_of(2) + b'{"type":"us')
    got, cp, _ = read(path, None)
    assert len(got) == 2 and cp.offset == len(lines_of(2))
    with path.open("ab") as f:
        f.write(b'er"}\n')
    assert read(path, cp)[0] == [b'{"type":"user"}']


def test_a_whole_object_on_a_last_line_never_ended_is_a_line_and_its_newline_later_no_second(tmp_path: Path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(lines_of(2) + b'{"type":"summary","summary":"T"}')
    got, cp, _ = read(path, None, complete_tail=True)
    assert got[-1] == b'{"type":"summary","summary":"T"}' and len(got) == 3 and cp.offset == path.stat().st_size
    with path.open("ab") as f:
        f.write(b'\n{"type":"user"}\n')
    got, cp, restarted = read(path, cp, complete_tail=True)
    assert got == [b'{"type":"user"}'] and not restarted and cp.offset == path.stat().st_size


def test_a_half_written_last_line_is_left_even_for_a_reader_that_takes_whole_ones(tmp_path: Path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(lines_of(2) + b'{"type":"user","message":{"content":"a"}')  # a nested object closed
    got, cp, _ = read(path, None, complete_tail=True)
    assert len(got) == 2 and cp.offset == len(lines_of(2))
    with path.open("ab") as f:
        f.write(b',"uuid":"u"}\n')
    assert read(path, cp, complete_tail=True)[0] == [b'{"type":"user","message":{"content":"a"},"uuid":"u"}']


def test_without_asking_a_last_line_never_ended_is_left(tmp_path: Path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(b'{"type":"summary","summary":"T"}')
    assert read(path, None)[0] == []


def test_a_bom_at_the_start_of_a_file_is_not_part_of_its_first_line(tmp_path: Path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + lines_of(2))
    got, cp, _ = read(path, None, chunk=5)  # the first line spans chunks
    assert got == lines_of(2).splitlines() and cp.offset == path.stat().st_size


def test_a_bom_anywhere_else_is_data(tmp_path: Path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(lines_of(1))
    _, cp, _ = read(path, None)
    with path.open("ab") as f:
        f.write(b"\xef\xbb\xbf" + lines_of(1, start=1))
    assert read(path, cp)[0] == [b"\xef\xbb\xbf" + LINE.rstrip(b"\n") % 1]


def test_a_line_longer_than_the_limit_is_skipped_and_the_next_one_read(tmp_path: Path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(lines_of(1) + b"x" * 100 + b"\n" + lines_of(1, start=1))
    got, cp, _ = read(path, None, chunk=16, max_line=50)
    assert got == [LINE.rstrip(b"\n") % 0, None, LINE.rstrip(b"\n") % 1] and cp.offset == path.stat().st_size


def test_a_line_longer_than_a_chunk_is_read_whole(tmp_path: Path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"y" * 100 + b"\n")
    assert read(path, None, chunk=7)[0] == [b"y" * 100]


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda p, old: p.write_bytes(old[:10] + b"\n"), id="shorter"),
        pytest.param(lambda p, old: p.write_bytes(old.replace(b'"n":0', b'"n":9')), id="same-size-other-head"),
        pytest.param(lambda p, old: p.write_bytes(old.replace(b'"n":299', b'"n":999')), id="same-size-other-end"),
        pytest.param(
            lambda p, old: p.write_bytes(old.replace(b'"n":0', b'"n":9') + lines_of(1)), id="grown-other-head"
        ),
    ],
)
def test_a_file_cut_or_rewritten_is_read_again_from_the_start(tmp_path: Path, change):
    path = tmp_path / "s.jsonl"
    path.write_bytes(lines_of(300))  # longer than the head's and the tail's spans
    _, cp, _ = read(path, None)
    change(path, path.read_bytes())
    got, _, restarted = read(path, cp)
    assert restarted and got[0] == path.read_bytes().split(b"\n", 1)[0]


def test_a_file_replaced_by_another_inode_is_read_again_even_with_the_same_bytes(tmp_path: Path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(lines_of(3))
    _, cp, _ = read(path, None)
    other = tmp_path / "other.jsonl"
    other.write_bytes(lines_of(4))
    os.replace(other, path)
    got, _, restarted = read(path, cp)
    assert restarted and len(got) == 4


def test_nothing_changed_is_told_from_a_stat_alone(tmp_path: Path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(lines_of(2))
    _, cp, _ = read(path, None)
    assert unchanged(cp, os.stat(path))
    with path.open("ab") as f:
        f.write(lines_of(1))
    assert not unchanged(cp, os.stat(path)) and not unchanged(None, os.stat(path))


def test_a_checkpoint_reads_back_from_its_text_and_nothing_else_does(tmp_path: Path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(lines_of(2))
    cp = read(path, None)[1]
    assert Checkpoint.from_text(cp.to_text()) == cp
    for text in (None, 3, "", "c1 1 2", "c9 1 2 3 4 5 - -", "c1 -1 2 3 4 5 - -", "c1 a 2 3 4 5 - -"):
        assert Checkpoint.from_text(text) is None
    with pytest.raises(AttributeError):
        cp.offset = 0  # type: ignore[misc]


def test_a_checkpoint_that_knows_only_its_offset_checks_only_the_size(tmp_path: Path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(lines_of(3))
    fd, st = open_fd(path)
    try:
        assert resume(fd, st, Checkpoint(len(lines_of(2)))) == (len(lines_of(2)), False)
        assert resume(fd, st, Checkpoint(st.st_size + 1)) == (0, True)
    finally:
        os.close(fd)


def test_a_block_the_reader_did_not_finish_is_read_again(tmp_path: Path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(lines_of(4))
    with Follow(path) as f:
        for _block in f.blocks(chunk=len(LINE % 0) * 2):
            break  # stopped inside the first block
        assert f.checkpoint().offset == 0
    with Follow(path) as f:
        blocks = list(f.blocks(chunk=len(LINE % 0) * 2))
        assert len(blocks) == 2 and f.checkpoint().offset == path.stat().st_size


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path):
    fifo = tmp_path / "s.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="FIFO"):
        Follow(fifo)
