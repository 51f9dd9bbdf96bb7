from __future__ import annotations

from pathlib import Path

from tests.support.sessions import build
from tests.support.transcripts import Transcript

from session_kit.sessions.store import list_all_sessions
from session_kit.queries.search import Query, SearchTarget, search, search_file


def targets(root: Path) -> list[SearchTarget]:
    return [SearchTarget(r.path, r.id) for r in list_all_sessions(root)]


def test_hits_in_every_kind_of_field_case_insensitively(tmp_path: Path):
    t = Transcript("s1")
    t.user("Find the NEEDLE please")
    call = t.bash("grep needle .", "found: Needle here")
    t.say("The needle is found")
    t.noise("attachment", size=10)
    t.raw({"type": "attachment", "attachment": {"content": "needle in noise"}})
    path = t.write(tmp_path / "s1.jsonl")
    hits = search_file(SearchTarget(path, "s1"), Query("needle"))
    assert [(h.where, h.tool) for h in hits] == [
        ("user", None),
        ("tool_input", "Bash"),
        ("tool_output", "Bash"),
        ("assistant", None),
    ]
    assert "NEEDLE" in hits[0].snippet
    assert hits[1].line == 2
    only_bash = search_file(SearchTarget(path, "s1"), Query("needle"), tool="bash")
    assert {h.tool for h in only_bash} == {"Bash"}
    assert call


def test_queries_with_quotes_and_non_ascii_are_found(tmp_path: Path):
    t = Transcript("s2")
    t.user('He said "Grüße" to the Ümlaut')
    path = t.write(tmp_path / "s2.jsonl")
    assert search_file(SearchTarget(path, "s2"), Query('said "grüße"'))
    assert search_file(SearchTarget(path, "s2"), Query("ümlaut"))


def test_no_false_hits_from_json_structure(tmp_path: Path):
    t = Transcript("s3")
    t.user("plain words")
    path = t.write(tmp_path / "s3.jsonl")
    assert search_file(SearchTarget(path, "s3"), Query("sessionId")) == []
    assert search_file(SearchTarget(path, "s3"), Query('":"')) == []


def test_line_numbers_are_right_across_blocks(tmp_path: Path, monkeypatch):
    import session_kit.queries.search as s

    monkeypatch.setattr(s, "BLOCK", 64)
    t = Transcript("s4")
    for i in range(30):
        t.user(f"line {i} {'target' if i in (3, 17, 29) else ''}")
    path = t.write(tmp_path / "s4.jsonl", tail=b'{"type":"user","message":{"content":"target half')
    hits = search_file(SearchTarget(path, "s4"), Query("target"))
    assert [h.line for h in hits] == [4, 18, 30]


def test_search_covers_agent_logs_and_reports_progress(claude_root: Path):
    b = build(claude_root)
    ts = targets(claude_root)
    ts.append(SearchTarget(next(claude_root.rglob(f"agent-{b.worker_agent}.jsonl")), b.current.session_id, b.worker_agent))
    seen = []
    hits = list(search(ts, Query("sentinel_failure"), progress=lambda d, n: seen.append((d, n))))
    assert [(h.agent_id, h.where) for h in hits] == [(b.worker_agent, "tool_output")]
    assert seen[-1] == (len(ts), len(ts))


def test_parallel_search_gives_the_same_hits_in_the_same_order(tmp_path: Path):
    targets = []
    for i in range(150):
        t = Transcript(f"s{i:03d}")
        t.user(f"prompt {i}" + (" Needle" if i % 7 == 0 else ""))
        t.bash("echo x", "needle out" if i % 5 == 0 else "nothing")
        targets.append(SearchTarget(t.write(tmp_path / f"s{i:03d}.jsonl"), f"s{i:03d}"))
    serial = list(search(targets, Query("needle"), workers=1))
    seen = []
    parallel = list(search(targets, Query("needle"), workers=2, progress=lambda d, n: seen.append(d)))
    assert parallel == serial and len(serial) == 22 + 30
    assert seen[-1] == 150 and seen == sorted(seen)
