"""Every command on every real session: no internal error, and what the transcript names
(tool ids, entry uuids, paths) comes out as written. The corpus holds no secret, so a redacted
id or path is the redactor mistaking an identifier for one, and calls would no longer match
their results."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.real.corpus import KitRun, Truth, params

# Per session; each exits 0, or with a code its help documents for this case (never 1).
COMMANDS = {
    "show": (),
    "events": (),
    "info": (),
    "debug-agent": ("--all",),
    "agents": (),
    "memory": (),
    "plan": ("--all",),
}
# `plan` says "no plan" with exit 3; nothing else may end otherwise than 0.
ALLOWED = {"plan": {0, 3}}
REDACTED = "[REDACTED"
IDENTIFIER_KEYS = re.compile(r"(^|_)(id|ids|uuid|path|cwd|transcript)$")


def identifiers(value: Any, key: str = "") -> list[tuple[str, str]]:
    """(key, value) of every string under an id, uuid or path key, at any depth."""
    found = []
    if isinstance(value, dict):
        for k, v in value.items():
            found += identifiers(v, k)
    elif isinstance(value, list):
        for v in value:
            found += identifiers(v, key)
    elif isinstance(value, str) and IDENTIFIER_KEYS.search(key):
        found.append((key, value))
    return found


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("truth", params())
def test_no_internal_error_and_identifiers_as_written(kit: KitRun, truth: Truth, command: str) -> None:
    code, out, err = kit.run(command, str(truth.path), "--claude-dir", str(truth.root), *COMMANDS[command], "--json")
    assert code in ALLOWED.get(command, {0}), err
    assert "Traceback" not in err
    document = json.loads(out)
    assert [(k, v) for k, v in identifiers(document) if REDACTED in v] == []


@pytest.mark.parametrize("truth", params())
def test_every_tool_call_keeps_its_id_as_written(kit: KitRun, truth: Truth) -> None:
    written = set()
    for line in truth.path.read_bytes().splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if not isinstance(entry, dict):
            continue
        message = entry.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        if entry.get("type") == "assistant" and not entry.get("isSidechain") and isinstance(content, list):
            written |= {b["id"] for b in content if isinstance(b, dict) and b.get("type") == "tool_use" and "id" in b}
    shown = {e["id"] for e in kit.session("events", truth, "--main-only")["events"]}
    assert written <= shown, sorted(written - shown)[:5]


@pytest.mark.parametrize("truth", params())
def test_preprocess_and_view_never_fail_inside(kit: KitRun, truth: Truth) -> None:
    code, _, err = kit.run("preprocess", str(truth.path), "--claude-dir", str(truth.root), "--stdout")
    assert code in (0, 6), err  # 6: nothing to preprocess
    assert "Traceback" not in err
    code, out, err = kit.run(
        "view", str(truth.path), "--claude-dir", str(truth.root), "-o", str(kit.home / "view.html"), "--json"
    )
    assert code == 0, err
