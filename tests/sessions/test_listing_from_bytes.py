"""A first listing reads only a block or two of each file, by byte searches: what it says of a
session is what reading every line of it says (the span and title rules applied to the whole
file), in every dialect and on the files where the bytes are awkward."""

from __future__ import annotations

import shutil
from datetime import timedelta, timezone
from pathlib import Path

import pytest

from session_kit.index.listing import ListingMemory
from session_kit.queries.report import session_report
from session_kit.sessions.listing import latest_first
from session_kit.sessions.overview import PROMPT_CHARS
from session_kit.transcript.glance import HEAD_STEP, TAIL_STEPS
from tests.support import dialects
from tests.support.sessions import build
from tests.support.transcripts import Transcript

REAL = Path(__file__).parent.parent / "fixtures" / "real" / "projects"
BLOCK = HEAD_STEP  # the first read of a file's head, and (TAIL_STEPS[0]) of its tail


def _long_title(root: Path) -> None:
    """A rename whose line is longer than the tail's first block, at the end of a long file."""
    t = Transcript("b10c0000-0000-0000-0000-000000000001", cwd="/work/tricky")
    t.user("Start the long one")
    t.noise("attachment", size=3 * BLOCK)
    t.say("Done.")
    t.raw({"type": "custom-title", "customTitle": "Long " + "name " * (BLOCK // 4), "sessionId": t.session_id})
    t.write_session(root)


def _generated_title_longer_than_the_block(root: Path) -> None:
    t = Transcript("b10c0000-0000-0000-0000-000000000002", cwd="/work/tricky")
    t.user("Name it for me")
    t.say("Sure.")
    t.noise("attachment", size=2 * BLOCK)
    t.raw({"type": "ai-title", "aiTitle": "Generated " * (BLOCK // 8), "sessionId": t.session_id})
    t.write_session(root)


def _no_final_newline(root: Path) -> None:
    """The last line (the latest time) is still being written: no newline after it."""
    t = Transcript("b10c0000-0000-0000-0000-000000000003", cwd="/work/tricky")
    t.user("Keep going")
    t.noise("attachment", size=2 * BLOCK)
    t.say("Still here.")
    t.tick(3600)
    t.say("An hour later.")
    path = t.write_session(root)
    path.write_bytes(path.read_bytes().rstrip(b"\n"))


def _smaller_than_a_block(root: Path) -> None:
    t = Transcript("b10c0000-0000-0000-0000-000000000004", cwd="/work/tricky")
    t.summary_2025("A title on top of a small file")
    t.user("Small")
    t.say("Tiny.")
    t.raw({"type": "ai-title", "aiTitle": "Small and named", "sessionId": t.session_id})
    assert len(t.text()) < BLOCK
    t.write_session(root)


def _compacted(root: Path) -> None:
    """Compaction summaries (a boundary, then the summary as a user line) at the head and tail."""
    t = Transcript("b10c0000-0000-0000-0000-000000000005", cwd="/work/tricky")
    t.compact("Summary of what came before: the parser work")
    t.user("Carry on with the parser")
    t.noise("attachment", size=2 * BLOCK)
    t.say("Carrying on.")
    t.compact("Summary again, written last")
    t.write_session(root)


def _sidechain_only(root: Path) -> None:
    """A file of a 1.0.x inline agent's lines only (`isSidechain: true` throughout)."""
    main = Transcript("b10c0000-0000-0000-0000-000000000006", cwd="/work/tricky", version="1.0.98")
    thread = main.inline_agent()
    thread.user("SEARCH: the thread's prompt")
    thread.noise("attachment", size=2 * BLOCK)
    thread.say("Found it.")
    main.write_session(root)


def _last_time_far_from_the_end(root: Path) -> None:
    """Bookkeeping after the last conversation line, more than the first tail block of it."""
    t = Transcript("b10c0000-0000-0000-0000-000000000007", cwd="/work/tricky")
    t.user("Then the client kept writing")
    t.say("Answered.")
    for _ in range(2 * TAIL_STEPS[0] // 1000):
        t.raw({"type": "api-request", "timestamp": "2030-01-01T00:00:00Z", "requestId": "req_x" * 150})
    t.write_session(root)


def _another_zone(root: Path) -> None:
    t = Transcript("b10c0000-0000-0000-0000-000000000008", cwd="/work/tricky")
    t.user("Written at another offset")
    t.say("ok")
    t.lines[-1]["timestamp"] = t.clock.astimezone(timezone(timedelta(hours=-8))).isoformat()
    t.write_session(root)


TRICKY = (
    _long_title,
    _generated_title_longer_than_the_block,
    _no_final_newline,
    _smaller_than_a_block,
    _compacted,
    _sidechain_only,
    _last_time_far_from_the_end,
    _another_zone,
)


@pytest.fixture
def awkward(claude_root: Path, tmp_path: Path) -> Path:
    dialects.every_dialect(claude_root, tmp_path / "elsewhere")
    build(claude_root)
    for make in TRICKY:
        make(claude_root)
    shutil.copytree(REAL, claude_root / "projects", dirs_exist_ok=True)
    return claude_root


def _fully_read(row) -> dict:
    """What reading every line of the row's file says of it (`show`'s reading)."""
    report = session_report(row.ref, with_agents=False)
    prompt = report.requests[0].text[:PROMPT_CHARS] if report.requests else None
    return {"start": report.start, "end": report.end, "title": report.title, "first_prompt": prompt}


def _said(row) -> dict:
    return {"start": row.start, "end": row.end, "title": row.title, "first_prompt": row.first_prompt}


@pytest.mark.parametrize("remembering", [False, True], ids=["no-memory", "empty-memory"])
def test_a_first_listing_says_of_each_file_what_reading_every_line_says(awkward: Path, tmp_path, remembering):
    memory = ListingMemory(str(tmp_path / "state"), awkward) if remembering else None
    rows = list(latest_first(awkward, all_projects=True, memory=memory, memory_from=0))
    tricky = {r.ref.id: r for r in rows if r.ref.project.name == "-work-tricky"}
    assert len(tricky) == len(TRICKY)
    assert len(rows) >= 14
    for row in rows:
        assert _said(row) == _fully_read(row), row.ref.path


def test_the_awkward_files_say_what_their_lines_hold(awkward: Path):
    rows = {r.ref.id: r for r in latest_first(awkward, all_projects=True)}
    assert rows["b10c0000-0000-0000-0000-000000000001"].title.startswith("Long name name")
    assert rows["b10c0000-0000-0000-0000-000000000002"].title.startswith("Generated Generated")
    no_newline = rows["b10c0000-0000-0000-0000-000000000003"]
    assert no_newline.end - no_newline.start >= timedelta(hours=1)
    assert rows["b10c0000-0000-0000-0000-000000000004"].title == "Small and named"
    assert rows["b10c0000-0000-0000-0000-000000000005"].first_prompt == "Carry on with the parser"
    assert rows["b10c0000-0000-0000-0000-000000000006"].first_prompt is None  # an agent's, not the session's
    far = rows["b10c0000-0000-0000-0000-000000000007"]
    assert far.end is not None and far.end.year == 2026
    assert rows["b10c0000-0000-0000-0000-000000000008"].end.utcoffset() == timedelta(hours=-8)


def test_a_file_of_one_line_longer_than_every_tail_read_still_gives_its_time(claude_root: Path):
    t = Transcript("b10c0000-0000-0000-0000-000000000009", cwd="/work/tricky")
    t.user("x" * (TAIL_STEPS[1] + 10))
    t.write_session(claude_root)
    [row] = latest_first(claude_root, all_projects=True)
    assert row.end == t.clock
    assert _said(row) == _fully_read(row)
