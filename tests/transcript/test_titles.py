from __future__ import annotations

import json
from pathlib import Path

from session_kit.transcript.entries import read_entries
from session_kit.transcript.glance import glance
from session_kit.transcript.titles import TitleLine, TitleScan, choose_title
from tests.support.transcripts import Transcript


def test_the_latest_summary_that_belongs_to_the_session_is_its_title():
    lines = [TitleLine("summary", "other", "x"), TitleLine("summary", "early", "a"), TitleLine("summary", "late", "b")]
    assert choose_title(lines, {"a", "b"}.__contains__) == "late"


def test_without_a_summary_of_its_own_the_first_one_is_the_title():
    lines = [TitleLine("summary", "first", "x"), TitleLine("summary", "second", "y")]
    assert choose_title(lines, lambda _: False) == "first"


def test_a_rename_wins_over_generated_titles_and_summaries():
    lines = [TitleLine("custom-title", "renamed"), TitleLine("ai-title", "generated"), TitleLine("summary", "s", "a")]
    assert choose_title(lines, lambda _: True) == "renamed"
    assert choose_title(lines[1:], lambda _: True) == "generated"
    assert choose_title([], lambda _: True) is None


def _titled(tmp_path: Path) -> tuple[Path, int]:
    t = Transcript(version="1.0.98")
    t.lines.append({"type": "summary", "summary": "someone else's", "leafUuid": "nope"})
    first = t.user("start")
    t.noise("attachment", size=20000)  # the last title is past the head's first read
    last = t.say("done")[0]
    t.lines.insert(1, {"type": "summary", "summary": "ours, early", "leafUuid": first["uuid"]})
    t.lines.insert(2, {"type": "summary", "summary": "ours, latest", "leafUuid": last["uuid"]})
    path = t.write(tmp_path / "s.jsonl")
    return path, path.stat().st_size


def test_a_scan_and_a_glance_name_the_same_title(tmp_path: Path):
    path, size = _titled(tmp_path)
    scan = TitleScan()
    for entry in read_entries(path):
        scan.add(entry)
    assert scan.title == "ours, latest" == glance(path, size).title


def test_a_glance_finds_a_title_appended_at_the_tail(tmp_path: Path):
    path, _ = _titled(tmp_path)
    with path.open("a") as f:
        f.write(json.dumps({"type": "ai-title", "aiTitle": "Generated late", "sessionId": "s"}) + "\n")
    assert glance(path, path.stat().st_size).title == "Generated late"
