"""The only transcript reader: one policy for blank, malformed, half-written and huge lines,
and a count of everything it skipped."""

from __future__ import annotations

import json
from pathlib import Path

from session_kit.transcript.reader import ReadStats, iter_records, read_head


def write(tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / "t.jsonl"
    path.write_bytes(data)
    return path


def records(path: Path, **kw) -> tuple[list[tuple[int, dict]], ReadStats]:
    stats = ReadStats()
    return list(iter_records(path, stats, **kw)), stats


def hundred_lines(tmp_path: Path) -> Path:
    lines = [json.dumps({"n": i, "pad": "p" * 50}) for i in range(100)]
    return write(tmp_path, ("\n".join(lines) + "\n").encode())


def test_blank_and_malformed_lines_are_skipped_and_counted(tmp_path: Path):
    path = write(tmp_path, b'{"a":1}\n\n   \n{not json}\n[1,2]\n{"b":2}\n')
    got, stats = records(path)
    assert [r for _, r in got] == [{"a": 1}, {"b": 2}]
    assert [n for n, _ in got] == [1, 6]
    assert (stats.blank, stats.malformed, stats.not_object, stats.skipped) == (2, 1, 1, 2)
    assert stats.malformed_lines == [4]


def test_half_written_last_line_is_not_malformed(tmp_path: Path):
    path = write(tmp_path, b'{"a":1}\n{"b": "still writ')
    got, stats = records(path)
    assert [r for _, r in got] == [{"a": 1}]
    assert stats.partial_tail and stats.malformed == 0
    assert "half-written" in stats.describe()


def test_complete_last_line_without_newline_is_read(tmp_path: Path):
    got, stats = records(write(tmp_path, b'{"a":1}\n{"b":2}'))
    assert [r for _, r in got] == [{"a": 1}, {"b": 2}]
    assert not stats.partial_tail


def test_bom_and_invalid_utf8_are_survived(tmp_path: Path):
    path = write(tmp_path, b'\xef\xbb\xbf{"a":1}\n{"b":"caf\xe9"}\n')
    got, stats = records(path)
    assert got[0][1] == {"a": 1}
    assert got[1][1]["b"].startswith("caf")
    assert stats.invalid_utf8 == 1 and stats.skipped == 0


def test_lines_of_tens_of_megabytes_are_read(tmp_path: Path):
    big = "x" * (20 * 1024 * 1024)
    path = write(tmp_path, json.dumps({"big": big}).encode() + b"\n" + b'{"after":1}\n')
    got, _ = records(path)
    assert len(got[0][1]["big"]) == len(big)
    assert got[1][1] == {"after": 1}


def test_lines_over_the_limit_are_skipped_without_losing_the_next(tmp_path: Path):
    path = write(tmp_path, b'{"a":1}\n' + b'{"x":"' + b"y" * 5000 + b'"}\n{"b":2}\n')
    got, stats = records(path, max_line_bytes=1024)
    assert [r for _, r in got] == [{"a": 1}, {"b": 2}]
    assert [n for n, _ in got] == [1, 3]
    assert stats.oversized == 1


def test_deeply_nested_json_is_malformed_not_a_crash(tmp_path: Path):
    got, stats = records(write(tmp_path, b"[" * 100000 + b"\n" + b'{"ok":1}\n'))
    assert [r for _, r in got] == [{"ok": 1}]
    assert stats.skipped == 1


def test_the_head_is_complete_lines_from_the_first(tmp_path: Path):
    head = read_head(hundred_lines(tmp_path), 500)
    assert head[0]["n"] == 0 and all(isinstance(r["n"], int) for r in head)
    assert [r["n"] for r in head] == list(range(len(head)))
