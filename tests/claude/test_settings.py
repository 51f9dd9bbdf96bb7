"""Claude Code's settings files, read as the client reads them: per scope, never written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from session_kit.claude.settings import commands_dir, plan_dirs, plans_directory_setting, read_setting, settings_path


def write_settings(path: Path, settings: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(settings))


@pytest.mark.parametrize(
    ("scope", "where"),
    [
        ("user", "root/settings.json"),
        ("project", "proj/.claude/settings.json"),
        ("local", "proj/.claude/settings.local.json"),
    ],
)
def test_each_scope_has_its_settings_file(tmp_path: Path, scope: str, where: str):
    assert settings_path(scope, tmp_path / "root", tmp_path / "proj") == tmp_path / where


def test_an_unknown_scope_is_refused(tmp_path: Path):
    with pytest.raises(ValueError, match="unknown scope"):
        settings_path("global", tmp_path, tmp_path)


def test_the_local_scope_shares_the_projects_commands_folder(tmp_path: Path):
    assert commands_dir("local", tmp_path / "root", tmp_path / "proj") == tmp_path / "root" / "commands"
    assert commands_dir("project", tmp_path / "root", tmp_path / "proj") == tmp_path / "proj" / ".claude" / "commands"
    assert commands_dir("user", tmp_path / "root", tmp_path / "proj") == tmp_path / "root" / "commands"


@pytest.mark.parametrize("content", [None, b"{not json", b"[1, 2]", b'{"other": 1}'])
def test_a_missing_invalid_or_silent_settings_file_gives_nothing(tmp_path: Path, content: bytes | None):
    path = tmp_path / "settings.json"
    if content is not None:
        path.write_bytes(content)
    assert read_setting(path, "plansDirectory") is None


def test_the_plans_setting_is_read_local_then_project_then_user(tmp_path: Path):
    root, project = tmp_path / "root", tmp_path / "proj"
    write_settings(root / "settings.json", {"plansDirectory": "from-user"})
    assert plans_directory_setting(root, str(project)) == "from-user"
    write_settings(project / ".claude" / "settings.json", {"plansDirectory": "from-project"})
    assert plans_directory_setting(root, str(project)) == "from-project"
    write_settings(project / ".claude" / "settings.local.json", {"plansDirectory": "from-local"})
    assert plans_directory_setting(root, str(project)) == "from-local"


def test_a_project_plans_folder_comes_before_the_default_one(claude_root: Path, tmp_path: Path):
    project = tmp_path / "proj"
    write_settings(project / ".claude" / "settings.json", {"plansDirectory": "myplans"})
    assert plan_dirs(claude_root, str(project)) == [project / "myplans", claude_root / "plans"]


def test_without_a_setting_only_the_default_plans_folder_is_searched(claude_root: Path, tmp_path: Path):
    assert plan_dirs(claude_root, str(tmp_path / "proj")) == [claude_root / "plans"]
