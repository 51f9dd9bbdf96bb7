"""`session-kit doctor` in process: what it checks and what it advises, by route."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from tests.support.cli import invoke
from tests.support.sessions import Built


def _doctor() -> dict:
    return json.loads(invoke("doctor", "--json").stdout)["archive"]  # exit 1: the kit is not installed here


def test_doctor_shows_the_cleanup_period_and_what_is_not_archived(built: Built):
    (built.root / "settings.json").write_text('{"cleanupPeriodDays": 10}')
    old = time.time() - 9 * 86400
    for path in (built.root / "projects").rglob("*.jsonl"):
        os.utime(path, (old, old))
    report = _doctor()
    assert report["cleanup_period_days"] == 10 and report["not_archived_files"] >= 5
    assert report["aging_out_unarchived"] >= 5
    text = invoke("doctor").stdout
    assert "WARNING" in text and "after 10 days" in text
    invoke("archive")
    report = _doctor()
    assert report["not_archived_files"] == 0 and report["aging_out_unarchived"] == 0 and report["bytes"] > 0


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


def test_doctor_shows_the_budgets_and_warns_of_each_malformed_value(built):
    state = Path(os.environ["SESSION_KIT_HOME"])
    state.mkdir(parents=True, exist_ok=True)
    (state / "config.json").write_text(json.dumps({"agents": {"budget": "500k", "budget_by_type": {"Plan": "abc"}}}))
    env = {"SESSION_KIT_SESSION_BUDGET": "$5", "SESSION_KIT_AGENT_BUDGET": ""}
    text = invoke("doctor", env=env).output
    assert "Budgets:     $5.00 per session; 500.0k tokens per subagent; Plan 500.0k tokens" in text
    assert "Warning: budget: agents.budget_by_type.Plan = 'abc' is no budget" in text
    report = json.loads(invoke("doctor", "--json", env={"SESSION_KIT_SESSION_BUDGET": "1,5m"}).stdout)
    assert report["budgets"]["session"] is None
    assert any("SESSION_KIT_SESSION_BUDGET = '1,5m' is no budget" in p for p in report["budgets"]["problems"])


def test_doctor_says_when_no_budget_is_set(built):
    assert "Budgets:     none set" in invoke("doctor").output
