"""`session-kit install` in process (what it changes: tests/install/)."""

from __future__ import annotations

from pathlib import Path

from tests.support.cli import invoke, invoke_json


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
    assert f"Copied 9 slash commands into {claude_root / 'commands'}:" in out and "/plan," in out


def test_install_twice_says_already_current(claude_root: Path):
    invoke("install")
    assert invoke("install").stdout.startswith(
        f"Changed nothing: the kit's hooks in {claude_root / 'settings.json'} and its 9 slash commands are current\n"
    )


def test_a_dry_run_on_a_current_install_says_it_would_change_nothing(claude_root: Path):
    invoke("install")
    out = invoke("install", "--dry-run").stdout
    assert out.startswith("Dry run: `session-kit install` would change nothing: the kit's hooks in ")
    assert "copy" not in out and "/plan" not in out
    assert invoke_json("install", "--dry-run")["commands_written"] == []


def test_a_dry_run_names_only_the_slash_commands_that_changed(claude_root: Path):
    invoke("install")
    plan = claude_root / "commands" / "plan.md"
    plan.write_text(plan.read_text() + "an older kit's words\n")
    out = invoke("install", "--dry-run").stdout
    assert f"  copy 1 slash command into {claude_root / 'commands'}:\n    /plan\n" in out


def test_guard_secrets_on_a_current_install_reports_only_the_hook_it_adds(claude_root: Path):
    invoke("install")
    out = invoke("install", "--guard-secrets").stdout
    assert out.startswith(f"Changed the kit's hooks in {claude_root / 'settings.json'}: added PostToolUse\n")
    assert "slash command" not in out and "Added the kit's hooks" not in out


def test_uninstall_prints_no_backup_it_then_deletes(claude_root: Path):
    (claude_root / "settings.json").write_text('{"theme": "dark"}\n')
    invoke("install")
    doc = invoke_json("uninstall")
    assert doc["backup"] is None and (claude_root / "settings.json").read_text() == '{"theme": "dark"}\n'
    invoke("install")
    assert "backup" not in invoke("uninstall").stdout
