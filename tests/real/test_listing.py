"""What the listings say of every real session is what its truth says, by the same rules as
`show`: `sessions --all --json` (title, first prompt), `export`'s sessions table (title, first
request, tokens) and `usage --by session` (tokens). Tokens are compared for sessions without
agents (the listings add an agent's tokens to its session's; the truth counts the main
conversation's), each file its own session."""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tests.real.compare import same_start
from tests.real.corpus import KitRun, Truth, params, truths

TOKENS = ("input", "output", "cache_read", "cache_creation")
EXPORT_TOKENS = {
    "input": "input_tokens",
    "output": "output_tokens",
    "cache_read": "cache_read_tokens",
    "cache_creation": "cache_write_tokens",
}


def by_path(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {str(Path(row["path"]).resolve()): row for row in rows if row.get("path")}


def listed(kit: KitRun, truth: Truth) -> dict[str, Any]:
    rows = by_path(kit.json("sessions", "--all", "--claude-dir", str(truth.root))["sessions"])
    return rows[str(truth.path.resolve())]


@cache
def _exported(kit: KitRun, folder: str, root: Path) -> dict[str, dict[str, Any]]:
    out = kit.home / "exports" / folder
    code, _, err = kit.run("export", "--output-dir", str(out), "--claude-dir", str(root))
    assert code == 0, f"export exited {code}: {err.strip()}"
    lines = (out / "sessions.jsonl").read_text("utf-8").splitlines()
    return by_path([json.loads(line) for line in lines if line.strip()])


def exported(kit: KitRun, truth: Truth) -> dict[str, Any]:
    return _exported(kit, truth.folder, truth.root)[str(truth.path.resolve())]


def own_session(truth: Truth) -> bool:
    """No agents, no agent log of its id (a 2.0.x warmup's is billed to it), and a session id
    no other file of its folder holds."""
    if truth.agents or len(truth["session_ids"]) != 1:
        return False
    sid = truth["session_ids"][0]
    shared = Counter(s for t in truths() if t.folder == truth.folder for s in t["session_ids"])
    if shared[sid] != 1 or Path(truth.rel).stem != sid or (truth.path.parent / sid).is_dir():
        return False
    return not any(sid.encode() in log.read_bytes() for log in truth.path.parent.glob("agent-*.jsonl"))


@pytest.mark.parametrize("truth", params())
def test_the_listing_titles_each_session_as_show_does(kit: KitRun, truth: Truth) -> None:
    assert listed(kit, truth)["title"] == truth["title"]


@pytest.mark.parametrize("truth", params())
def test_the_listing_gives_the_first_request(kit: KitRun, truth: Truth) -> None:
    shown = listed(kit, truth)["first_prompt"]
    assert same_start(shown, truth["first_request"]), (shown, truth["first_request"])


@pytest.mark.parametrize("truth", params())
def test_the_export_gives_the_title_and_first_request(kit: KitRun, truth: Truth) -> None:
    row = exported(kit, truth)
    assert row["title"] == truth["title"]
    assert same_start(row["first_request"], truth["first_request"]), (row["first_request"], truth["first_request"])


@pytest.mark.parametrize("truth", params(own_session))
def test_the_export_counts_tokens_once_per_api_message(kit: KitRun, truth: Truth) -> None:
    row = exported(kit, truth)
    want = truth.token_totals()
    assert {name: row[column] for name, column in EXPORT_TOKENS.items()} == {name: want[name] for name in TOKENS}


@pytest.mark.parametrize("truth", params(own_session))
def test_usage_by_session_counts_tokens_once_per_api_message(kit: KitRun, truth: Truth) -> None:
    rows = kit.json("usage", "--by", "session", "--claude-dir", str(truth.root))["rows"]
    found = [row["tokens"] for row in rows if row["key"] == truth["session_ids"][0]]
    fields = (*TOKENS, "messages")
    shown = {name: found[0][name] for name in fields} if found else dict.fromkeys(fields, 0)
    want = truth.token_totals()
    assert shown == {name: want[name] for name in fields}
