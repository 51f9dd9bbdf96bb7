"""Every command names a session by the same facts: `sessions` (text and --json), `show`,
`info` and the index's `export` give one title, one start and one end, in every dialect."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path
from xml.etree import ElementTree

import pytest

from session_kit.transcript.entries import format_timestamp, parse_timestamp
from tests.support.cli import invoke, invoke_json
from tests.support.transcripts import Transcript

T0 = datetime(2026, 11, 3, 9, 0, 0, tzinfo=timezone.utc)


def _stacked_elsewhere(root: Path) -> tuple[Transcript, str]:
    """1.0.x: two `summary` titles stacked on top, both of other sessions (no leaf here)."""
    t = Transcript("1a000000-0000-0000-0000-00000000000a", cwd="/work/one", version="1.0.24", start=T0)
    t.raw({"type": "summary", "summary": "Another session's first title", "leafUuid": "ffff0000-elsewhere-1"})
    t.raw({"type": "summary", "summary": "Another session's second title", "leafUuid": "ffff0000-elsewhere-2"})
    t.user("Fix the flaky test")
    t.say("Fixed.")
    t.write_session(root)
    return t, "Another session's first title"


def _own_among_others(root: Path) -> tuple[Transcript, str]:
    """1.0.x: the stack holds this session's titles between other sessions' ones."""
    t = Transcript("1b000000-0000-0000-0000-00000000000b", cwd="/work/one", version="1.0.98", start=T0)
    first = t.user("Make the parser faster")
    last = t.say("Done.")[0]
    t.lines[0:0] = [
        {"type": "summary", "summary": "Not ours", "leafUuid": "ffff0000-elsewhere-3"},
        {"type": "summary", "summary": "Parser (early)", "leafUuid": first["uuid"]},
        {"type": "summary", "summary": "Faster parser", "leafUuid": last["uuid"]},
        {"type": "summary", "summary": "Not ours either", "leafUuid": "ffff0000-elsewhere-4"},
    ]
    t.write_session(root)
    return t, "Faster parser"


def _renamed_2_1(root: Path) -> tuple[Transcript, str]:
    """2.1.x: a generated title, a rename, then another generated title; noise with times
    before the first and after the last conversation line."""
    t = Transcript("21c00000-0000-0000-0000-00000000000c", cwd="/work/one", version="2.1.132", start=T0)
    t.noise("attachment", size=300)
    t.user("Write the release notes")
    t.raw({"type": "ai-title", "aiTitle": "Release notes", "sessionId": t.session_id})
    t.say("Written.")
    t.raw({"type": "custom-title", "customTitle": "Notes for 2.0", "sessionId": t.session_id})
    t.raw({"type": "ai-title", "aiTitle": "Writing release notes", "sessionId": t.session_id})
    t.noise("queue-operation", size=50)
    t.write_session(root)
    return t, "Notes for 2.0"


def _out_of_order(root: Path) -> tuple[Transcript, str]:
    """2.0.x: lines not in time order: the first line written is the latest, the last one the
    earliest (a listing reads a file's head and tail only: they hold its span here)."""
    t = Transcript("20d00000-0000-0000-0000-00000000000d", cwd="/work/one", version="2.0.30", start=T0)
    t.raw({"type": "summary", "summary": "Loader refactor", "leafUuid": "ffff0000-elsewhere-5"})
    t.clock = T0 + timedelta(hours=2)
    t.user("Refactor the loader")
    t.clock = T0
    t.say("Refactored.")
    t.write_session(root)
    return t, "Loader refactor"


def _agent_outlives_the_session(root: Path) -> tuple[Transcript, str]:
    """2.1.x: a background agent whose log goes on after the session's last line."""
    t = Transcript("21e00000-0000-0000-0000-00000000000e", cwd="/work/one", version="2.1.330", start=T0)
    t.user("Audit the tree in the background")
    call = t.tool_use("Agent", {"subagent_type": "general-purpose", "description": "Audit", "prompt": "AUDIT"})
    t.tool_result(call, "Async agent launched", extra={"agentId": "a0d17000000000e1", "status": "async_launched"})
    t.raw({"type": "ai-title", "aiTitle": "Tree audit", "sessionId": t.session_id})
    t.say("Launched.")
    agent = Transcript(t.session_id, cwd=t.cwd, agent_id="a0d17000000000e1", start=t.clock + timedelta(minutes=5))
    agent.user("AUDIT")
    agent.say("Audited.")
    t.write_session(root)
    agent.write_subagent(root, t, meta={"agentType": "general-purpose", "toolUseId": call})
    return t, "Tree audit"


BUILDERS = [_stacked_elsewhere, _own_among_others, _renamed_2_1, _out_of_order, _agent_outlives_the_session]


def _span(t: Transcript) -> tuple[str, str]:
    """The earliest and latest time of the conversation's lines (user and assistant)."""
    times = [parse_timestamp(line["timestamp"]) for line in t.lines if line.get("type") in ("user", "assistant")]
    return format_timestamp(min(times)), format_timestamp(max(times))  # type: ignore[type-var]


@pytest.mark.parametrize("build", BUILDERS, ids=lambda b: b.__name__.strip("_"))
def test_every_command_gives_a_session_the_same_title_start_and_end(claude_root: Path, tmp_path: Path, build):
    t, title = build(claude_root)
    start, end = _span(t)
    sid = t.session_id

    [listed] = invoke_json("sessions", "--all")["sessions"]
    shown = invoke_json("show", sid)
    card = invoke_json("info", sid)
    assert invoke("export", "--output-dir", str(tmp_path / "out")).exit_code == 0
    [exported] = [json.loads(line) for line in (tmp_path / "out" / "sessions.jsonl").read_text().splitlines()]

    assert (listed["title"], listed["start"], listed["end"]) == (title, start, end)
    assert (shown["title"], shown["start"], shown["end"]) == (title, start, end)
    assert (card["title"], card["start"], card["end"]) == (title, start, end)
    assert (exported["title"], exported["started"], exported["ended"]) == (title, start, end)
    row = invoke("sessions", "--all", env={"COLUMNS": "250"}).stdout.splitlines()[1]
    shown_end = parse_timestamp(end).strftime("%Y-%m-%d %H:%M:%SZ")  # type: ignore[union-attr]
    assert row.startswith(f"{sid}  {shown_end}") and row.rstrip().endswith(title)


CLIENT_LINES = (
    "<command-name>clear</command-name>\n<command-message>clear</command-message>\n<command-args></command-args>",
    "Caveat: The messages below were generated by the user while running local commands. DO NOT respond to these "
    "messages or otherwise consider them in your response unless the user explicitly asks you to.",
    '<teammate-message teammate_id="reviewer">Looks good to me.</teammate-message>',
)


def test_every_reader_counts_the_same_requests_and_names_the_same_first_one(claude_root: Path, tmp_path: Path):
    t = Transcript("10240000-0000-0000-0000-000000000024", cwd="/work/one", version="1.0.24", start=T0)
    for text in CLIENT_LINES:
        t.user(text)
    t.user("Rename the module")
    t.say("Renamed.")
    for text in CLIENT_LINES:
        t.user(text)
    t.write_session(claude_root)
    sid = t.session_id

    assert [r["text"] for r in invoke_json("show", sid)["requests"]] == ["Rename the module"]
    assert invoke_json("sessions", "--all")["sessions"][0]["first_prompt"] == "Rename the module"
    memory = invoke_json("memory", sid)["memory"]["requests"]
    assert memory["first"]["text"] == "Rename the module"
    assert [r["text"] for r in memory["recent"]] == ["Rename the module"]
    assert invoke("export", "--output-dir", str(tmp_path / "out")).exit_code == 0
    exported = json.loads((tmp_path / "out" / "sessions.jsonl").read_text())
    assert exported["first_request"] == "Rename the module"
    document = ElementTree.fromstring(invoke("preprocess", sid, "--stdout", "--no-filtering").stdout.encode())
    assert [u.text for u in document.iter("user") if u.get("kind") is None] == ["Rename the module"]


@pytest.mark.parametrize("build", [_stacked_elsewhere, _own_among_others], ids=lambda b: b.__name__.strip("_"))
def test_preprocess_names_only_the_sessions_own_title_and_never_as_a_summary(claude_root: Path, build):
    t, title = build(claude_root)
    result = invoke("preprocess", t.session_id, "--stdout", "--no-filtering")  # short: kept whole
    assert result.exit_code == 0, result.stderr
    document = result.stdout
    assert "<summary" not in document
    assert f'<session id="{t.session_id}"' in document and f'title="{title}"' in document
    others = [line["summary"] for line in t.lines if line.get("type") == "summary" and line["summary"] != title]
    assert others and not any(other in document for other in others)
