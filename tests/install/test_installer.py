"""`session-kit install` / `uninstall` / `doctor` through the real entry point."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from session_kit.install.settings import MARKER

EXE = Path(sys.executable).with_name("session-kit")
USER_SETTINGS = b"""{
  "model": "opus",
  "hooks": {
    "SessionStart": [ { "matcher": "startup", "hooks": [ { "type": "command", "command": "echo mine" } ] } ]
  },
  "permissions": {"allow": ["Bash(ls:*)"]}
}
"""


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(EXE), *args], capture_output=True, text=True, cwd=cwd, timeout=60)


@pytest.fixture
def settings_file(claude_root: Path) -> Path:
    path = claude_root / "settings.json"
    path.write_bytes(USER_SETTINGS)
    return path


def test_install_adds_marked_hooks_and_keeps_the_users(settings_file: Path):
    proc = run("install")
    assert proc.returncode == 0, proc.stderr
    settings = json.loads(settings_file.read_text())
    assert settings["model"] == "opus" and settings["permissions"] == {"allow": ["Bash(ls:*)"]}
    start = settings["hooks"]["SessionStart"]
    assert start[0] == {"matcher": "startup", "hooks": [{"type": "command", "command": "echo mine"}]}
    ours = start[1]["hooks"][0]["command"]
    assert ours.endswith(MARKER) and f"{sys.executable}" in ours and " -I -S " in ours
    assert {"UserPromptSubmit", "PreCompact"} <= set(settings["hooks"])
    assert "backup" in proc.stdout
    assert run("doctor").returncode == 0


def test_install_twice_equals_once_and_uninstall_restores_the_bytes(settings_file: Path):
    run("install")
    once = settings_file.read_bytes()
    assert run("install").returncode == 0
    assert settings_file.read_bytes() == once
    assert run("uninstall").returncode == 0
    assert settings_file.read_bytes() == USER_SETTINGS
    assert run("doctor").returncode == 1


def test_install_without_a_settings_file_and_uninstall_leaves_none(claude_root: Path):
    path = claude_root / "settings.json"
    assert run("install").returncode == 0 and path.exists()
    assert run("uninstall").returncode == 0
    assert not path.exists()


def test_dry_run_changes_nothing(settings_file: Path, claude_root: Path):
    proc = run("install", "--dry-run", "--json")
    doc = json.loads(proc.stdout)
    assert doc["dry_run"] and doc["changed"] and set(doc["hooks"]) == {"SessionStart", "UserPromptSubmit", "PreCompact"}
    assert settings_file.read_bytes() == USER_SETTINGS
    assert not (claude_root / "commands").exists()


def test_invalid_settings_are_left_byte_for_byte(claude_root: Path):
    path = claude_root / "settings.json"
    broken = b'{"model": "opus",,, // not json\n'
    path.write_bytes(broken)
    proc = run("install")
    assert proc.returncode == 5
    assert proc.stderr.count("\n") == 1 and "not valid JSON" in proc.stderr and "Traceback" not in proc.stderr
    assert path.read_bytes() == broken


def test_project_and_local_scopes(tmp_path: Path, claude_root: Path):
    project = tmp_path / "proj"
    project.mkdir()
    assert run("install", "--scope", "project", cwd=project).returncode == 0
    assert run("install", "--scope", "local", cwd=project).returncode == 0
    assert "PreCompact" in json.loads((project / ".claude" / "settings.json").read_text())["hooks"]
    assert "PreCompact" in json.loads((project / ".claude" / "settings.local.json").read_text())["hooks"]
    assert not (claude_root / "settings.json").exists()
    assert run("uninstall", "--scope", "local", cwd=project).returncode == 0
    assert not (project / ".claude" / "settings.local.json").exists()


def test_slash_commands_never_overwrite_the_users_own(claude_root: Path):
    from session_kit.install.installer import kit_command_files

    names = [p.stem for p in kit_command_files()]
    assert {"debug-agent", "plan", "session-info"} <= set(names)
    commands = claude_root / "commands"
    commands.mkdir()
    mine = commands / f"{names[0]}.md"
    mine.write_text("my own command\n")
    proc = run("install")
    assert proc.returncode == 0 and f"/{names[0]} skipped" in proc.stderr
    assert mine.read_text() == "my own command\n"
    for name in names[1:]:
        assert (commands / f"{name}.md").exists()
    run("uninstall")
    assert mine.read_text() == "my own command\n"
    assert [p.name for p in commands.iterdir()] == [mine.name]


def test_killing_the_installer_at_any_moment_leaves_valid_settings(settings_file: Path):
    rng = random.Random(7)
    for i in range(30):
        verb = "install" if i % 2 == 0 else "uninstall"
        proc = subprocess.Popen([str(EXE), verb], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.02, 0.3))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        data = settings_file.read_bytes()
        settings = json.loads(data)  # always a whole file, old or new
        assert settings["model"] == "opus", data
        assert settings["hooks"]["SessionStart"][0]["hooks"][0]["command"] == "echo mine", data
    final = run("uninstall")
    assert final.returncode == 0, final.stderr
    assert json.loads(settings_file.read_bytes()) == json.loads(USER_SETTINGS), settings_file.read_bytes()


def test_many_installs_still_restore_the_original_bytes(settings_file: Path):
    for _ in range(12):  # more backups than are kept
        assert run("install").returncode == 0
        assert run("uninstall").returncode == 0
        assert run("install").returncode == 0
    assert run("uninstall").returncode == 0
    assert settings_file.read_bytes() == USER_SETTINGS


def test_launcher_runs_this_kit(settings_file: Path):
    run("install")
    launcher = Path(os.environ["SESSION_KIT_HOME"]) / "bin" / "session-kit"
    out = subprocess.run([str(launcher), "--version"], capture_output=True, text=True)
    assert out.returncode == 0 and "session-kit" in out.stdout
    assert os.listdir(launcher.parent) == ["session-kit"]


def test_hooks_without_a_receipt_are_still_removed_cleanly(settings_file: Path):
    import shutil

    assert run("install").returncode == 0
    shutil.rmtree(os.environ["SESSION_KIT_HOME"])  # the kit's state is gone, its hooks are not
    assert run("install").returncode == 0
    assert run("uninstall").returncode == 0
    assert json.loads(settings_file.read_bytes()) == json.loads(USER_SETTINGS)
