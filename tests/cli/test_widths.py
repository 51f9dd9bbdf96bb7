"""Every text output fits the terminal: at 80 columns no line is longer, table columns stay
aligned (`sessions`, `usage`, `events`), cards wrap under their labels (`show`, `info`); a
wider terminal gets the width."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from session_kit.cli import main
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


def test_sessions_with_tokens_keeps_the_title_at_80_columns(root: Planned):
    lines = _lines("sessions", "--all", "--tokens", columns=80)
    assert "TITLE / FIRST PROMPT" in lines[0] and any("Please find out" in line for line in lines)


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
    # 80 columns: ids cut to a prefix (any command takes one), so the title and the project fit
    assert "PROJECT" in narrow[0] and "TITLE" in narrow[0] and "DURATION" not in narrow[0]
    assert any(line.startswith(LONG_SID[:8] + "  ") for line in narrow)
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


# --- every command and every help page at 80 columns ---------------------------------------------

LOST_SID = "33333333-0000-0000-0000-00000000cccc"
KEY = "sk-ant-api03-Typ3dInt0ThePr0mptXyZ-qQ9wE8rT7yU6iO5pA4sD3fG"


@pytest.fixture
def everything(root: Planned, claude_root: Path) -> Planned:
    """The root above, and what the other commands list: a session only history.jsonl
    remembers (with a long prompt and project), a scratch dir, a secret in a prompt."""
    entry = {
        "display": "migrate the billing tables to postgres and then write the rollback for it " * 2,
        "pastedContents": {},
        "timestamp": 1_760_000_000_000,
        "project": LONG_CWD,
        "sessionId": LOST_SID,
    }
    (claude_root / "history.jsonl").write_text(json.dumps(entry) + "\n")
    t = Transcript("5ec0e700-0000-0000-0000-000000000001", cwd=LONG_CWD)
    t.user(f"deploy with {KEY} to the billing cluster in the eu-central region, please")
    t.say("Deployed.")
    t.write_session(claude_root)
    assert run("preprocess", LONG_SID).returncode == 0
    return root


EVERY = [
    ("doctor",),
    ("secrets", "--all"),
    ("scratch", "list"),
    ("sessions", "--lost", "--all"),
    ("sessions", "--all"),
    ("memory", LONG_SID),
    ("memory", "a1fa0000"),
    ("plan", "--all", "a1fa0000"),
    ("agents", "a1fa0000"),
    ("debug-agent", "a1fa0000", "--all"),
    ("search", "billing", "--all"),
    ("search", "billing", "--all", "--lost"),
]


@pytest.mark.parametrize("args", EVERY, ids=lambda a: " ".join(a))
def test_every_command_fits_80_columns(everything: Planned, args):
    proc = run(*args, env={"COLUMNS": "80"})
    assert proc.returncode in (0, 1, 8), proc.stderr  # doctor: not installed; secrets: found
    lines = (proc.stdout + proc.stderr).splitlines()
    assert lines
    # `search`'s resume line is a shell command to copy: printed whole (cli/layout.py)
    too_wide = [line for line in lines if len(line) > 80 and "claude --resume" not in line]
    assert not too_wide, "\n".join(too_wide)


def _every_help() -> list[list[str]]:
    from session_kit.cli.reference import commands

    return [name.split()[1:] for name, _ in commands()]


@pytest.mark.parametrize("words", _every_help(), ids=lambda w: " ".join(w) or "session-kit")
def test_every_help_page_fits_80_columns(words: list[str]):
    result = CliRunner().invoke(main, [*words, "--help"], prog_name="session-kit", terminal_width=80)
    assert result.exit_code == 0
    # `--json`'s path to json.md is this machine's: as long as the checkout's path makes it.
    too_wide = [line for line in result.stdout.splitlines() if len(line) > 80 and "json.md" not in line]
    assert not too_wide, "\n".join(too_wide)
