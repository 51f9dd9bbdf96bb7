"""`session-kit install --statusline`: the kit's status line merged into settings.json, a
status line of the person's own left alone unless --force, and uninstall giving back the
file byte for byte."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.cli import invoke, invoke_json

THEIRS = b'{\n  "theme":   "dark",\n  "statusLine": {"type": "command", "command": "~/bin/my-line"}\n}\n'


def _statusline(claude_root: Path) -> dict:
    return json.loads((claude_root / "settings.json").read_text()).get("statusLine")


def test_install_statusline_merges_it_and_uninstall_gives_the_file_back_byte_for_byte(claude_root: Path):
    original = b'{\n  "theme":   "dark",\n  "model": "opus"\n}\n'
    (claude_root / "settings.json").write_bytes(original)
    out = invoke("install", "--statusline").stdout
    assert f"Added the kit's status line to {claude_root / 'settings.json'}" in out
    line = _statusline(claude_root)
    assert line["type"] == "command" and "statusline_main.py" in line["command"] and "-I -S" in line["command"]
    assert json.loads((claude_root / "settings.json").read_text())["theme"] == "dark"
    assert invoke_json("install")["statusline"] is True  # a later install keeps it
    assert invoke("uninstall").exit_code == 0
    assert (claude_root / "settings.json").read_bytes() == original


def test_a_status_line_of_the_persons_own_is_refused_unless_forced_and_uninstall_puts_it_back(claude_root: Path):
    (claude_root / "settings.json").write_bytes(THEIRS)
    refused = invoke("install", "--statusline")
    assert refused.exit_code == 2 and "--force replaces yours" in refused.stderr and "~/bin/my-line" in refused.stderr
    assert (claude_root / "settings.json").read_bytes() == THEIRS
    assert invoke("install", "--statusline", "--force").exit_code == 0
    assert "statusline_main.py" in _statusline(claude_root)["command"]
    assert invoke("uninstall").exit_code == 0
    assert (claude_root / "settings.json").read_bytes() == THEIRS


def test_no_statusline_takes_only_the_status_line_out(claude_root: Path):
    invoke("install", "--statusline")
    out = invoke("install", "--no-statusline").stdout
    assert out.startswith(f"Removed the kit's status line from {claude_root / 'settings.json'}\n")
    assert (
        _statusline(claude_root) is None
        and "SessionStart" in json.loads((claude_root / "settings.json").read_text())["hooks"]
    )
