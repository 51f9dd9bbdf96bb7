"""Every text output fits the terminal: at 80 columns no line is longer, table columns stay
aligned (`sessions`, `usage`, `events`), cards wrap under their labels (`show`, `info`); a
wider terminal gets the width."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli import run
from tests.support.sessions import Planned, build, build_planned
from tests.support.transcripts import Transcript

LONG_CWD = "/home/someone/src/a-rather-long-project-name/services/billing-worker"
LONG_SID = "10f90000-aaaa-bbbb-cccc-ddddeeeeffff"


@pytest.fixture
def root(claude_root: Path) -> Planned:
    build(claude_root)
    planned = build_planned(claude_root)
    t = Transcript(LONG_SID, cwd=LONG_CWD, branch="feature/a-very-long-branch-name-for-the-fix")
    t.user("Please find out why the nightly billing export drops the last invoice of every month " * 2)
    t.bash(
        "python -m billing.export --month 2026-10 --output /var/tmp/exports/billing-2026-10.csv",
        exit_code=1,
        stderr="Traceback (most recent call last): KeyError: 'invoice_id' in billing/export.py line 212 " * 2,
    )
    t.say("The export drops it.")
    t.write_session(claude_root)
    return planned


COMMANDS = [
    ("sessions", "--all"),
    ("sessions", "--all", "--tokens"),
    ("show", "a1fa0000"),
    ("show", LONG_SID),
    ("info", "a1fa0000"),
    ("info", LONG_SID),
    ("usage",),
    ("usage", "--by", "session"),
    ("usage", "--by", "project"),
    ("events", "a1fa0000"),
    ("events", LONG_SID),
]


def _lines(*args: str, columns: int) -> list[str]:
    proc = run(*args, env={"COLUMNS": str(columns)})
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.splitlines()


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a))
def test_no_line_is_wider_than_80_columns(root: Planned, args):
    lines = _lines(*args, columns=80)
    assert lines
    too_wide = [line for line in lines if len(line) > 80]
    assert not too_wide, "\n".join(too_wide)


def _starts(header: str) -> dict[str, int]:
    """Where each header's words begin (two spaces or more apart)."""
    found, at = {}, 0
    for name in [w for w in header.split("  ") if w.strip()]:
        at = header.index(name.strip(), at)
        found[name.strip()] = at
        at += len(name.strip())
    return found


def _assert_aligned(lines: list[str], left: list[str], right: list[str]) -> None:
    header, *rows = lines
    starts = _starts(header)
    rows = [r for r in rows if not r.lstrip().startswith("└") and r.strip()]
    assert rows
    for name in left:
        if name in starts:
            at = starts[name]
            for row in rows:
                assert row[at - 1 : at] in (" ", "") and row[at : at + 1].strip(), (name, row)
    for name in right:
        if name in starts:
            end = starts[name] + len(name)
            for row in rows:
                assert row[end - 1 : end].strip() and row[end : end + 1] in (" ", ""), (name, row)


@pytest.mark.parametrize("columns", [80, 120, 200])
def test_tables_keep_their_columns_aligned(root: Planned, columns: int):
    sessions = _lines("sessions", "--all", "--tokens", columns=columns)
    _assert_aligned(sessions, ["SESSION", "LAST ACTIVE", "BRANCH", "PROJECT"], ["DURATION", "SIZE", "TOKENS", "COST"])
    usage = [
        line for line in _lines("usage", "--by", "session", columns=columns) if line[:1] != "N" and "Prices" not in line
    ]
    _assert_aligned(usage, ["SESSION"], ["SESSIONS", "INPUT", "OUTPUT", "CACHE R", "CACHE W", "TOTAL", "COST"])
    for sid in ("a1fa0000", LONG_SID):
        events = _lines("events", sid, columns=columns)
        _assert_aligned(events, ["TIME", "STATUS", "AGENT", "TOOL", "SUMMARY"], ["TOOK"])


def test_events_put_each_error_under_the_status_column(root: Planned):
    lines = _lines("events", "a1fa0000", columns=80)
    status = lines[0].index("STATUS")
    errors = [line for line in lines if line.lstrip().startswith("└")]
    assert errors and all(line.index("└") == status for line in errors)


def test_a_wide_terminal_gets_the_columns_a_narrow_one_leaves_out(root: Planned):
    narrow = _lines("sessions", "--all", columns=80)
    wide = _lines("sessions", "--all", columns=200)
    assert "PROJECT" not in narrow[0] and "DURATION" not in narrow[0]
    assert all(name in wide[0] for name in ("DURATION", "SIZE", "AGENTS", "BRANCH", "PROJECT"))
    assert any(f"…{LONG_CWD[-39:]}" in line for line in wide)  # a path cut keeps its end
    assert max(map(len, wide)) > 120


def test_a_card_wraps_its_long_values_under_their_label(root: Planned):
    lines = _lines("show", LONG_SID, columns=80)
    at = next(i for i, line in enumerate(lines) if line.startswith("  tokens:"))
    assert lines[at + 1].startswith(" " * 13) and lines[at + 1][13] != " "


def test_into_a_pipe_lines_are_never_wrapped(root: Planned):
    proc = run("show", LONG_SID, env={"COLUMNS": ""})
    assert any(len(line) > 80 for line in proc.stdout.splitlines())
