"""Conversation lines of a transcript: the forked reader gives exactly what the serial one does."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

from session_kit.conversation import noise
from session_kit.conversation.noise import NoiseTally
from session_kit.transcript.reader import ReadStats

REAL = Path(__file__).parent.parent / "fixtures" / "real"
forks = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")


def _load_generator():
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "generate.py"
    spec = importlib.util.spec_from_file_location("benchmarks_generate_noise", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _both(path: Path):
    results = []
    for reader in (noise._serial, noise._forked):
        stats, tally = ReadStats(), NoiseTally()
        lines = list(reader(path, stats, tally))
        results.append((lines, stats.as_dict(), stats.malformed_lines, (tally.input_chars, tally.entries, tally.chars)))
    return results


@forks
def test_forked_reader_gives_the_serial_lines_and_counts_on_generated_sessions(tmp_path: Path):
    _load_generator().generate(tmp_path / "root", sessions=3, big_mb=1, seed=5, workers=1)
    paths = sorted((tmp_path / "root").rglob("*.jsonl"))
    assert paths
    for path in paths:
        serial, forked = _both(path)
        assert forked == serial
        assert serial[0]  # something was kept


@forks
def test_forked_reader_gives_the_serial_lines_on_odd_files(tmp_path: Path):
    path = tmp_path / "odd.jsonl"
    path.write_bytes(
        b'\xef\xbb\xbf{"type":"user","message":{"content":"hi"}}\n'
        b"\n"
        b'{"type":"attachment","attachment":{}}\n'
        b"not json\n" + b'{"type":"user","x":"' + b"y" * 600_000 + b'"}\n'  # longer than a read block
        b'{"type":"assistant","message":{"content":[]}}'  # half-written last line
    )
    serial, forked = _both(path)
    assert forked == serial
    assert [n for n, _ in serial[0]] == [1, 2, 4, 5, 6]


@forks
def test_forked_reader_raises_what_the_serial_one_raises(tmp_path: Path):
    missing = tmp_path / "gone.jsonl"
    for reader in (noise._serial, noise._forked):
        with pytest.raises(FileNotFoundError):
            list(reader(missing, ReadStats(), NoiseTally()))


@forks
def test_a_consumer_that_stops_early_leaves_no_child(tmp_path: Path):
    path = tmp_path / "big.jsonl"
    path.write_bytes(b'{"type":"user","message":{"content":"hi"}}\n' * 200_000)
    lines = noise._forked(path, ReadStats(), NoiseTally())
    assert next(lines)[0] == 1
    lines.close()  # closes the pipe, then reaps the child
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


@forks
def test_real_client_transcripts_keep_the_same_lines_either_way():
    for path in sorted(REAL.rglob("*.jsonl")):
        serial, forked = _both(path)
        assert forked == serial


def _ahead_lines(path: Path, ahead) -> tuple[list, dict]:
    done: dict = {}
    lines = []
    for line_no, raw in noise._forked(path, ReadStats(), NoiseTally(), ahead, done):
        assert line_no not in lines
        lines.append((line_no, raw, done.get(line_no)))  # ready before its line comes
    return lines, done


@forks
def test_the_forked_reader_does_work_ahead_and_hands_it_over_with_its_line(tmp_path: Path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(
        b'{"type":"user","message":{"content":"one"}}\n'
        b'{"type":"attachment","attachment":{}}\n'
        b'{"type":"user","message":{"content":"three"}}\n'
    )
    lines, done = _ahead_lines(path, lambda raw: ("seen", len(raw)) if b"three" in raw else None)
    assert [(n, note) for n, _, note in lines] == [(1, None), (3, ("seen", 46))]
    assert done == {3: ("seen", 46)}
    serial = list(noise._serial(path, ReadStats(), NoiseTally()))
    assert [(n, raw) for n, raw, _ in lines] == serial  # the lines themselves are untouched


@forks
def test_work_ahead_that_fails_is_left_undone_and_the_lines_still_come(tmp_path: Path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(b'{"type":"user","message":{"content":"one"}}\n' * 3)

    def broken(raw: bytes):
        raise ValueError("no")

    lines, done = _ahead_lines(path, broken)
    assert [n for n, _, _ in lines] == [1, 2, 3] and done == {}
    unmarshalable, done = _ahead_lines(path, lambda raw: object())
    assert len(unmarshalable) == 3 and done == {}
