"""Search over transcripts: what a hit is, where it is, and the same hits however it is run."""

from __future__ import annotations

from pathlib import Path

import pytest

from session_kit.queries.search import Query, SearchHit, SearchTarget, search, search_file, session_targets
from session_kit.redaction.engine import showing_secrets
from session_kit.sessions.store import list_all_sessions
from tests.support import dialects
from tests.support.sessions import build
from tests.support.transcripts import Transcript


def targets(root: Path) -> list[SearchTarget]:
    return [SearchTarget(r.path, r.id) for r in list_all_sessions(root)]


def with_worker_log(root: Path) -> tuple[list[SearchTarget], str]:
    """Every session of `build`'s root, and its failing worker agent's log."""
    b = build(root)
    ts = targets(root)
    ts.append(SearchTarget(next(root.rglob(f"agent-{b.worker_agent}.jsonl")), b.current.session_id, b.worker_agent))
    return ts, b.worker_agent


def needle_everywhere(tmp_path: Path) -> tuple[SearchTarget, str]:
    """A needle in a prompt, a Bash command and its output, an answer, and a noise entry."""
    t = Transcript("s1")
    t.user("Find the NEEDLE please")
    call = t.bash("grep needle .", "found: Needle here")
    t.say("The needle is found")
    t.noise("attachment", size=10)
    t.raw({"type": "attachment", "attachment": {"content": "needle in noise"}})
    return SearchTarget(t.write(tmp_path / "s1.jsonl"), "s1"), call


def many_sessions(tmp_path: Path) -> list[SearchTarget]:
    found = []
    for i in range(150):
        t = Transcript(f"s{i:03d}")
        t.user(f"prompt {i}" + (" Needle" if i % 7 == 0 else ""))
        t.bash("echo x", "needle out" if i % 5 == 0 else "nothing")
        found.append(SearchTarget(t.write(tmp_path / f"s{i:03d}.jsonl"), f"s{i:03d}"))
    return found


def test_hits_in_every_kind_of_field_case_insensitively_but_not_in_noise(tmp_path: Path):
    target, call = needle_everywhere(tmp_path)
    hits = search_file(target, Query("needle"))
    assert [(h.where, h.tool) for h in hits] == [
        ("user", None),
        ("tool_input", "Bash"),
        ("tool_output", "Bash"),
        ("assistant", None),
    ]
    assert call  # the Bash call the tool hits come from was written


def test_a_snippet_keeps_the_texts_own_case(tmp_path: Path):
    target, _ = needle_everywhere(tmp_path)
    assert "NEEDLE" in search_file(target, Query("needle"))[0].snippet


def test_a_hit_has_the_line_number_of_its_entry(tmp_path: Path):
    target, _ = needle_everywhere(tmp_path)
    assert search_file(target, Query("needle"))[1].line == 2


def test_hits_can_be_limited_to_one_tool(tmp_path: Path):
    target, _ = needle_everywhere(tmp_path)
    only_bash = search_file(target, Query("needle"), tool="bash")
    assert {h.tool for h in only_bash} == {"Bash"}


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


@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"])
def test_line_numbers_are_right_across_blocks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bom: bytes):
    import session_kit.queries.search as s
    from session_kit.transcript import blockscan

    monkeypatch.setattr(s, "BLOCK", 64)
    monkeypatch.setattr(blockscan, "BLOCK", 64)
    t = Transcript("s4")
    for i in range(30):
        t.user(f"line {i} {'target' if i in (3, 17, 29) else ''}")
    path = t.write(tmp_path / "s4.jsonl", tail=b'{"type":"user","message":{"content":"target half')
    path.write_bytes(bom + path.read_bytes())
    hits = search_file(SearchTarget(path, "s4"), Query("target"))
    assert [h.line for h in hits] == [4, 18, 30]


def test_search_covers_agent_logs(claude_root: Path):
    ts, worker = with_worker_log(claude_root)
    hits = list(search(ts, Query("sentinel_failure")))
    assert [(h.agent_id, h.where) for h in hits] == [(worker, "tool_output")]


def test_search_reports_progress_up_to_the_last_file(claude_root: Path):
    ts, _ = with_worker_log(claude_root)
    seen: list[tuple[int, int]] = []
    list(search(ts, Query("sentinel_failure"), progress=lambda d, n: seen.append((d, n))))
    assert seen[-1] == (len(ts), len(ts))


def test_parallel_search_gives_the_same_hits_in_the_same_order(tmp_path: Path):
    found = many_sessions(tmp_path)
    serial: list[SearchHit] = list(search(found, Query("needle"), workers=1))
    parallel = list(search(found, Query("needle"), workers=2))
    assert parallel == serial and len(serial) == 22 + 30


def test_parallel_search_reports_progress_in_order(tmp_path: Path):
    found = many_sessions(tmp_path)
    seen: list[int] = []
    list(search(found, Query("needle"), workers=2, progress=lambda d, n: seen.append(d)))
    assert seen[-1] == 150 and seen == sorted(seen)


def test_agent_logs_whose_session_is_gone_are_searched_when_their_project_is(claude_root: Path, tmp_path: Path):
    odd = dialects.odd_files(claude_root, tmp_path / "elsewhere")
    projects = [odd.orphan_legacy.parent]
    found = list(session_targets([], orphans_of=projects))
    assert sorted(t.path for t in found) == sorted([odd.orphan_legacy, odd.orphan_subagent])
    hits = list(search(found, Query("ORPHAN_SUBAGENT_NEEDLE")))
    assert [(h.session_id, h.agent_id) for h in hits] == [("0a0a0000-dead-0000-0000-000000000002", "0f0f0002")]


KEY = "sk-ant-api03-Xk3j9dQ2mZp8vR7tY1uW4eN6bH0cL5aS-qwertyAA"


def secret_sessions(tmp_path: Path) -> list[SearchTarget]:
    found = []
    for i in range(80):
        t = Transcript(f"k{i:03d}")
        t.bash("cat .env", f"ANTHROPIC_API_KEY={KEY}\nDEPLOY_TARGET=prod-{i}")
        found.append(SearchTarget(t.write(tmp_path / f"k{i:03d}.jsonl"), f"k{i:03d}"))
    return found


@pytest.mark.parametrize("workers", [1, 2])
def test_snippets_are_cut_from_redacted_text_in_every_worker(tmp_path: Path, workers: int):
    hits = list(search(secret_sessions(tmp_path), Query("DEPLOY_TARGET"), workers=workers))
    assert len(hits) == 80
    assert all(KEY[:16] not in h.snippet and "[REDACTED:anthropic-api-key]" in h.snippet for h in hits)


@pytest.mark.parametrize("workers", [1, 2])
def test_showing_secrets_reaches_every_worker(tmp_path: Path, workers: int):
    with showing_secrets():
        hits = list(search(secret_sessions(tmp_path), Query("DEPLOY_TARGET"), workers=workers))
    assert len(hits) == 80 and all(KEY in h.snippet for h in hits)


def test_a_hit_inside_a_secret_is_reported_with_the_marker_not_the_secret(tmp_path: Path):
    [hit] = search(secret_sessions(tmp_path)[:1], Query("Xk3j9dQ2"), workers=1)
    assert "Xk3j9dQ2" not in hit.snippet and "[REDACTED:anthropic-api-key]" in hit.snippet


def test_a_limited_search_of_a_file_gives_at_most_that_many_hits_in_line_order(tmp_path: Path):
    t = Transcript()
    for n in range(50):
        t.user(f"needle number {n}")
    path = t.write(tmp_path / "s.jsonl")
    hits = search_file(SearchTarget(path, t.session_id), Query("needle"), limit=5)
    assert [h.snippet for h in hits] == [f"needle number {n}" for n in range(5)]


def test_a_file_copied_into_itself_gives_each_hit_once(tmp_path: Path):
    t = Transcript()
    t.user("a unique needle")
    path = tmp_path / "s.jsonl"
    path.write_text(t.text() * 3)
    assert len(search_file(SearchTarget(path, t.session_id), Query("needle"))) == 1
