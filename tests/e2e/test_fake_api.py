"""The fake Messages API on its own (no client): wire format, routing of requests, the log."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from .fake_api import FakeMessagesAPI, Script, bash, flatten_request, text

SYSTEM = [{"type": "text", "text": "You are the main agent."}]
TOOLS = [{"name": "Bash", "input_schema": {}}, {"name": "Agent", "input_schema": {}}]


def post(fake: FakeMessagesAPI, path: str, body: dict[str, Any], headers: dict[str, str] | None = None) -> bytes:
    request = urllib.request.Request(
        fake.base_url + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.read()


def sse(raw: bytes) -> list[tuple[str, dict[str, Any]]]:
    events = []
    for chunk in raw.decode().strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in chunk.splitlines())
        events.append((lines["event"], json.loads(lines["data"])))
    return events


def user(*texts: str) -> dict[str, Any]:
    return {"role": "user", "content": [{"type": "text", "text": t} for t in texts]}


@pytest.fixture
def fake() -> Iterator[FakeMessagesAPI]:
    script = Script(
        main={"first": [[text("one"), bash("ls /nope")], "two"], "second": ["again"]},
        agents={"AGENT-KEY": ["agent says hi"]},
    )
    with FakeMessagesAPI(script) as running:
        yield running


def test_a_streamed_reply_has_the_event_sequence_the_client_reads(fake: FakeMessagesAPI) -> None:
    raw = post(
        fake,
        "/v1/messages?beta=true",
        {"stream": True, "system": SYSTEM, "tools": TOOLS, "messages": [user("first")]},
    )
    names = [name for name, _ in sse(raw) if name != "ping"]
    assert names == [
        "message_start",
        *["content_block_start", "content_block_delta", "content_block_stop"],
        *["content_block_start", "content_block_delta", "content_block_delta", "content_block_stop"],
        "message_delta",
        "message_stop",
    ]
    events = dict(sse(raw))
    assert events["message_delta"]["delta"]["stop_reason"] == "tool_use"
    assert events["message_delta"]["usage"]["output_tokens"] > 0
    partial = "".join(d["delta"].get("partial_json", "") for n, d in sse(raw) if n == "content_block_delta")
    assert json.loads(partial) == {"command": "ls /nope"}


def test_turns_count_assistant_messages_after_the_latest_prompt(fake: FakeMessagesAPI) -> None:
    history = [
        user("<system-reminder>noise</system-reminder>", "first"),
        {"role": "assistant", "content": [{"type": "text", "text": "one"}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": "x"}]},
    ]
    body = json.loads(post(fake, "/v1/messages", {"system": SYSTEM, "tools": TOOLS, "messages": history}))
    assert body["content"] == [{"type": "text", "text": "two"}] and body["stop_reason"] == "end_turn"
    later = [*history, {"role": "assistant", "content": "two"}, user("second")]
    body = json.loads(post(fake, "/v1/messages", {"system": SYSTEM, "tools": TOOLS, "messages": later}))
    assert body["content"][0]["text"] == "again"
    assert [(e.conversation, e.turn) for e in fake.main_requests()] == [("main", 1), ("main", 0)]


def test_requests_are_routed_to_agents_compaction_and_side_replies(fake: FakeMessagesAPI) -> None:
    agent = {"system": SYSTEM, "tools": TOOLS, "messages": [user("AGENT-KEY: do it")]}
    post(fake, "/v1/messages", agent, {"x-claude-code-agent-id": "a1"})
    post(fake, "/v1/messages", {**agent, "messages": [user("unknown agent")]}, {"x-claude-code-agent-id": "a2"})
    compact = [user("first"), user("Your task is to create a detailed summary of the conversation so far")]
    post(fake, "/v1/messages", {"system": SYSTEM, "tools": TOOLS, "messages": compact})
    post(fake, "/v1/messages", {"messages": [user("Write a title")]})
    assert [e.conversation for e in fake.message_requests()] == [
        "agent:AGENT-KEY",
        "agent:?",
        "compact",
        "side",
    ]
    assert fake.agent_requests("AGENT-KEY")[0].reply == [text("agent says hi")]
    assert fake.requests_containing("unknown agent")[0].agent_id == "a2"


def test_other_endpoints_answer_harmlessly_and_are_logged(fake: FakeMessagesAPI) -> None:
    counted = json.loads(post(fake, "/v1/messages/count_tokens", {"messages": [user("hello")]}))
    assert counted["input_tokens"] > 0
    with pytest.raises(urllib.error.HTTPError) as missing:
        post(fake, "/api/unknown", {})
    assert missing.value.code == 404
    assert fake.paths() == ["POST /v1/messages/count_tokens", "POST /api/unknown"]


def test_flatten_request_renders_system_messages_and_tool_traffic() -> None:
    body = {
        "system": SYSTEM,
        "messages": [
            user("hi"),
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "name": "Bash", "input": {"command": "ls"}}],
            },
            {
                "role": "user",
                "content": [{"type": "tool_result", "is_error": True, "content": "Exit code 2"}],
            },
        ],
    }
    flat = flatten_request(body)
    assert "You are the main agent." in flat and '[tool_use Bash {"command": "ls"}]' in flat
    assert "[tool_result error] Exit code 2" in flat
