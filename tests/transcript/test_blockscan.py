"""Reading a file as blocks of whole lines, and finding the lines of a block that hold a needle."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from session_kit.transcript import blockscan


def lines_file(tmp_path: Path) -> Path:
    path = tmp_path / "s.jsonl"
    path.write_bytes(
        b"\xef\xbb\xbf"
        + b"".join(f'{{"n":{i},"t":"{"Needle" if i % 4 == 0 else "hay"}"}}\n'.encode() for i in range(40))
    )
    return path


def scan(path: Path, needle: bytes | None) -> list[tuple[int, int, bytes]]:
    with open(path, "rb") as f:
        first, rest = blockscan.first_block(f.fileno(), os.fstat(f.fileno()).st_size)
        found = blockscan.blocks(rest, first) if rest is not None else [first]
        return list(blockscan.all_lines(found) if needle is None else blockscan.candidate_lines(found, needle))


def test_a_small_file_is_one_block_without_the_byte_order_mark(tmp_path: Path):
    path = lines_file(tmp_path)
    with open(path, "rb") as f:
        first, rest = blockscan.first_block(f.fileno(), os.fstat(f.fileno()).st_size)
    assert rest is None and first == path.read_bytes()[3:]


@pytest.mark.parametrize("block", [blockscan.BLOCK, 64, 7])
def test_candidate_lines_are_numbered_as_all_lines_are_whatever_the_block_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, block: int
):
    monkeypatch.setattr(blockscan, "BLOCK", block)
    path = lines_file(tmp_path)
    expected = [line for line in scan(path, None) if b"needle" in line[2].lower()]
    assert scan(path, b"needle") == expected
    assert [n for n, _, _ in expected] == list(range(1, 41, 4))


@pytest.mark.parametrize("block", [blockscan.BLOCK, 64, 7])
def test_blocks_passed_without_a_hit_are_counted_from_the_file_only_when_a_hit_follows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, block: int
):
    monkeypatch.setattr(blockscan, "BLOCK", block)
    path = lines_file(tmp_path)  # starts with a byte-order mark
    counted: list[tuple[int, int]] = []
    with open(path, "rb") as f:
        fd = f.fileno()
        first, rest = blockscan.first_block(fd, os.fstat(fd).st_size)
        found = blockscan.blocks(rest, first) if rest is not None else [first]
        shift = rest.tell() - len(first) if rest is not None else 0

        def newlines_in(start: int, stop: int) -> int:
            counted.append((start, stop))
            return blockscan.newlines_between(fd, shift + start, shift + stop)

        lazy = list(blockscan.candidate_lines(found, b"needle", newlines_in=newlines_in))
        assert lazy == scan(path, b"needle")
        f.seek(0)
        first, rest = blockscan.first_block(fd, os.fstat(fd).st_size)
        found = blockscan.blocks(rest, first) if rest is not None else [first]
        counted.clear()
        assert list(blockscan.candidate_lines(found, b"absent", newlines_in=newlines_in)) == []
        assert counted == []  # no hit: nothing was counted


def test_blocks_end_on_whole_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(blockscan, "BLOCK", 10)
    path = lines_file(tmp_path)
    with open(path, "rb") as f:
        first, rest = blockscan.first_block(f.fileno(), os.fstat(f.fileno()).st_size)
        assert rest is not None
        found = list(blockscan.blocks(rest, first))
    assert all(b.endswith(b"\n") for b in found)
    assert b"".join(found) == path.read_bytes()[3:]


def test_a_file_that_grew_since_it_was_sized_is_read_on_past_its_first_block(tmp_path: Path):
    path = lines_file(tmp_path)
    size = path.stat().st_size
    with open(path, "ab") as w:  # the client appended after the size was taken
        w.write(b'{"n":99,"t":"late"}\n')
    with open(path, "rb") as f:
        first, rest = blockscan.first_block(f.fileno(), size)
        assert rest is not None
        assert b"".join(blockscan.blocks(rest, first)).endswith(b'"late"}\n')
