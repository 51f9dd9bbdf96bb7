"""Every session latest active first, ordered from the files' tails and made row by row."""

from __future__ import annotations

import os
import shutil
from datetime import datetime, timezone
from pathlib import Path

import pytest

from session_kit.errors import NoSessionsHere, NotAClaudeRoot, NotFound
from session_kit.sessions.listing import latest_first
from session_kit.sessions.overview import SessionOverview, overviews
from session_kit.sessions.store import list_all_sessions, list_sessions
from tests.support.sessions import make_session
from tests.support.transcripts import Transcript

T0 = datetime(2026, 11, 1, 9, 0, 0, tzinfo=timezone.utc)


def _every_overview_sorted(root: Path) -> list[SessionOverview]:
    """The order as a listing that holds every row would make it: latest end first, then the
    sessions with no time (never ordered by their mtimes' times)."""
    rows = list(overviews(list_all_sessions(root)))
    timed = sorted((r for r in rows if r.end is not None), key=lambda r: r.end, reverse=True)
    return timed + [r for r in rows if r.end is None]


def _keys(rows) -> list[tuple[str, str]]:
    return [(r.ref.project.name, r.ref.id) for r in rows]


def _timeless(root: Path, sid: str, cwd: str, mtime: float) -> None:
    """A session with no timestamped line: it is listed after those with a time."""
    path = root / "projects" / cwd.replace("/", "-") / f"{sid}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"type":"summary","summary":"no times here","leafUuid":"x"}\n')
    os.utime(path, (mtime, mtime))


@pytest.fixture
def tangled(claude_root: Path) -> Path:
    """Sessions whose order needs every tie-break: equal last times, equal mtimes, the same id
    in two projects, sessions with no time at all, and an mtime that disagrees with the tail."""
    for n, (cwd, start) in enumerate([("/work/a", 0), ("/work/b", 0), ("/work/c", 3600), ("/work/a", 7200)]):
        t = Transcript(f"{n:08d}-same-end" if n < 2 else f"{n:08d}-other", cwd=cwd, start=T0)
        t.tick(start)
        t.user("hello")
        t.say("done")
        path = t.write_session(claude_root)
        os.utime(path, (1_700_000_000 + n % 2, 1_700_000_000 + n % 2))  # mtimes that disagree with the times
    for cwd in ("/work/a", "/work/b"):
        _timeless(claude_root, "twin", cwd, 1_800_000_000)
    _timeless(claude_root, "aaaa", "/work/b", 1_800_000_000)
    _timeless(claude_root, "zzzz", "/work/b", 1_800_000_000)
    return claude_root


def test_the_order_is_the_last_time_written_then_mtime_then_id_then_project(tangled: Path):
    listed = list(latest_first(tangled, all_projects=True))
    assert _keys(listed) == _keys(_every_overview_sorted(tangled))
    assert [r.ref.id for r in listed[-4:]] == ["zzzz", "twin", "twin", "aaaa"]  # no time: last
    assert [r.ref.project.name for r in listed[-3:-1]] == ["-work-a", "-work-b"]


def test_each_row_is_the_overview_of_its_session(tangled: Path):
    assert list(latest_first(tangled, all_projects=True)) == _every_overview_sorted(tangled)


@pytest.mark.parametrize(
    ("since", "until", "limit"),
    [
        (T0.replace(hour=10), None, None),
        (None, T0.replace(hour=10), None),
        (None, None, 3),
        (T0.replace(hour=10), None, 1),
        (None, datetime(2024, 1, 1, tzinfo=timezone.utc), 2),
        (datetime(2099, 1, 1, tzinfo=timezone.utc), None, None),
    ],
)
def test_since_until_and_limit_keep_what_filtering_every_row_would(tangled: Path, since, until, limit):
    rows = _every_overview_sorted(tangled)
    if since is not None:  # a session with no time cannot be said to be active since
        rows = [r for r in rows if r.end is not None and r.end >= since]
    if until is not None:
        rows = [r for r in rows if (r.start or r.end) is not None and (r.start or r.end) <= until]
    rows = rows[:limit] if limit else rows
    assert _keys(latest_first(tangled, all_projects=True, since=since, until=until, limit=limit)) == _keys(rows)


def test_one_projects_listing_is_its_sessions_latest_active_first(tangled: Path):
    listed = list(latest_first(tangled, project_path="/work/b"))
    assert {r.ref.id for r in listed} == {s.id for s in list_sessions(tangled / "projects" / "-work-b")}
    assert [r.ref.id for r in listed] == ["00000001-same-end", "zzzz", "twin", "aaaa"]


def test_nothing_to_list_is_said_when_the_listing_is_asked_for_not_when_it_is_read(claude_root: Path):
    with pytest.raises(NoSessionsHere):
        latest_first(claude_root, project_path="/nowhere/at/all")
    shutil.rmtree(claude_root / "projects")
    with pytest.raises(NotFound):
        latest_first(claude_root, all_projects=True)
    with pytest.raises(NotAClaudeRoot):  # not "no sessions here": the folder is no Claude root
        latest_first(claude_root, project_path="/nowhere/at/all")


def test_a_row_is_made_when_it_is_reached_not_before(claude_root: Path):
    for n, prompt in enumerate(["newest", "middle", "oldest"]):
        make_session(claude_root, f"s{n}", mtime=1_800_000_000 - n, prompt=prompt)
    rows = latest_first(claude_root, all_projects=True)
    oldest = claude_root / "projects" / "-work-proj" / "s2.jsonl"
    # rewritten after the listing was ordered, same size and tail: only a row made now sees it
    oldest.write_bytes(oldest.read_bytes().replace(b'"oldest"', b'"latest"'))
    assert [r.first_prompt for r in rows] == ["newest", "middle", "latest"]


def test_a_session_whose_file_is_gone_before_its_row_is_still_listed(claude_root: Path):
    for n in range(3):
        make_session(claude_root, f"s{n}", mtime=1_800_000_000 - n)
    rows = latest_first(claude_root, all_projects=True)
    (claude_root / "projects" / "-work-proj" / "s1.jsonl").unlink()
    listed = list(rows)
    assert [r.ref.id for r in listed] == ["s0", "s1", "s2"]
    assert listed[1].start is None and listed[1].first_prompt is None


def test_a_last_time_written_in_another_zone_is_given_as_written(claude_root: Path):
    for n, zone in enumerate(["+05:30", "-08:00", "Z", "+00:00"]):
        path = claude_root / "projects" / "-work-z" / f"z{n}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(
            '{"type":"user","timestamp":"2026-11-01T00:00:00Z","message":{"role":"user","content":"hi"}}\n'
            f'{{"type":"assistant","timestamp":"2026-11-01T1{n}:00:00.123456{zone}","message":{{"role":"assistant"}}}}\n'
        )
    listed = list(latest_first(claude_root, all_projects=True))
    assert listed == _every_overview_sorted(claude_root)
    assert sorted(r.as_dict()["end"] for r in listed) == [
        "2026-11-01T10:00:00.123456+05:30",
        "2026-11-01T11:00:00.123456-08:00",
        "2026-11-01T12:00:00.123456Z",
        "2026-11-01T13:00:00.123456Z",
    ]


def test_a_title_at_the_end_of_a_long_session_names_its_row(claude_root: Path):
    t = Transcript("titled", cwd="/work/t")
    t.noise("attachment", size=20_000)
    t.user("the prompt")
    t.say("ok")
    t.lines.append({"type": "ai-title", "sessionId": "titled", "aiTitle": "Named by the client"})
    t.write_session(claude_root)
    [row] = latest_first(claude_root, all_projects=True)
    assert row == _every_overview_sorted(claude_root)[0]
    assert row.title == "Named by the client"


def test_a_long_listing_made_on_two_cores_is_the_listing_made_on_one(claude_root: Path, monkeypatch):
    from session_kit import forked
    from session_kit.sessions.overview import BATCH

    monkeypatch.setattr(forked, "cores", lambda: 2)
    for n in range(BATCH * forked.MIN_JOBS + 5):
        make_session(claude_root, f"s{n:04d}", cwd=f"/work/p{n % 7}", mtime=1_800_000_000 - n * 7 % 500)
    listing = latest_first(claude_root, all_projects=True)

    def batch(rows):
        return [(r, os.getpid()) for r in rows]

    made = [pair for part in listing.map_batches(batch) for pair in part]
    assert [row for row, _ in made] == list(listing) == _every_overview_sorted(claude_root)
    assert len({pid for _, pid in made}) == 2  # some of it made by the fork


@pytest.mark.parametrize("run", [1, 2, 3])
def test_the_order_is_the_same_sorted_in_small_runs_and_merged(tangled: Path, monkeypatch, run: int):
    from session_kit.sessions import listing

    for n in range(5):
        make_session(tangled, f"more{n}", cwd="/work/b", mtime=1_800_000_000 - n)
    monkeypatch.setattr(listing, "RUN", run)
    assert _keys(latest_first(tangled, all_projects=True)) == _keys(_every_overview_sorted(tangled))


def test_ids_that_are_uuids_and_ids_that_are_not_are_given_back_as_named(claude_root: Path):
    names = ["0f0e0d0c-0b0a-4909-8807-060504030201", "0F0E0D0C-0B0A-4909-8807-060504030201", "not-a-uuid", "ü-ß"]
    for n, sid in enumerate(names):
        make_session(claude_root, sid, mtime=1_800_000_000 - n)
        make_session(claude_root, sid, cwd="/work/other", mtime=1_800_000_000 - n)  # the same times: ids break the tie
    listed = list(latest_first(claude_root, all_projects=True))
    assert _keys(listed) == _keys(_every_overview_sorted(claude_root))
    assert sorted({r.ref.id for r in listed}) == sorted(names)
    assert all(r.ref.path.name == f"{r.ref.id}.jsonl" and r.ref.path.is_file() for r in listed)
