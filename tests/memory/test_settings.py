"""Turning capture off or leaving parts out: the config file, then the environment."""

from __future__ import annotations

import json
from pathlib import Path

from session_kit.memory.settings import memory_settings


def test_capture_is_on_and_whole_by_default(tmp_path: Path):
    settings = memory_settings(str(tmp_path), {})
    assert settings.capture and settings.keeps("requests") and settings.source == "default"


def test_the_config_file_turns_capture_off_or_leaves_parts_out(tmp_path: Path):
    (tmp_path / "config.json").write_text(json.dumps({"memory": {"capture": False}}))
    assert not memory_settings(str(tmp_path), {}).keeps("requests")
    (tmp_path / "config.json").write_text(json.dumps({"memory": {"leave_out": ["reads", "next", "bogus"]}}))
    settings = memory_settings(str(tmp_path), {})
    assert settings.leave_out == {"reads", "next"} and settings.keeps("files") and not settings.keeps("next")


def test_the_environment_wins_over_the_file(tmp_path: Path):
    (tmp_path / "config.json").write_text(json.dumps({"memory": {"capture": False, "leave_out": ["files"]}}))
    settings = memory_settings(str(tmp_path), {"SESSION_KIT_MEMORY": "on", "SESSION_KIT_MEMORY_LEAVE_OUT": "reads"})
    assert settings.capture and settings.keeps("files") and not settings.keeps("reads")
    assert not memory_settings(str(tmp_path), {"SESSION_KIT_MEMORY": "off"}).capture


def test_a_damaged_or_odd_config_file_is_named_and_ignored(tmp_path: Path):
    (tmp_path / "config.json").write_text("{not json")
    settings = memory_settings(str(tmp_path), {})
    assert settings.capture and "not JSON" in settings.problems[0]
    (tmp_path / "config.json").unlink()
    (tmp_path / "config.json").mkdir()
    assert memory_settings(str(tmp_path), {}).capture
