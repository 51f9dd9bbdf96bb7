"""Conversation lines of a transcript: every line but the client's noise, which is never parsed."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from session_kit.base.vocabulary import NOISE_TYPES
from session_kit.conversation import noise
from session_kit.conversation.noise import NoiseTally
from session_kit.transcript.reader import ReadStats

REAL = Path(__file__).parent.parent / "fixtures" / "real"


def _load_generator():
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "generate.py"
    spec = importlib.util.spec_from_file_location("benchmarks_generate_noise", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _read(path: Path) -> tuple[list[tuple[int, bytes]], NoiseTally]:
    tally = NoiseTally()
    return list(noise.conversation_lines(path, ReadStats(), tally)), tally


def _noise_by_parsing(raw: bytes) -> bool:
    value = json.loads(raw)
    return isinstance(value, dict) and value.get("type") in NOISE_TYPES


def _check_against_parsing(path: Path) -> list[tuple[int, bytes]]:
    lines, tally = _read(path)
    every = path.read_bytes().splitlines(keepends=True)
    expected = [(n, raw) for n, raw in enumerate(every, 1) if not _noise_by_parsing(raw)]
    assert lines == expected
    dropped = [raw for raw in every if _noise_by_parsing(raw)]
    assert (tally.input_chars, tally.entries, tally.chars) == (
        len(b"".join(every)),
        len(dropped),
        len(b"".join(dropped)),
    )
    return lines


def test_generated_sessions_keep_every_line_but_the_noise_and_count_it(tmp_path: Path):
    _load_generator().generate(tmp_path / "root", sessions=3, big_mb=1, seed=5, workers=1)
    paths = sorted((tmp_path / "root").rglob("*.jsonl"))
    assert paths
    for path in paths:
        assert _check_against_parsing(path)  # something was kept


def test_real_client_transcripts_keep_every_conversation_line_and_drop_only_noise():
    paths = sorted(REAL.rglob("*.jsonl"))
    assert paths
    for path in paths:
        lines, tally = _read(path)
        every = path.read_bytes().splitlines(keepends=True)
        kept = dict(lines)
        assert all(kept[n] == raw for n, raw in enumerate(every, 1) if not _noise_by_parsing(raw))
        dropped = [raw for n, raw in enumerate(every, 1) if n not in kept]
        assert dropped and all(_noise_by_parsing(raw) for raw in dropped)
        # (an attachment whose `type` sits mid-line, 7 KB from either end, is told by parsing it)
        assert tally.entries == len(dropped) and tally.input_chars == len(b"".join(every))


def test_a_line_that_starts_with_a_noise_type_is_dropped_only_for_that_exact_name(tmp_path: Path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(
        b'{"type":"mode","mode":"plan"}\n'  # noise
        b'{"type":"mode-of-the-future","x":1}\n'  # a type nobody knows, whose name starts like one
        b'{"type":"api-request-shape","n":2}\n'  # noise, named like another noise type and more
        b'{"type":"mo\\"de","x":1}\n'  # an escaped quote in the name: told by parsing, kept
        b'{"type":"user","message":{"content":"hi"}}\n'
    )
    lines, tally = _read(path)
    assert [n for n, _ in lines] == [2, 4, 5]
    assert tally.entries == 2


def test_odd_lines_are_kept_for_the_parser_to_judge(tmp_path: Path):
    path = tmp_path / "odd.jsonl"
    path.write_bytes(
        b'\xef\xbb\xbf{"type":"user","message":{"content":"hi"}}\n'
        b"\n"
        b'{"type":"attachment","attachment":{}}\n'
        b"not json\n" + b'{"type":"user","x":"' + b"y" * 600_000 + b'"}\n'  # longer than a read block
        b'{"type":"assistant","message":{"content":[]}}'  # half-written last line
    )
    lines, tally = _read(path)
    assert [n for n, _ in lines] == [1, 2, 4, 5, 6]
    assert tally.entries == 1


def test_a_missing_file_raises(tmp_path: Path):
    with pytest.raises(FileNotFoundError):
        _read(tmp_path / "gone.jsonl")
