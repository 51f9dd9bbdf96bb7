"""`session-kit sessions`, in process: the listing, its order, columns, filters and scope."""

from __future__ import annotations

import os
from datetime import datetime, timezone
from pathlib import Path

import pytest

from tests.support.cli import invoke, invoke_json
from tests.support.transcripts import Transcript


def test_sessions_all_lists_every_project_with_each_sessions_overview(built):
    doc = invoke_json("sessions", "--all")
    assert doc["version"] == 2 and doc["kind"] == "sessions"
    by_id = {s["id"]: s for s in doc["sessions"]}
    cur = by_id[built.current.session_id]
    assert cur["first_prompt"] == "Please build the feature"
    assert cur["agents"] == 2 and cur["branch"] == "feat/kit" and cur["cwd"] == "/work/proj"
    assert cur["start"] < cur["end"] and cur["duration_s"] > 0
    assert by_id[built.legacy.session_id]["agents"] == 1


def test_sessions_with_a_project_lists_only_that_projects_sessions(built):
    result = invoke("sessions", "--project", "/work/proj")
    assert result.exit_code == 0 and built.current.session_id in result.stdout
    assert built.legacy.session_id not in result.stdout


def test_sessions_limit_keeps_that_many(built):
    assert len(invoke_json("sessions", "--all", "--limit", "1")["sessions"]) == 1


def test_sessions_outside_any_project_is_not_found(built, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)
    missing = invoke("sessions")
    assert missing.exit_code == 3 and "no Claude Code sessions" in missing.stderr


def test_sessions_project_and_all_together_is_a_usage_error(built):
    result = invoke("sessions", "--all", "--project", "/work/proj")
    assert result.exit_code == 2 and result.stderr == "session-kit: --project and --all exclude each other\n"


def test_a_missing_claude_root_is_not_found(tmp_path: Path):
    assert invoke("sessions", "--all", "--claude-dir", str(tmp_path / "nope")).exit_code == 3


def _dated(root: Path, sid: str, day: int, *, prompt: str = "do it", mtime: float | None = None) -> None:
    t = Transcript(sid, start=datetime(2026, 11, day, 9, 0, 0, tzinfo=timezone.utc))
    t.user(prompt)
    t.say("ok")
    path = t.write_session(root)
    if mtime is not None:
        os.utime(path, (mtime, mtime))


OLD = "01d00000-0000-0000-0000-000000000001"

NEW = "0e100000-0000-0000-0000-000000000002"


def test_sessions_are_sorted_by_last_activity_not_by_file_mtime(claude_root: Path):
    # a plain copy gave the old session the newest mtime
    _dated(claude_root, NEW, 20, mtime=1_000_000_000)
    _dated(claude_root, OLD, 2, mtime=2_000_000_000)
    doc = invoke_json("sessions", "--all")
    assert [s["id"] for s in doc["sessions"]] == [NEW, OLD]
    out = invoke("sessions", "--all").stdout.splitlines()
    assert out[0].startswith("SESSION") and "LAST ACTIVE" in out[0]
    assert out[1].startswith(f"{NEW}  2026-11-20 09:00:02Z")


def test_a_session_with_no_time_shows_none_and_is_listed_last(claude_root: Path):
    _dated(claude_root, OLD, 2, mtime=1_000_000_000)
    timeless = claude_root / "projects" / "-work-proj" / "7e000000-0000-0000-0000-000000000003.jsonl"
    timeless.write_text('{"type":"summary","summary":"Only a title","leafUuid":"elsewhere"}\n')
    os.utime(timeless, (2_000_000_000, 2_000_000_000))  # the newest mtime: never shown, never first
    doc = invoke_json("sessions", "--all")
    assert [(s["id"], s["end"]) for s in doc["sessions"]][-1] == (timeless.stem, None)
    header, *rows = invoke("sessions", "--all", env={"COLUMNS": "200"}).stdout.splitlines()
    assert [row.split()[0] for row in rows] == [OLD, timeless.stem]
    mtime_shown = datetime.fromtimestamp(2_000_000_000, timezone.utc).strftime("%Y-%m-%d")
    assert rows[-1].split()[1] == "-" and mtime_shown not in rows[-1]


def test_sessions_since_and_until_choose_by_time(claude_root: Path):
    _dated(claude_root, NEW, 20)
    _dated(claude_root, OLD, 2)
    assert [s["id"] for s in invoke_json("sessions", "--all", "--since", "2026-11-10")["sessions"]] == [NEW]
    assert [s["id"] for s in invoke_json("sessions", "--all", "--until", "2026-11-10")["sessions"]] == [OLD]
    bad = invoke("sessions", "--all", "--since", "last tuesday")
    assert bad.exit_code == 2 and "'last tuesday' is not a date" in bad.stderr


def test_sessions_all_has_a_project_column_and_a_project_listing_has_none(claude_root: Path):
    _dated(claude_root, NEW, 20)
    assert "PROJECT" in invoke("sessions", "--all").stdout.splitlines()[0]
    assert "PROJECT" not in invoke("sessions", "--project", "/work/proj").stdout.splitlines()[0]


def test_sessions_rows_fit_the_terminal_cutting_the_prompt_and_the_id_only_to_a_prefix(claude_root: Path):
    _dated(claude_root, NEW, 20, prompt="a long prompt " * 20)
    for width, shown in ((80, NEW[:8] + "  "), (119, NEW[:8] + "  "), (120, NEW)):
        lines = invoke("sessions", "--all", env={"COLUMNS": str(width)}).stdout.splitlines()
        assert all(len(line) <= width for line in lines), (width, lines)
        assert lines[1].startswith(shown) and "a long" in lines[1] and lines[1].endswith("…")
        assert "PROJECT" in lines[0] or width >= 120


def test_sessions_columns_stay_aligned_whatever_the_values(claude_root: Path):
    _dated(claude_root, NEW, 20)
    _dated(claude_root, OLD, 2, prompt="x")
    header, *rows = invoke("sessions", "--all", env={"COLUMNS": "200"}).stdout.splitlines()
    title_at = header.index("TITLE")
    assert all(row[title_at - 2 : title_at] == "  " and row[title_at] != " " for row in rows)


def test_sessions_marks_a_warmup_session(claude_root: Path):
    _dated(claude_root, NEW, 20, prompt="Warmup")
    assert invoke("sessions", "--all").stdout.splitlines()[1].endswith("(warmup)")


def test_sessions_lists_below_the_table_the_sessions_only_the_archive_holds(built):
    from tests.support.sessions import delete_as_the_client_does

    assert invoke("archive").exit_code == 0
    gone, kept = built.current.session_id, built.legacy.session_id
    delete_as_the_client_does(built.root, gone)
    out = invoke("sessions", "--all").stdout
    table, _, archived = out.partition("Only in the kit's archive (1 session")
    assert kept in table and gone not in table
    assert f"  {gone}  " in archived and archived.rstrip().endswith("archived only")
    doc = invoke_json("sessions", "--all")
    assert [s["id"] for s in doc["archived_only"]] == [gone] and doc["archived_only"][0]["size"] > 0
    assert gone not in [s["id"] for s in doc["sessions"]]
    assert invoke("show", gone).exit_code == 0  # what the line says reads it
