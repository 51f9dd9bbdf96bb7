"""Times past what a clock or a database holds, clamped per file and per line: one transcript
touched far into the future, or one `history.jsonl` line stamped in year 10000 or later, is
no error for every other session of the root."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.support.cli import invoke, invoke_json

FAR = 1_099_511_627_776  # seconds: year ~36800 (the file system may keep less of it)


@pytest.mark.parametrize(
    "args",
    [
        ("sessions", "--all", "--json"),
        ("search", "Please", "--all", "--json"),
        ("usage", "--json"),
        ("usage", "--by", "day", "--json"),
        ("export", "--output-dir", "OUT"),
    ],
)
def test_a_transcript_touched_far_into_the_future_fails_no_command_for_its_root(built, tmp_path: Path, args):
    path = built.root / "projects" / "-work-proj" / f"{built.current.session_id}.jsonl"
    os.utime(path, (FAR, FAR))
    assert os.stat(path).st_mtime_ns > 2**63 - 1  # past what a 64-bit count of nanoseconds holds
    result = invoke(*(str(tmp_path / "out") if a == "OUT" else a for a in args))
    assert result.exit_code == 0, result.output
    if args[0] in ("sessions", "search"):
        found = json.loads(result.stdout)
        listed = found["sessions"] if args[0] == "sessions" else found["hits"]
        assert built.current.session_id in {s.get("id", s.get("session_id")) for s in listed}
        if args[0] == "sessions":
            assert built.legacy.session_id in {s["id"] for s in listed}  # the rest of the root is listed too


@pytest.mark.parametrize("stamp", [253_402_300_800_000, 999_999_999_999_999, 10**20, 10**400, 1e300])
def test_a_history_line_stamped_past_year_9999_is_clamped_not_an_error(claude_root: Path, stamp):
    lost = "33333333-0000-0000-0000-00000000cccc"
    entry = {"display": "deploy the far future", "pastedContents": {}, "timestamp": stamp, "project": "/work/proj"}
    (claude_root / "history.jsonl").write_text(json.dumps({**entry, "sessionId": lost}) + "\n")
    found = invoke_json("sessions", "--lost", "--all")
    assert [s["id"] for s in found["sessions"]] == [lost]
    assert found["sessions"][0]["end"].startswith("9999-12-")
    hits = invoke_json("search", "far future", "--all", "--lost")["hits"]
    assert [h["session_id"] for h in hits] == [lost]
