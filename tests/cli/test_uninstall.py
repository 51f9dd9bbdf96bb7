"""`session-kit uninstall` in process (what it changes: tests/install/)."""

from __future__ import annotations

from pathlib import Path

from tests.support.cli import invoke, invoke_json


def test_uninstall_after_install_removes_the_hooks(claude_root: Path):
    invoke("install")
    doc = invoke_json("uninstall")
    assert doc["changed"] is True and doc["hooks"] == {}
