"""`doctor`, `install` and `uninstall` in process (what they change: tests/test_install.py)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from tests.support.cli import invoke, invoke_json


def test_doctor_exits_1_when_nothing_is_installed(built, claude_root: Path):
    result = invoke("doctor", "--json")
    assert result.exit_code == 1  # nothing installed yet
    doc = json.loads(result.stdout)
    assert doc["claude_root"] == str(claude_root) and doc["sessions"] == 2 and doc["projects"] == 2
    assert doc["installed"] == [] and doc["ok"] is False


def test_doctor_text_says_what_to_run(built):
    assert "session-kit install" in invoke("doctor").stdout


def test_doctor_names_the_claude_dir_option_as_the_roots_source(built, claude_root: Path):
    result = invoke("doctor", "--json", "--claude-dir", str(claude_root))
    assert json.loads(result.stdout)["claude_root_source"] == "--claude-dir"


def test_install_then_doctor_is_ok(claude_root: Path):
    assert invoke("install").exit_code == 0
    assert invoke("doctor").exit_code == 0


def test_install_dry_run_changes_nothing(claude_root: Path):
    doc = invoke_json("install", "--dry-run")
    assert doc["dry_run"] is True and doc["changed"] is True
    assert not Path(doc["settings_path"]).exists()


def test_install_text_names_the_settings_file_and_the_slash_commands(claude_root: Path):
    out = invoke("install").stdout
    assert f"Added the kit's hooks to {claude_root / 'settings.json'}" in out
    assert f"Copied 8 slash commands into {claude_root / 'commands'}:" in out and "/plan," in out


def test_install_twice_says_already_current(claude_root: Path):
    invoke("install")
    assert invoke("install").stdout.startswith(
        f"Left {claude_root / 'settings.json'} as it is (the kit's hooks are current)"
    )


def test_uninstall_after_install_removes_the_hooks(claude_root: Path):
    invoke("install")
    doc = invoke_json("uninstall")
    assert doc["changed"] is True and doc["hooks"] == {}


def test_doctor_on_an_invalid_settings_file_advises_what_works_not_install(claude_root: Path):
    (claude_root / "settings.json").write_text('{"hooks": ')
    out = invoke("doctor").stdout
    assert "(run `session-kit install`)" not in out
    assert f"fix {claude_root / 'settings.json'} (it is not valid JSON), then run `session-kit install`" in out
    assert invoke("install").exit_code == 5  # why install alone is not the advice


def test_doctor_on_a_project_scope_install_advises_moving_it_to_the_local_scope(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert invoke("install", "--scope", "local").exit_code == 0
    shared = tmp_path / ".claude" / "settings.json"
    shared.write_text((tmp_path / ".claude" / "settings.local.json").read_text())  # an older kit's install
    out = invoke("doctor").stdout
    assert "`session-kit uninstall --scope project`" in out and "--scope local" in out


def _plugin_session_path(monkeypatch) -> None:
    """PATH as the plugin's SessionStart hook leaves it for the Bash tool: its bin/ on it."""
    repo = Path(__file__).parents[2]
    monkeypatch.setenv("PATH", f"{os.environ['PATH']}{os.pathsep}{repo / 'bin'}")


def test_doctor_on_the_plugin_route_exits_0_and_never_advises_an_install(built, monkeypatch):
    _plugin_session_path(monkeypatch)
    result = invoke("doctor")
    assert result.exit_code == 0, result.stdout
    assert "Installed:   nothing" not in result.stdout and "session-kit install" not in result.stdout
    assert "as a plugin" in result.stdout


def test_doctor_on_the_marketplace_route_exits_0_and_never_advises_an_install(built, claude_root: Path):
    (claude_root / "settings.json").write_text('{"enabledPlugins": {"session-kit@session-kit": true}}')
    result = invoke("doctor")
    assert result.exit_code == 0, result.stdout
    assert "session-kit install" not in result.stdout and "as a plugin" in result.stdout


def test_doctor_with_the_plugin_and_an_outdated_install_advises_removing_the_install(claude_root: Path, monkeypatch):
    assert invoke("install").exit_code == 0
    settings = json.loads((claude_root / "settings.json").read_text())
    for entries in settings["hooks"].values():
        for entry in entries:
            for hook in entry["hooks"]:
                hook["command"] = hook["command"].replace("run.py", "old-run.py")
    (claude_root / "settings.json").write_text(json.dumps(settings))
    _plugin_session_path(monkeypatch)
    out = invoke("doctor").stdout
    assert "session-kit install" not in out.replace("session-kit uninstall", "")
    assert "`session-kit uninstall`" in out


def test_doctor_with_nothing_installed_names_every_route(built):
    out = invoke("doctor").stdout
    assert "session-kit install" in out and "--plugin-dir" in out and "claude plugin install" in out
