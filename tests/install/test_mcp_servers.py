"""`session-kit install` registers the kit's MCP server in the client's own config file
(user scope: `.claude.json` of the Claude root named by `$CLAUDE_CONFIG_DIR`, else
`~/.claude.json`), touching only its `mcpServers` entry; `uninstall` gives the bytes back."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from session_kit.install import mcp_servers

EXE = Path(sys.executable).with_name("session-kit")
# As the client writes it: two-space indent, no final newline; keys the kit must keep as they are.
CLIENT_CONFIG = (
    b'{\n  "numStartups": 7,\n  "tipsHistory": {\n    "x": 1.50\n  },\n  "mcpServers": {\n'
    b'    "theirs": {\n      "type": "stdio",\n      "command": "their-server",\n      "args": [],\n'
    b'      "env": {}\n    }\n  },\n  "userID": "caf\xc3\xa9"\n}'
)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    wide = {**os.environ, "COLUMNS": "1000"}  # doctor's lines whole: at 80 columns a long path wraps
    return subprocess.run([str(EXE), *args], capture_output=True, text=True, timeout=60, env=wide)


@pytest.fixture
def config(claude_root: Path) -> Path:
    path = claude_root / ".claude.json"
    path.write_bytes(CLIENT_CONFIG)
    path.chmod(0o600)
    return path


def servers(path: Path) -> dict:
    return json.loads(path.read_bytes())["mcpServers"]


def test_install_registers_the_server_beside_the_clients_keys_and_uninstall_gives_the_bytes_back(config: Path):
    done = run("install")
    assert done.returncode == 0, done.stderr
    assert f"Registered the kit's MCP server (session-kit mcp) in {config}" in done.stdout
    entry = servers(config)["session-kit"]
    python = EXE.read_text().splitlines()[0].removeprefix("#!")  # the interpreter that ran install
    assert entry == {"type": "stdio", "command": python, "args": ["-m", "session_kit", "mcp"], "env": {}}
    after = json.loads(config.read_bytes())
    assert after["numStartups"] == 7 and after["userID"] == "café" and "theirs" in after["mcpServers"]
    assert b'"x": 1.50' in config.read_bytes() and (config.stat().st_mode & 0o777) == 0o600
    again = run("install")
    assert "MCP server: registered in" in again.stdout and "(current)" in again.stdout
    gone = run("uninstall")
    assert gone.returncode == 0, gone.stderr
    assert f"Removed the kit's MCP server (session-kit mcp) from {config}" in gone.stdout
    assert config.read_bytes() == CLIENT_CONFIG


def test_uninstall_after_the_client_rewrote_the_file_takes_out_only_the_kits_entry(config: Path):
    assert run("install").returncode == 0
    value = json.loads(config.read_bytes())
    value["numStartups"] = 8  # the client saves the file at every start
    value["mcpServers"]["added-later"] = {"command": "x"}
    config.write_text(json.dumps(value, indent=2))
    assert run("uninstall").returncode == 0
    value = json.loads(config.read_bytes())
    assert value["numStartups"] == 8 and set(value["mcpServers"]) == {"theirs", "added-later"}


def test_a_config_without_servers_gets_them_and_loses_them_again(claude_root: Path):
    path = claude_root / ".claude.json"
    path.write_bytes(b'{\n  "numStartups": 1\n}')
    assert run("install").returncode == 0
    assert set(servers(path)) == {"session-kit"}
    value = json.loads(path.read_bytes())
    value["numStartups"] = 2
    path.write_text(json.dumps(value, indent=2))
    assert run("uninstall").returncode == 0
    assert json.loads(path.read_bytes()) == {"numStartups": 2}


def test_no_config_file_yet_is_made_and_removed_again(claude_root: Path):
    path = claude_root / ".claude.json"
    assert run("install").returncode == 0 and "session-kit" in servers(path)
    assert run("uninstall").returncode == 0 and not path.exists()


def test_dry_run_says_it_would_register_and_changes_nothing(config: Path):
    done = run("install", "--dry-run")
    assert f"register the kit's MCP server (session-kit mcp) in {config}" in done.stdout
    assert config.read_bytes() == CLIENT_CONFIG
    data = json.loads(run("install", "--dry-run", "--json").stdout)
    assert data["mcp_server"]["changed"] is True and data["mcp_server"]["config_path"] == str(config)


def test_a_malformed_config_is_refused_with_exit_5_and_left_as_it_was(claude_root: Path):
    path = claude_root / ".claude.json"
    broken = b'{"numStartups": 1,,,'
    path.write_bytes(broken)
    done = run("install")
    assert done.returncode == 5 and str(path) in done.stderr and "Traceback" not in done.stderr
    assert path.read_bytes() == broken


def test_servers_that_are_not_an_object_are_refused(claude_root: Path):
    path = claude_root / ".claude.json"
    path.write_bytes(b'{"mcpServers": []}')
    assert run("install").returncode == 5 and path.read_bytes() == b'{"mcpServers": []}'


def test_a_server_of_that_name_the_person_registered_is_left_alone(claude_root: Path):
    path = claude_root / ".claude.json"
    mine = b'{"mcpServers": {"session-kit": {"command": "session-kit", "args": ["mcp"]}}}'
    path.write_bytes(mine)
    done = run("install")
    assert done.returncode == 0 and "not the kit's; left as it is" in done.stdout
    assert run("uninstall").returncode == 0 and path.read_bytes() == mine


def test_the_local_scope_registers_no_server(claude_root: Path, tmp_path: Path):
    path = claude_root / ".claude.json"
    path.write_bytes(CLIENT_CONFIG)
    project = tmp_path / "project"
    project.mkdir()
    done = subprocess.run([str(EXE), "install", "--scope", "local"], capture_output=True, text=True, cwd=project)
    assert done.returncode == 0 and "MCP" not in done.stdout and path.read_bytes() == CLIENT_CONFIG


def test_without_the_sdk_nothing_is_registered(config: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(mcp_servers, "sdk_present", lambda: False)
    result = mcp_servers.install(claude_root=config.parent)
    assert not result.registered and "mcp" in (result.skipped or "") and config.read_bytes() == CLIENT_CONFIG


def test_doctor_reports_the_registration(config: Path):
    before = json.loads(run("doctor", "--json").stdout)["mcp_server"]
    assert before["registered"] is False and before["config_path"] == str(config)
    assert "not registered" in run("doctor").stdout
    run("install")
    after = json.loads(run("doctor", "--json").stdout)["mcp_server"]
    assert after["registered"] and after["by_kit"] and after["current"]
    assert f"MCP server:  registered in {config} (by the kit; current)" in run("doctor").stdout


def test_the_default_root_means_the_config_beside_it_in_home(tmp_path: Path):
    home = tmp_path / "h"
    env = {"HOME": str(home)}
    assert mcp_servers.config_path(home / ".claude", env) == home / ".claude.json"
    assert mcp_servers.config_path(tmp_path / "other", env) == tmp_path / "other" / ".claude.json"
    env["CLAUDE_CONFIG_DIR"] = str(home / ".claude")
    assert mcp_servers.config_path(home / ".claude", env) == home / ".claude" / ".claude.json"
