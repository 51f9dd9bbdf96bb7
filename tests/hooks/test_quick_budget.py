"""The quick answer of PreToolUse and UserPromptSubmit under a session's budget (`hooks.quick`):
after one count it proves the session below 80% from its summary and the bytes the files
gained, loading nothing else; whatever it cannot prove (a lowered budget, a new agent log, a
replaced transcript, an event naming two sessions, a message that takes the session past 80%)
is the full check's, so the answers are those of the count."""

from __future__ import annotations

import json
import marshal
import os
from pathlib import Path

import pytest

from session_kit.hooks import quick
from tests.hooks.test_handlers import hook
from tests.hooks.test_session_budget import (
    AGENT,
    BIG,
    PER_MESSAGE_USD,
    SID,
    add_messages,
    denied,
    prompt,
    session_with,
    tool_call,
    write_call,
)
from tests.support.cli import invoke_json
from tests.support.transcripts import Transcript


@pytest.fixture
def state_root(isolated_home: Path) -> Path:
    return Path(os.environ["SESSION_KIT_HOME"])


def counted_at(state_root: Path) -> int:
    """When the full count last wrote the session's running count."""
    return (state_root / "budgets" / SID / "spend.json").stat().st_mtime_ns


def test_under_80_percent_the_count_is_not_run_again(claude_root: Path, state_root: Path, tmp_path: Path):
    _, transcript = session_with(claude_root, 1)
    env = {"SESSION_KIT_SESSION_BUDGET": "$100", "CLAUDE_ENV_FILE": str(tmp_path / "env.sh")}
    start = {"session_id": SID, "transcript_path": str(transcript), "cwd": "/work/proj", "source": "startup"}
    assert hook("session-start", start, env=env).returncode == 0
    assert tool_call(transcript, env) == ({}, b"")
    before = counted_at(state_root)
    add_messages(transcript, 2)
    assert tool_call(transcript, env) == ({}, b"")
    assert prompt(transcript, env)[0] == {}
    assert counted_at(state_root) == before  # proven from the summary: no count


def test_a_message_that_takes_the_session_past_its_budget_is_counted_and_refused(claude_root: Path, state_root: Path):
    _, transcript = session_with(claude_root, 2)  # $2.60 of $5
    env = {"SESSION_KIT_SESSION_BUDGET": "$5"}
    assert tool_call(transcript, env) == ({}, b"")
    add_messages(transcript, 2)  # $5.20
    assert "spent $5.20, its budget of $5.00" in denied(tool_call(transcript, env)[0])
    assert prompt(transcript, env)[0]["decision"] == "block"


def test_past_80_percent_the_notice_still_comes_once(claude_root: Path, state_root: Path):
    _, transcript = session_with(claude_root, 1)  # $1.30 of $6
    env = {"SESSION_KIT_SESSION_BUDGET": "$6"}
    assert tool_call(transcript, env) == ({}, b"")
    add_messages(transcript, 3)  # $5.20: 86%
    assert "86% of its budget of $6.00" in tool_call(transcript, env)[0]["systemMessage"]
    assert tool_call(transcript, env)[0] == {}


def test_a_lowered_budget_is_read_again(claude_root: Path, state_root: Path):
    _, transcript = session_with(claude_root, 2)
    assert tool_call(transcript, {"SESSION_KIT_SESSION_BUDGET": "$100"}) == ({}, b"")
    assert denied(tool_call(transcript, {"SESSION_KIT_SESSION_BUDGET": "$2"})[0])
    state_root.mkdir(parents=True, exist_ok=True)
    assert tool_call(transcript, {"SESSION_KIT_SESSION_BUDGET": ""}) == ({}, b"")
    (state_root / "config.json").write_text(json.dumps({"session": {"budget": "$2"}}))
    assert denied(tool_call(transcript, {"SESSION_KIT_SESSION_BUDGET": ""})[0])


def test_a_new_agent_log_is_counted_at_the_main_threads_next_call(claude_root: Path, state_root: Path):
    t, transcript = session_with(claude_root, 1)
    env = {"SESSION_KIT_SESSION_BUDGET": "$5"}
    assert tool_call(transcript, env) == ({}, b"")
    a = Transcript(SID, cwd="/work/proj", agent_id=AGENT)
    a.user("find the parser")
    for i in range(3):
        a.assistant({"type": "text", "text": f"looking {i}"}, usage=BIG)
    log = a.write_subagent(claude_root, t)
    log.write_text(log.read_text().replace('"claude-test"', '"claude-opus-5-5"'))
    assert "spent $5.20" in denied(tool_call(transcript, env)[0])


def test_a_growing_agent_log_is_bounded_too(claude_root: Path, state_root: Path):
    t, transcript = session_with(claude_root, 1)
    a = Transcript(SID, cwd="/work/proj", agent_id=AGENT)
    a.user("find the parser")
    log = a.write_subagent(claude_root, t)
    env = {"SESSION_KIT_SESSION_BUDGET": "$5"}
    assert tool_call(transcript, env) == ({}, b"")
    more = Transcript(SID, cwd="/work/proj", agent_id=AGENT)
    for i in range(3):
        more.assistant({"type": "text", "text": f"looking {i}"}, usage=BIG)
    with log.open("a") as f:
        f.write(more.text().replace('"claude-test"', '"claude-opus-5-5"'))
    assert "spent $5.20" in denied(tool_call(transcript, env)[0])


def test_a_replaced_transcript_is_counted_again(claude_root: Path, state_root: Path):
    _, transcript = session_with(claude_root, 1)
    env = {"SESSION_KIT_SESSION_BUDGET": "$5"}
    assert tool_call(transcript, env) == ({}, b"")
    data = transcript.read_text()
    add_messages(transcript, 3)
    bigger = transcript.read_text()
    transcript.unlink()
    transcript.write_text(bigger)  # another file now: no offset of the old one holds
    assert data != bigger and denied(tool_call(transcript, env)[0])


def test_an_event_naming_another_session_in_its_tool_input_is_not_taken_for_it(claude_root: Path, state_root: Path):
    _, transcript = session_with(claude_root, 4)  # $5.20
    env = {"SESSION_KIT_SESSION_BUDGET": "$5"}
    assert denied(tool_call(transcript, env)[0])
    other = {"session_id": "0ther-session", "transcript_path": "/elsewhere.jsonl"}
    assert quick.event_fields(json.dumps({"session_id": SID, "tool_input": other}).encode(), ("session_id",)) is None
    assert quick.event_fields(b'{"session_id": "a\\u0062"}', ("session_id",)) is None
    assert quick.event_fields(b'{"session_id" : "ab", "cwd":"/w"}', ("session_id", "cwd")) == {
        "session_id": "ab",
        "cwd": "/w",
    }


def test_the_bound_is_never_below_the_count(claude_root: Path, state_root: Path):
    """A message written as several lines, its usage repeated, a tiered cache write, a model
    the session had not used: the summary's figure stays at or above the count's."""
    _, transcript = session_with(claude_root, 1)
    env = {"SESSION_KIT_SESSION_BUDGET": "$100000"}
    assert tool_call(transcript, env) == ({}, b"")
    usage = {**BIG, "cache_creation": {"ephemeral_5m_input_tokens": 40_000, "ephemeral_1h_input_tokens": 60_000}}
    t = Transcript(SID, cwd="/work/proj")
    for i in range(400):  # past the bytes after which the bound is kept for the next hook
        t.assistant({"type": "text", "text": f"part {i} " + "x" * 100}, usage=usage)
    text = t.text().replace('"claude-test"', '"claude-fable-5-1"')
    with transcript.open("a") as f:
        f.write(text)
    assert tool_call(transcript, env) == ({}, b"")
    saved = marshal.loads((state_root / "budgets" / SID / quick.SUMMARY_FILE).read_bytes())
    counted = invoke_json("budget", SID, env=env)["spent_usd"]
    assert saved["files"][0][2] == transcript.stat().st_size  # the bound was kept, read to the end
    assert counted > PER_MESSAGE_USD and saved["spent"] >= counted


def test_a_call_whose_message_an_earlier_call_counted_is_proven_without_a_count(claude_root: Path, state_root: Path):
    """Calls asked for in parallel: the first one's hook counted the message holding both."""
    _, transcript = session_with(claude_root, 1)
    env = {"SESSION_KIT_SESSION_BUDGET": "$100"}
    first, second = write_call(transcript), write_call(transcript)
    assert tool_call(transcript, env, call_id=first) == ({}, b"")
    before = counted_at(state_root)
    assert tool_call(transcript, env, call_id=second) == ({}, b"")
    assert counted_at(state_root) == before


def test_a_call_whose_message_is_not_written_yet_is_left_to_the_count(claude_root: Path, state_root: Path):
    _, transcript = session_with(claude_root, 1)
    env = {"SESSION_KIT_SESSION_BUDGET": "$100"}
    assert tool_call(transcript, env) == ({}, b"")
    event = {"session_id": SID, "transcript_path": str(transcript), "cwd": "/w", "tool_use_id": "toolu_later"}
    env = {**os.environ, **env}
    assert not quick.nothing_to_say("pre-tool-use", json.dumps(event).encode(), env, lambda env, root: True)
    event["tool_use_id"] = write_call(transcript)
    assert quick.nothing_to_say("pre-tool-use", json.dumps(event).encode(), env, lambda env, root: True)
