"""`session-kit usage`: the report's table and JSON, its options and its errors."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from tests.support.cli import invoke, invoke_json
from tests.support.transcripts import Transcript


def one_session(root: Path) -> Transcript:
    t = Transcript()
    t.user("go")
    [line] = t.say("x")
    line["message"]["model"] = "claude-opus-5-5"
    t.say("y")  # the builder's `claude-test`: no price
    t.write_session(root)
    return t


def test_usage_prints_a_row_per_day_a_total_the_unpriced_models_and_the_price_date(claude_root: Path):
    one_session(claude_root)
    result = invoke("usage")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split()[:2] == ["DAY", "SESSIONS"]
    assert lines[1].startswith("2026-11-01") and lines[2].startswith("total")
    assert "No price for claude-test" in result.stdout
    assert "Prices of 2026-11-23 (bundled)." in result.stdout


def test_usage_json_has_the_price_tables_date_and_cost_per_row(claude_root: Path):
    t = one_session(claude_root)
    doc = invoke_json("usage", "--by", "session")
    assert doc["kind"] == "usage" and doc["prices"]["date"] == "2026-11-23"
    [row] = doc["rows"]
    assert row["key"] == t.session_id and row["tokens"]["messages"] == 2
    assert row["cost"]["unknown_models"] == ["claude-test"] and row["cost"]["complete"] is False


def test_usage_help_states_the_bundled_price_tables_date(claude_root: Path):
    assert "bundled with the kit (dated 2026-11-23;" in " ".join(invoke("usage", "--help").stdout.split())


def test_a_bad_date_is_a_one_line_usage_error(claude_root: Path):
    result = invoke("usage", "--since", "yesterday")
    assert result.exit_code == 2 and "is not a date" in result.stderr and "Traceback" not in result.stderr


def test_since_after_until_is_a_one_line_usage_error(claude_root: Path):
    result = invoke("usage", "--since", "2026-05-01", "--until", "2026-04-01")
    assert result.exit_code == 2 and "session-kit: --since is after --until" in result.stderr


def test_a_bad_price_file_is_a_one_line_error_with_exit_5(claude_root: Path, tmp_path: Path):
    bad = tmp_path / "prices.json"
    bad.write_text("{")
    result = invoke("usage", env={"SESSION_KIT_PRICES": str(bad)})
    assert result.exit_code == 5 and str(bad) in result.stderr and "Traceback" not in result.stderr


def test_an_empty_history_says_so(claude_root: Path):
    result = invoke("usage")
    assert result.exit_code == 0 and result.stdout.startswith("No usage in 0 transcripts")


def test_usage_marks_the_rows_of_agents_counted_from_their_results_as_a_floor(claude_root: Path):
    t = one_session(claude_root)
    call = t.tool_use("Agent", {"prompt": "p"})
    t.tool_result(call, "ok", extra={"agentId": "gone", "usage": {"input_tokens": 50, "output_tokens": 5}})
    t.write_session(claude_root)
    lines = invoke("usage", "--by", "agent").stdout.splitlines()
    assert [line.split()[0] for line in lines if line.endswith("  floor")] == ["agent", "total"]
    assert "1 agent whose log is gone counted from the Agent results" in "\n".join(lines)


@pytest.mark.parametrize("zone", ["UTC", "Etc/GMT+12", "Pacific/Kiritimati"])
@pytest.mark.parametrize(
    "stamp",
    ["9999-12-31T23:59:59Z", "9999-12-31T23:59:59-12:00", "0001-01-01T00:00:00+14:00"],
    ids=["9999", "9999-west", "1-east"],
)
def test_usage_counts_messages_stamped_at_the_ends_of_the_calendar(
    claude_root: Path, stamp: str, zone: str, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("TZ", zone)
    time.tzset()
    try:
        t = Transcript()
        t.user("go")
        [line] = t.say("x")
        line["timestamp"] = stamp
        t.write_session(claude_root)
        for args in ((), ("--by", "week"), ("--by", "month"), ("--no-index",)):
            result = invoke("usage", *args, "--json")
            assert result.exit_code == 0, result.stderr
            assert sum(row["tokens"]["messages"] for row in json.loads(result.stdout)["rows"]) == 1
    finally:
        monkeypatch.undo()
        time.tzset()
