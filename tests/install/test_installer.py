"""`session-kit install` / `uninstall` / `doctor` through the real entry point: the installer owns
only what it marks, is idempotent, and gives back the bytes it found."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from session_kit.install.installer import kit_command_files
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


@pytest.fixture
def installed(settings_file: Path) -> subprocess.CompletedProcess[str]:
    proc = run("install")
    assert proc.returncode == 0, proc.stderr
    return proc


@pytest.fixture
def broken_settings(claude_root: Path) -> tuple[Path, bytes, subprocess.CompletedProcess[str]]:
    path = claude_root / "settings.json"
    broken = b'{"model": "opus",,, // not json\n'
    path.write_bytes(broken)
    return path, broken, run("install")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project with the kit installed in its shared and its local scope."""
    project = tmp_path / "proj"
    project.mkdir()
    assert run("install", "--scope", "project", cwd=project).returncode == 0
    assert run("install", "--scope", "local", cwd=project).returncode == 0
    return project


def test_install_keeps_the_users_settings_and_hooks_first(installed, settings_file: Path):
    settings = json.loads(settings_file.read_text())
    assert settings["model"] == "opus" and settings["permissions"] == {"allow": ["Bash(ls:*)"]}
    start = settings["hooks"]["SessionStart"]
    assert start[0] == {"matcher": "startup", "hooks": [{"type": "command", "command": "echo mine"}]}


def test_install_adds_marked_hooks_run_by_this_python_in_isolated_mode(installed, settings_file: Path):
    settings = json.loads(settings_file.read_text())
    ours = settings["hooks"]["SessionStart"][1]["hooks"][0]["command"]
    assert ours.endswith(MARKER) and f"{sys.executable}" in ours and " -I -S " in ours
    assert {"UserPromptSubmit", "PreCompact"} <= set(settings["hooks"])


def test_install_says_it_kept_a_backup(installed):
    assert "backup" in installed.stdout


def test_doctor_passes_after_install(installed):
    assert run("doctor").returncode == 0


def test_install_twice_is_same_as_once(installed, settings_file: Path):
    once = settings_file.read_bytes()
    assert run("install").returncode == 0
    assert settings_file.read_bytes() == once


def test_uninstall_restores_the_original_bytes(installed, settings_file: Path):
    assert run("install").returncode == 0
    assert run("uninstall").returncode == 0
    assert settings_file.read_bytes() == USER_SETTINGS


def test_doctor_fails_after_uninstall(installed):
    assert run("uninstall").returncode == 0
    assert run("doctor").returncode == 1


def test_install_without_a_settings_file_creates_one(claude_root: Path):
    path = claude_root / "settings.json"
    assert run("install").returncode == 0 and path.exists()


def test_uninstall_removes_the_settings_file_install_created(claude_root: Path):
    path = claude_root / "settings.json"
    assert run("install").returncode == 0
    assert run("uninstall").returncode == 0
    assert not path.exists()


def test_dry_run_says_what_it_would_change(settings_file: Path):
    doc = json.loads(run("install", "--dry-run", "--json").stdout)
    assert (
        doc["dry_run"]
        and doc["changed"]
        and set(doc["hooks"]) == {"SessionStart", "UserPromptSubmit", "PreCompact", "PostCompact"}
    )


def test_dry_run_changes_nothing(settings_file: Path, claude_root: Path):
    run("install", "--dry-run", "--json")
    assert settings_file.read_bytes() == USER_SETTINGS
    assert not (claude_root / "commands").exists()


def test_invalid_settings_are_left_byte_for_byte(broken_settings):
    path, broken, proc = broken_settings
    assert proc.returncode == 5
    assert path.read_bytes() == broken


def test_invalid_settings_are_named_in_one_line_without_a_traceback(broken_settings):
    _, _, proc = broken_settings
    assert proc.stderr.count("\n") == 1 and "not valid JSON" in proc.stderr and "Traceback" not in proc.stderr


def test_the_project_scope_writes_the_projects_shared_settings(project: Path):
    assert "PreCompact" in json.loads((project / ".claude" / "settings.json").read_text())["hooks"]


def test_the_local_scope_writes_the_projects_local_settings(project: Path):
    assert "PreCompact" in json.loads((project / ".claude" / "settings.local.json").read_text())["hooks"]


def test_project_scopes_leave_the_user_settings_alone(project: Path, claude_root: Path):
    assert not (claude_root / "settings.json").exists()


def test_uninstall_of_the_local_scope_removes_the_file_it_created(project: Path):
    assert run("uninstall", "--scope", "local", cwd=project).returncode == 0
    assert not (project / ".claude" / "settings.local.json").exists()


def test_the_kit_ships_its_slash_commands():
    names = [p.stem for p in kit_command_files()]
    assert {"debug-agent", "plan", "session-info"} <= set(names)


@pytest.fixture
def users_own_command(claude_root: Path) -> tuple[Path, list[str], subprocess.CompletedProcess[str]]:
    """The user's own file under the name of the kit's first command, then `install`."""
    names = [p.stem for p in kit_command_files()]
    commands = claude_root / "commands"
    commands.mkdir()
    mine = commands / f"{names[0]}.md"
    mine.write_text("my own command\n")
    return mine, names, run("install")


def test_install_skips_a_slash_command_the_user_has_and_says_so(users_own_command):
    mine, names, proc = users_own_command
    assert proc.returncode == 0 and f"/{names[0]} skipped" in proc.stderr
    assert mine.read_text() == "my own command\n"


def test_install_adds_the_other_slash_commands(users_own_command):
    mine, names, _ = users_own_command
    for name in names[1:]:
        assert (mine.parent / f"{name}.md").exists()


def test_uninstall_removes_only_the_kits_slash_commands(users_own_command):
    mine, _, _ = users_own_command
    run("uninstall")
    assert mine.read_text() == "my own command\n"
    assert [p.name for p in mine.parent.iterdir()] == [mine.name]


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


def test_the_launcher_runs_this_kit(installed):
    launcher = Path(os.environ["SESSION_KIT_HOME"]) / "bin" / "session-kit"
    out = subprocess.run([str(launcher), "--version"], capture_output=True, text=True)
    assert out.returncode == 0 and "session-kit" in out.stdout


def test_the_launcher_is_alone_in_its_folder(installed):
    launcher = Path(os.environ["SESSION_KIT_HOME"]) / "bin" / "session-kit"
    assert os.listdir(launcher.parent) == ["session-kit"]


def test_hooks_without_a_receipt_are_still_removed_cleanly(settings_file: Path):
    assert run("install").returncode == 0
    shutil.rmtree(os.environ["SESSION_KIT_HOME"])  # the kit's state is gone, its hooks are not
    assert run("install").returncode == 0
    assert run("uninstall").returncode == 0
    assert json.loads(settings_file.read_bytes()) == json.loads(USER_SETTINGS)
