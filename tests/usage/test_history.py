"""The `usage` report over a whole Claude root: every session and agent log, each API message
once across files, grouped as asked, read from the index (no cache of its own)."""

from __future__ import annotations

import json
import os
from datetime import date, datetime, timezone
from pathlib import Path

import pytest

from session_kit.errors import NotAClaudeRoot, Rebuilt
from session_kit.index.db import index_path
from session_kit.usage.history import parse_day, usage_report
from session_kit.usage.prices import load_prices
from tests.support.transcripts import Transcript

DAY1 = datetime(2026, 3, 2, 12, 0, tzinfo=timezone.utc)
DAY2 = datetime(2026, 4, 7, 12, 0, tzinfo=timezone.utc)


def session(
    root: Path, *, start: datetime = DAY1, cwd: str = "/work/a", output: int = 10, model: str = "claude-opus-5-5"
):
    t = Transcript(start=start, cwd=cwd)
    t.user("go")
    [line] = t.assistant({"type": "text", "text": "x"}, usage={"input_tokens": 100, "output_tokens": output})
    line["message"]["model"] = model
    t.write_session(root)
    return t


def report(root: Path, state: Path | None = None, **kw):
    return usage_report(str(root), load_prices(), state_root=str(state) if state else None, **kw)


def test_every_session_and_agent_log_is_counted(tmp_path: Path):
    t = session(tmp_path, output=10)
    a = Transcript(t.session_id, agent_id="ag1", start=DAY1)
    a.assistant({"type": "text", "text": "y"}, usage={"input_tokens": 1, "output_tokens": 2})
    a.write_subagent(tmp_path, t, meta={"agentType": "Explore"})
    legacy = Transcript(t.session_id, agent_id="old1", start=DAY1)
    legacy.assistant({"type": "text", "text": "z"}, usage={"input_tokens": 1, "output_tokens": 4})
    legacy.write_legacy_agent(tmp_path, t)
    r = report(tmp_path, by="agent")
    assert {row.key: row.tokens.total.output for row in r.rows} == {"main": 10, "Explore": 2, "agent": 4}
    assert r.total.tokens.total.output == 16 and r.total.sessions == 1


def test_a_resumed_file_that_repeats_earlier_messages_adds_nothing(tmp_path: Path):
    first = session(tmp_path, output=10)
    resumed = Transcript(start=DAY1)
    resumed.lines = [dict(line, sessionId=resumed.session_id) for line in first.lines]  # copied history
    resumed.user("more")
    resumed.assistant({"type": "text", "text": "new"}, usage={"input_tokens": 100, "output_tokens": 3})
    path = resumed.write_session(tmp_path)
    later = os.stat(path).st_mtime_ns + 10**9
    os.utime(path, ns=(later, later))  # written after the first
    r = report(tmp_path, by="session")
    assert {row.key: row.tokens.total.output for row in r.rows} == {first.session_id: 10, resumed.session_id: 3}
    assert r.duplicates == 1


def test_the_split_line_trap_holds_across_the_history_too(tmp_path: Path):
    t = Transcript(start=DAY1)
    lines = t.assistant({"type": "text", "text": "a"}, {"type": "text", "text": "b"}, usage={"output_tokens": 1})
    lines[-1]["message"]["usage"] = {"output_tokens": 800}
    t.write_session(tmp_path)
    assert report(tmp_path).total.tokens.total.output == 800


def test_rows_by_day_month_project_and_model(tmp_path: Path):
    session(tmp_path, start=DAY1, cwd="/work/a", output=1)
    session(tmp_path, start=DAY2, cwd="/work/b", output=2, model="claude-sonnet-4-5")
    local = [datetime.fromtimestamp(d.timestamp()).date() for d in (DAY1, DAY2)]
    assert [row.key for row in report(tmp_path, by="day").rows] == [d.isoformat() for d in local]
    assert [row.key for row in report(tmp_path, by="month").rows] == ["2026-03", "2026-04"]
    assert [row.key for row in report(tmp_path, by="project").rows] == ["-work-a", "-work-b"]
    assert {row.key: row.tokens.total.output for row in report(tmp_path, by="model").rows} == {
        "claude-opus-5-5": 1,
        "claude-sonnet-4-5": 2,
    }


def test_since_and_until_keep_the_days_between_them_included(tmp_path: Path):
    session(tmp_path, start=DAY1, output=1)
    session(tmp_path, start=DAY2, output=2)
    assert report(tmp_path, since=date(2026, 4, 1)).total.tokens.total.output == 2
    assert report(tmp_path, until=date(2026, 4, 1)).total.tokens.total.output == 1
    assert report(tmp_path, since=date(2026, 5, 1)).rows == ()


def test_an_agent_without_a_log_counts_from_its_agent_result(tmp_path: Path):
    t = Transcript(start=DAY1)
    call = t.tool_use("Agent", {"prompt": "p"})
    usage = {"input_tokens": 50, "output_tokens": 5}
    t.tool_result(call, "ok", extra={"agentId": "gone", "usage": usage, "resolvedModel": "claude-opus-5-5"})
    t.write_session(tmp_path)
    rows = {row.key: row.tokens.total.output for row in report(tmp_path, by="agent").rows}
    assert rows == {"main": 5, "agent (no log)": 5}


def test_a_second_run_reads_only_the_files_that_changed(tmp_path: Path):
    root, state = tmp_path / "root", tmp_path / "state"
    session(root, output=1)
    t2 = session(root, output=2)
    assert report(root, state).files_read == 2
    assert report(root, state).files_read == 0
    t2.say("more")
    t2.write_session(root)
    second = report(root, state)
    assert second.files_read == 1 and second.total.tokens.total.output == 1 + 2 + 5


def test_a_corrupt_index_is_rebuilt_not_trusted(tmp_path: Path):
    root, state = tmp_path / "root", tmp_path / "state"
    session(root, output=4)
    report(root, state)
    Path(index_path(str(state), str(root))).write_bytes(b"\x00garbage" * 1000)
    with pytest.warns(Rebuilt, match="not a database"):
        again = report(root, state)
    assert again.files_read == 1 and again.total.tokens.total.output == 4


def test_malformed_and_half_written_lines_are_skipped(tmp_path: Path):
    t = Transcript(start=DAY1)
    t.say("x")
    t.write(tmp_path / "projects" / "-p" / "s.jsonl", tail=b'{"type":"assistant","usage":{"input_tokens"')
    assert report(tmp_path).total.tokens.total.output == 5


@pytest.mark.parametrize(("text", "day"), [("2026-11-03", date(2026, 11, 3)), ("20261103", date(2026, 11, 3))])
def test_days_are_read_in_both_forms(text: str, day: date):
    assert parse_day(text) == day


def test_an_empty_root_has_no_rows(tmp_path: Path):
    (tmp_path / "projects").mkdir()
    r = report(tmp_path)
    assert r.rows == () and r.total.tokens.total.tokens == 0


def test_a_folder_without_projects_is_no_claude_root(tmp_path: Path):
    with pytest.raises(NotAClaudeRoot):
        report(tmp_path)


def test_rows_by_week_are_keyed_by_their_monday(tmp_path: Path):
    session(tmp_path, start=DAY2, output=2)  # a Tuesday
    local = datetime.fromtimestamp(DAY2.timestamp()).date()
    monday = date.fromordinal(local.toordinal() - local.weekday())
    assert [row.key for row in report(tmp_path, by="week").rows] == [monday.isoformat()]


def test_an_unknown_grouping_is_refused(tmp_path: Path):
    with pytest.raises(ValueError):
        report(tmp_path, by="year")


def test_the_json_cache_of_earlier_versions_is_removed(tmp_path: Path):
    root, state = tmp_path / "root", tmp_path / "state"
    session(root, output=4)
    old = state / "usage-index" / "0123456789abcdef.json"
    old.parent.mkdir(parents=True)
    old.write_text(json.dumps({"version": 2, "files": {}}))
    assert report(root, state).total.tokens.total.output == 4
    assert not old.parent.exists()


def test_files_the_client_deleted_leave_the_report_though_the_index_keeps_them(tmp_path: Path):
    root, state = tmp_path / "root", tmp_path / "state"
    session(root, output=4)
    gone = session(root, output=2, cwd="/work/b")
    assert report(root, state).total.tokens.total.output == 6
    (root / "projects" / "-work-b" / f"{gone.session_id}.jsonl").unlink()
    assert report(root, state).total.tokens.total.output == 4


def test_a_fifo_named_like_a_transcript_is_passed_over_not_waited_on(tmp_path: Path):
    session(tmp_path, output=3)
    os.mkfifo(tmp_path / "projects" / "-work-a" / "fifo.jsonl")
    assert report(tmp_path).total.tokens.total.output == 3


def test_rows_holding_agents_counted_from_their_results_are_marked_as_a_floor(tmp_path: Path):
    t = Transcript(start=DAY1)
    call = t.tool_use("Agent", {"prompt": "p"})
    t.tool_result(call, "ok", extra={"agentId": "gone", "usage": {"input_tokens": 50, "output_tokens": 5}})
    t.write_session(tmp_path)
    r = report(tmp_path, by="agent")
    assert {row.key: row.floor for row in r.rows} == {"main": False, "agent (no log)": True}
    assert r.total.floor and r.agents_from_results == 1
    doc = r.as_dict()
    assert {row["key"]: row["floor"] for row in doc["rows"]}["main"] is False and doc["agents_from_results"] == 1


def test_a_state_dir_that_cannot_hold_the_index_still_gets_its_report(tmp_path: Path):
    root = tmp_path / "root"
    session(root, output=4)
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    assert report(root, blocked / "state").total.tokens.total.output == 4
