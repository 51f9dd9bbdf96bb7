"""The slash-command texts name the kit's commands as the route calls them: as the plugin
(`/session-kit:NAME`, where a bare `/NAME` resolves to nothing) in the files the plugin reads,
and bare (`/NAME`) in the copies installed into a Claude root."""

from __future__ import annotations

import json
import re
from pathlib import Path

from session_kit.install.kit_files import install_command_files, kit_command_files

REPO = Path(__file__).parents[2]
PLUGIN = json.loads((REPO / ".claude-plugin" / "plugin.json").read_text())["name"]
NAMES = sorted(p.stem for p in kit_command_files())


def mentions(text: str) -> list[str]:
    """Each kit command a text names, as it names it (`/x` or `/plugin:x`)."""
    return re.findall(rf"(?<![\w/-])/(?:[\w-]+:)?(?:{'|'.join(NAMES)})(?![\w-])", text)


def test_the_plugins_command_texts_name_the_kit_commands_as_the_plugin_calls_them():
    named = {p.name: mentions(p.read_text()) for p in kit_command_files()}
    assert sum(map(len, named.values())) >= 3, named  # they do name one another
    wrong = {name: [m for m in found if not m.startswith(f"/{PLUGIN}:")] for name, found in named.items()}
    assert not any(wrong.values()), wrong


def test_the_installed_copies_name_them_as_the_installed_route_calls_them(tmp_path: Path):
    install_command_files(tmp_path, dry_run=False)
    info = (tmp_path / "session-info.md").read_text()
    assert "`/debug-agent` (the subagents) or `/plan` (the plans)" in info
    assert "Bash(session-kit info:*)" in info  # the tool rule is no command name
    for path in tmp_path.glob("*.md"):
        assert f"/{PLUGIN}:" not in path.read_text(), path.name
        assert all(m.lstrip("/") in NAMES for m in mentions(path.read_text()))
    # an installed copy is current: a second install writes nothing
    assert install_command_files(tmp_path, dry_run=False)[2] == []
