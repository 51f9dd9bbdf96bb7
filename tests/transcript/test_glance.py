"""A transcript's head and tail, read cheaply, for listings of many sessions."""

from __future__ import annotations

import json
from pathlib import Path

from session_kit.transcript.entries import parse_timestamp, read_entries
from session_kit.transcript.glance import glance, head_lines, quick_field
from session_kit.transcript.span import SpanScan
from tests.support.transcripts import Transcript


def noisy_session(tmp_path: Path) -> tuple[Transcript, Path]:
    t = Transcript(cwd="/work/g", branch="topic")
    for _ in range(20):
        t.noise("attachment", size=2000)
    t.user("the first request")
    t.say("ok")
    t.tick(600)
    t.say("the last word")
    return t, t.write(tmp_path / "s.jsonl")


def test_the_head_gives_the_first_request_cwd_and_branch(tmp_path: Path):
    _, path = noisy_session(tmp_path)
    g = glance(path, path.stat().st_size)
    assert g.first_prompt is not None and g.first_prompt.text == "the first request"
    assert (g.cwd, g.branch) == ("/work/g", "topic")


def test_the_tail_gives_the_last_time(tmp_path: Path):
    t, path = noisy_session(tmp_path)
    g = glance(path, path.stat().st_size)
    assert g.start is not None and g.end == t.clock


def test_the_span_is_the_conversations_whatever_the_noise_and_the_json_spacing(tmp_path: Path):
    t = Transcript()
    t.noise("attachment", size=12_000)  # a time before the conversation's: it does not count
    first = t.user("go")
    for _ in range(3):
        t.say("x" * 3000)
    last = t.say("done")[0]
    t.noise("attachment", size=40_000)  # past the tail's first read, and later: it does not count
    for name, separators in (("compact", (",", ":")), ("spaced", (", ", ": "))):
        path = tmp_path / f"{name}.jsonl"
        path.write_text("".join(json.dumps(line, separators=separators) + "\n" for line in t.lines))
        scan = SpanScan()
        for entry in read_entries(path):
            scan.add(entry)
        g = glance(path, path.stat().st_size)
        assert (
            (g.start, g.end)
            == (scan.start, scan.end)
            == (parse_timestamp(first["timestamp"]), parse_timestamp(last["timestamp"]))
        ), name


def test_a_file_that_is_gone_gives_an_empty_glance(tmp_path: Path):
    g = glance(tmp_path / "gone.jsonl", 100)
    assert (g.start, g.first_prompt, g.cwd, g.branch, g.end) == (None, None, None, None, None)


def test_a_string_field_is_read_without_parsing_the_line():
    assert quick_field(b'{"type":"user","cwd":"/a \\"b\\""}', b"cwd") == '/a "b"'


def test_a_missing_field_reads_as_none():
    assert quick_field(b'{"type":"user"}', b"cwd") is None


def test_head_lines_are_whole_lines_without_the_byte_order_mark(tmp_path: Path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(b'\xef\xbb\xbf{"n":1}\n{"n":2}\n{"n":3}')
    assert list(head_lines(path)) == [b'{"n":1}', b'{"n":2}', b'{"n":3}']


def test_a_byte_search_finds_a_needle_anywhere_even_across_its_blocks(tmp_path: Path, monkeypatch):
    import os

    from session_kit.transcript import glance as module

    monkeypatch.setattr(module, "SEARCH_BLOCK", 8)
    path = tmp_path / "f.jsonl"
    path.write_bytes(b"0123456789abcdefghij")
    fd = os.open(path, os.O_RDONLY)
    try:
        for needle in (b"012", b"6789ab", b"789abcdefg", b"hij", b"0123456789abcdefghij"):
            assert module.file_holds(fd, needle), needle
        for needle in (b"ab9", b"jk", b"0123456789abcdefghijk"):
            assert not module.file_holds(fd, needle), needle
        assert module.file_holds(fd, b"jk", b"9abcd")  # any of several, in one pass
        assert not module.file_holds(fd, b"jk", b"ab9")
    finally:
        os.close(fd)


def test_a_byte_search_never_maps_the_file(tmp_path: Path, monkeypatch):
    """A mapped file counts in resident memory as its pages are touched: a search of a big
    session must read it in bounded blocks instead."""
    import mmap
    import os

    from session_kit.transcript import glance as module

    def refuse(*args, **kwargs):
        raise AssertionError("file mapped")

    monkeypatch.setattr(mmap, "mmap", refuse)
    path = tmp_path / "f.jsonl"
    path.write_bytes(b"x" * 3_000_000 + b"needle")
    fd = os.open(path, os.O_RDONLY)
    try:
        assert module.file_holds(fd, b"needle")
        assert not module.file_holds(fd, b"other")
    finally:
        os.close(fd)


def titled_through(tmp_path: Path, *, rename: str | None) -> Path:
    """A current client's 200 KB session: ai-title lines every few KB from 64 KB on, the
    last one 40 KB from the end; with `rename`, a custom-title early."""
    t = Transcript(version="2.1.330")
    t.user("Refactor the parser")
    if rename:
        t.custom_title(rename)
    n = 0
    while len(t.text()) < 64 * 1024:
        t.noise("attachment", size=2000)
    while len(t.text()) < 160 * 1024:
        n += 1
        t.ai_title(f"Refactoring the parser, take {n}")
        t.say("Working on it. " * 20)
        t.noise("attachment", size=3000)
    while len(t.text()) < 200 * 1024:  # the conversation goes on: a time in every tail read
        t.bash("make test", "ok\n" * 600)
    return t.write(tmp_path / f"{t.session_id}.jsonl")


def test_a_title_repeated_through_the_file_is_found_far_from_its_head_and_tail(tmp_path: Path):
    path = titled_through(tmp_path, rename=None)
    latest = [e.raw["aiTitle"] for e in read_entries(path) if e.type == "ai-title"][-1]
    data = path.read_bytes()
    assert len(data) - data.rfind(b'"ai-title"') >= 38 * 1024  # beyond every tail read
    assert glance(path, path.stat().st_size).title == latest


def test_an_early_rename_wins_over_the_generated_titles_after_it(tmp_path: Path):
    path = titled_through(tmp_path, rename="Parser rewrite")
    assert glance(path, path.stat().st_size).title == "Parser rewrite"
