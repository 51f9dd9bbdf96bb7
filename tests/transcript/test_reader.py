"""The only transcript reader: one policy for blank, malformed, half-written and huge lines,
and a count of everything it skipped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from session_kit.transcript import reader
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


# --- the two parsers give the same values and the same errors ---------------------------------

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)
ODD_LINES = [
    b"1e400",  # past a float: inf for the standard library
    b"-1e400",
    b"NaN",
    b"[Infinity, -Infinity]",
    b'"\\ud800"',  # a lone surrogate escape
    b'"\\udc00\\ud800"',
    b"12345678901234567890123456789",
    b"-9223372036854775809",
    b"18446744073709551616",
    b'{"a": 1, "a": 2}',
    b'"\xff"',  # invalid UTF-8
    b'{"a": 1} x',
    b"[1,]",
    b"",
    b"[" * 5000 + b"]" * 5000,
    b'"\\u0000"',
    b"0.1",
    b"1E5",
    b"-0",
    b"-0.0",
    b"1.7976931348623157e308",
]


def _outcome(data: bytes):
    try:
        value = reader.loads_line(data)
    except RecursionError:
        return ("error", "RecursionError")
    except ValueError as exc:
        return ("error", "UnicodeDecodeError" if isinstance(exc, UnicodeDecodeError) else "ValueError")
    return ("value", json.dumps(value, sort_keys=True, default=repr), repr(value))


@pytest.fixture
def fast_parser(monkeypatch):
    """msgspec parsing from the first line on; back to the standard library afterwards."""
    monkeypatch.setattr(reader, "_fast", None)
    monkeypatch.setattr(reader, "_FAST_ERRORS", ())
    monkeypatch.setattr(reader, "_switch_at", reader._switch_at)
    reader._switch()
    assert reader._fast is not None
    yield


def _standard(data: bytes):
    saved = reader._fast
    reader._fast = None
    saved_at, reader._switch_at = reader._switch_at, float("inf")
    try:
        return _outcome(data)
    finally:
        reader._fast, reader._switch_at = saved, saved_at


def test_odd_lines_give_the_same_value_or_error_with_either_parser(fast_parser):
    for data in ODD_LINES:
        assert _outcome(data) == _standard(data), data


@given(JSON_VALUES)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_any_json_value_parses_the_same_with_either_parser(fast_parser, value):
    for data in (json.dumps(value).encode(), json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass")):
        assert _outcome(data) == _standard(data)


def test_a_process_switches_to_the_fast_parser_only_after_megabytes(monkeypatch):
    monkeypatch.setattr(reader, "_fast", None)
    monkeypatch.setattr(reader, "_parsed", 0)
    line = b'{"type": "user", "text": "' + b"x" * 100 + b'"}'
    monkeypatch.setattr(reader, "_switch_at", 10 * len(line))
    for _ in range(10):
        reader.loads_line(line)
    assert reader._fast is None  # a small job never imports it
    reader.loads_line(line)
    assert reader._fast is not None
    assert reader.loads_line(line) == json.loads(line)
