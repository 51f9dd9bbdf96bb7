"""`show --json` on every real session says what its truth says: title, requests, tool calls,
failures, compactions, tokens per API message, and each agent with how it ended."""

from __future__ import annotations

import pytest

from tests.real.compare import describe, match_agents, same_start
from tests.real.corpus import KitRun, Truth, params


@pytest.mark.parametrize("truth", params())
def test_title(kit: KitRun, truth: Truth) -> None:
    assert kit.session("show", truth)["title"] == truth["title"]


@pytest.mark.parametrize("truth", params())
def test_requests(kit: KitRun, truth: Truth) -> None:
    requests = kit.session("show", truth)["requests"]
    assert len(requests) == truth["requests"], [r["text"][:80] for r in requests]
    first = requests[0]["text"] if requests else None
    assert same_start(first, truth["first_request"]), (first, truth["first_request"])


@pytest.mark.parametrize("truth", params())
def test_tool_calls_and_failures(kit: KitRun, truth: Truth) -> None:
    shown = kit.session("show", truth)
    assert shown["tool_calls"] == truth["tool_calls"]
    assert len(shown["failures"]) == truth["failed_calls"], [f["error"][:100] for f in shown["failures"]]


@pytest.mark.parametrize("truth", params())
def test_compactions(kit: KitRun, truth: Truth) -> None:
    shown = kit.session("show", truth)["compactions"]
    assert [(c["line"], c["trigger"]) for c in shown] == [(c["line"], c["trigger"]) for c in truth["compactions"]]


@pytest.mark.parametrize("truth", params())
def test_tokens_once_per_api_message(kit: KitRun, truth: Truth) -> None:
    tokens = kit.session("show", truth)["tokens"]
    shown = {name: tokens[name] for name in ("input", "output", "cache_read", "cache_creation", "messages")}
    assert shown == truth.token_totals()


@pytest.mark.parametrize("truth", params())
def test_agents_and_how_each_ended(kit: KitRun, truth: Truth) -> None:
    pairs, missing, extra = match_agents(truth, kit.session("show", truth)["agents"])
    assert not missing, f"agents left out: {[describe(a) for a in missing]}"
    assert not extra, f"agents the file does not have: {[describe(a) for a in extra]}"
    wrong = []
    for want, got in pairs:
        seen = {"ending": got["status"], "type": got["type"], "background": got["background"]}
        expected = {"ending": want["ending"], "type": want["type"], "background": want["background"]}
        if want["tool_calls"] is not None:
            seen["tool_calls"], expected["tool_calls"] = got["tool_calls"], want["tool_calls"]
        if want["failed_calls"] is not None:
            seen["failed_calls"], expected["failed_calls"] = got["failures"], want["failed_calls"]
        if seen != expected:
            wrong.append((describe(want), seen, expected, want.get("how")))
    assert not wrong
