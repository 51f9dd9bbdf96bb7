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
        f"Left {claude_root / 'settings.json'} as it is (the kit's hooks are current)"
    )
