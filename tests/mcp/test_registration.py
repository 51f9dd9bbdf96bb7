"""The plugin declares the MCP server; the plugin's own environment and ./install.sh include the SDK."""

from __future__ import annotations

import json
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_the_plugin_declares_the_server_run_by_its_own_session_kit_command():
    manifest = json.loads((REPO / ".claude-plugin" / "plugin.json").read_text())
    assert manifest["mcpServers"] == {
        "session-kit": {"command": "${CLAUDE_PLUGIN_ROOT}/bin/session-kit", "args": ["mcp"]}
    }


def test_the_plugins_environment_and_the_installer_install_the_mcp_extra():
    assert '"$here[mcp]"' in (REPO / "bin" / "session-kit").read_text()
    assert '"$here[mcp${extras:+,$extras}]"' in (REPO / "install.sh").read_text()
    assert 'mcp = ["mcp>=' in (REPO / "pyproject.toml").read_text()
