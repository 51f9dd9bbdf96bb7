"""Where Claude Code keeps things: the Claude root and the plans folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from session_kit.claude import paths


def test_the_claude_root_is_dot_claude_in_home(isolated_home: Path):
    assert paths.claude_root() == isolated_home / ".claude"


def test_claude_config_dir_overrides_home(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", "/cfg")
    assert paths.claude_root() == Path("/cfg")


def test_an_explicit_root_overrides_claude_config_dir(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", "/cfg")
    assert paths.claude_root("/explicit") == Path("/explicit")


def test_plans_live_in_the_roots_plans_folder_by_default(tmp_path: Path):
    assert paths.plans_dir(tmp_path) == tmp_path / "plans"


def test_an_absolute_plans_setting_is_used_as_is(tmp_path: Path):
    assert paths.plans_dir(tmp_path, "/abs/plans") == Path("/abs/plans")


def test_a_relative_plans_setting_is_under_the_project(tmp_path: Path):
    assert paths.plans_dir(tmp_path, "myplans", project="/work/proj") == Path("/work/proj/myplans")


def test_a_relative_plans_setting_without_a_project_is_under_the_root(tmp_path: Path):
    assert paths.plans_dir(tmp_path, "myplans") == tmp_path / "myplans"
