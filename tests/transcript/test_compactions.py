"""Compaction boundaries in both dialects, and the generations they split a session into."""

from __future__ import annotations

from pathlib import Path

from session_kit.transcript.compactions import find_compactions, is_seed_dialect
from session_kit.transcript.entries import Entry, read_entries
from tests.support.transcripts import Transcript


def compacted_twice(tmp_path: Path) -> list[Entry]:
    t = Transcript()
    t.user("first")
    t.compact("S1", trigger="auto", pre_tokens=150000)
    t.user("second")
    t.compact("S2")
    t.user("third")
    return list(read_entries(t.write(tmp_path / "s.jsonl")))


def test_compactions_are_found_with_trigger_tokens_and_summary(tmp_path: Path):
    comps = find_compactions(compacted_twice(tmp_path))
    assert [(c.trigger, c.pre_tokens, c.summary) for c in comps] == [("auto", 150000, "S1"), ("manual", 12345, "S2")]


def test_summary_lines_are_titles_not_compactions(tmp_path: Path):
    t = Transcript()
    t.summary_2025("what happened before")
    t.user("go on")
    assert find_compactions(read_entries(t.write(tmp_path / "s.jsonl"))) == []


def test_seed_dialect_summaries_count_as_compactions_where_no_boundary_exists(tmp_path: Path):
    t = Transcript(dialect="seed")
    t.summary_2025("what happened before")
    t.user("go on")
    entries = list(read_entries(t.write(tmp_path / "s.jsonl")))
    assert any(is_seed_dialect(e) for e in entries)
    comps = find_compactions(entries, seed_dialect=True)
    assert [(c.dialect, c.summary) for c in comps] == [("2025", "what happened before")]


def test_a_boundary_makes_seed_dialect_summaries_titles(tmp_path: Path):
    t = Transcript()
    t.summary_2025("a title")
    t.user("go on")
    t.compact("the real summary")
    comps = find_compactions(read_entries(t.write(tmp_path / "s.jsonl")), seed_dialect=True)
    assert [c.summary for c in comps] == ["the real summary"]
