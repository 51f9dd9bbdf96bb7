"""The core stays importable without the CLI's dependencies (click is for `cli` alone)."""

from __future__ import annotations

import json
import subprocess
import sys

CORE = [
    "session_kit.claude.paths",
    "session_kit.transcript.reader",
    "session_kit.transcript.entries",
    "session_kit.transcript.calls",
    "session_kit.sessions.store",
    "session_kit.sessions.agents",
    "session_kit.queries.report",
    "session_kit.queries.search",
    "session_kit.queries.plans",
    "session_kit.queries.card",
    "session_kit.preprocess",
]


def loaded_after(code: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys, json; print(json.dumps(sorted(sys.modules)))"],
        capture_output=True, text=True, check=True,
    ).stdout
    return set(json.loads(out))


def test_core_modules_do_not_import_click():
    modules = loaded_after("; ".join(f"import {m}" for m in CORE))
    assert "click" not in modules
    assert "session_kit.cli" not in modules


def test_the_cli_imports_core_modules_lazily():
    modules = loaded_after("import session_kit.cli")
    assert not {"session_kit.queries.report", "session_kit.queries.search", "session_kit.sessions.agents", "session_kit.queries.plans", "session_kit.queries.card"} & modules
