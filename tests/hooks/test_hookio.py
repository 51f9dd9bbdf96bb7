"""The hook's event is parsed once, into one `HookEvent` every handler reads: each field of
its type or None, and no hook module parses the event or picks a field from it on its own."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import session_kit
from session_kit.hooks.hookio import HookEvent, HookInputError, project_path_in, read_event, session_id_in

HOOKS = Path(session_kit.__file__).parent / "hooks"


def test_an_event_is_read_once_into_its_fields():
    event = read_event(
        b'{"session_id":"s1","transcript_path":"/t.jsonl","cwd":"/w","source":"resume",'
        b'"agent_id":"a1","agent_type":"Explore","tool_name":"Bash","tool_response":{"stdout":"ok"},'
        b'"prompt_cache_likely_expired":true,"estimated_cache_write_usd":0.5,'
        b'"seconds_since_last_response":3600,"context_tokens":1200}'
    )
    assert isinstance(event, HookEvent)
    assert (event.session_id, event.transcript_path, event.cwd, event.source) == ("s1", "/t.jsonl", "/w", "resume")
    assert (event.agent_id, event.agent_type, event.tool_name) == ("a1", "Explore", "Bash")
    assert event.has_tool_response and event.tool_response == {"stdout": "ok"}
    assert (event.cache_expired, event.cache_write_usd, event.idle_seconds, event.context_tokens) == (
        True,
        0.5,
        3600,
        1200,
    )


def test_a_field_of_the_wrong_type_or_empty_is_none():
    event = HookEvent(
        {
            "transcript_path": 7,
            "cwd": "",
            "agent_id": ["a"],
            "prompt_cache_likely_expired": "true",
            "estimated_cache_write_usd": True,
            "context_tokens": 1.5,
            "compact_summary": 3,
        }
    )
    assert (event.transcript_path, event.cwd, event.agent_id, event.compact_summary) == (None, None, None, None)
    assert (event.cache_expired, event.cache_write_usd, event.context_tokens) == (False, None, None)
    assert not event.has_tool_response and event.tool_response is None


def test_the_session_and_project_come_from_the_event_else_the_environment(tmp_path: Path):
    event = HookEvent({"session_id": "abc-1", "cwd": "/work/p"})
    assert session_id_in(event, {"CLAUDE_CODE_SESSION_ID": "other"}) == "abc-1"
    assert session_id_in(HookEvent({}), {"CLAUDE_CODE_SESSION_ID": "other"}) == "other"
    assert project_path_in(event, {}) == "/work/p"
    assert project_path_in(event, {"CLAUDE_PROJECT_DIR": "/proj"}) == "/proj"


@pytest.mark.parametrize("data", [b"", b"  ", b"[1]", b"{not json"])
def test_no_event_is_a_hook_input_error(data: bytes):
    with pytest.raises(HookInputError):
        read_event(data)


def _hook_modules() -> dict[str, ast.Module]:
    return {path.stem: ast.parse(path.read_text()) for path in sorted(HOOKS.glob("*.py")) if path.stem != "hookio"}


# `hooks.start` looks at the event's raw bytes, never parsed, before any of the kit loads: the
# main thread's PreToolUse (no `"agent_id"` in them) ends there. Its bytes may be sliced and
# searched; nothing else.
RAW_BYTES = {"start"}


def test_no_hook_module_parses_the_event_or_picks_from_it_itself():
    """`event.get(...)`, `event[...]`, `"x" in event` and a JSON parse belong to `hookio` alone."""
    offenders = []
    for module, tree in _hook_modules().items():
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and node.attr in ("get", "keys", "items")
                and getattr(node.value, "id", None) == "event"
            ):
                offenders.append((module, node.lineno, f"event.{node.attr}"))
            if module in RAW_BYTES:
                pass
            elif isinstance(node, ast.Subscript) and getattr(node.value, "id", None) == "event":
                offenders.append((module, node.lineno, "event[...]"))
            elif isinstance(node, ast.Compare) and any(getattr(c, "id", None) == "event" for c in node.comparators):
                offenders.append((module, node.lineno, "... in event"))
            if (
                isinstance(node, ast.Attribute)
                and node.attr == "loads"
                and not (module == "quick" and getattr(node.value, "id", None) == "marshal")  # its own summary
            ):
                offenders.append((module, node.lineno, "a JSON parse"))
    assert offenders == []


def test_every_field_a_hook_reads_is_one_the_event_has():
    fields = set(HookEvent.__slots__)
    unknown = [
        (module, node.lineno, node.attr)
        for module, tree in _hook_modules().items()
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and getattr(node.value, "id", None) == "event"
        and node.attr not in fields
        and module not in RAW_BYTES
    ]
    assert unknown == []
