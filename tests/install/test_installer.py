"""`session-kit install` / `uninstall` / `doctor` through the real entry point: the installer owns
only what it marks, is idempotent, and gives back the bytes it found."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from session_kit.install.kit_files import kit_command_files
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
    """A project with the kit installed in its local scope."""
    project = tmp_path / "proj"
    project.mkdir()
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
    # short (the client shows it to the model after /compact), the state root named from the home
    assert ours == f"~/session-kit-state/hook session-start || : {MARKER}"
    launcher = (Path(os.environ["SESSION_KIT_HOME"]) / "hook").read_text()
    interpreter = EXE.read_text().splitlines()[0].removeprefix("#!")  # the python the CLI runs on
    assert interpreter in launcher and ' -I -S "$run" "$@"' in launcher and launcher.count("exec ") == 1
    assert {"UserPromptSubmit", "PreCompact"} <= set(settings["hooks"])


OLD_COMMAND = (  # as the kit before the hook launcher wrote its hooks
    "if [ -x /old/venv/bin/python ] && [ -f /old/session_kit/hooks/run.py ] ; then "
    "SESSION_KIT_BIN_DIR=/old/state/bin /old/venv/bin/python -I -S /old/session_kit/hooks/run.py {} ; fi " + MARKER
)


def _with_old_hooks(settings_file: Path) -> None:
    settings = json.loads(settings_file.read_bytes())
    for event, argument in (("SessionStart", "session-start"), ("PreCompact", "pre-compact")):
        group = {"hooks": [{"type": "command", "command": OLD_COMMAND.format(argument), "timeout": 30}]}
        settings["hooks"].setdefault(event, []).append(group)
    settings_file.write_text(json.dumps(settings))


def test_an_install_over_an_older_one_replaces_its_long_commands(settings_file: Path):
    _with_old_hooks(settings_file)
    assert json.loads(run("doctor", "--json").stdout)["installed"][0]["current"] is False
    assert run("install").returncode == 0
    commands = [h["command"] for g in json.loads(settings_file.read_text())["hooks"]["PreCompact"] for h in g["hooks"]]
    assert commands == [f"~/session-kit-state/hook pre-compact || : {MARKER}"]
    assert json.loads(run("doctor", "--json").stdout)["installed"][0]["current"] is True


def test_uninstall_removes_the_older_commands_too(settings_file: Path):
    _with_old_hooks(settings_file)
    assert run("uninstall").returncode == 0
    assert json.loads(settings_file.read_bytes()) == json.loads(USER_SETTINGS)


def test_doctor_names_hooks_whose_launcher_is_gone(installed):
    (Path(os.environ["SESSION_KIT_HOME"]) / "hook").unlink()
    proc = run("doctor", "--json")
    item = json.loads(proc.stdout)["installed"][0]
    assert proc.returncode == 1 and any("launcher" in d and d.endswith("/hook is missing") for d in item["dangling"])


def test_doctor_says_an_install_whose_launcher_runs_another_python_is_not_current(installed):
    launcher = Path(os.environ["SESSION_KIT_HOME"]) / "hook"
    text = launcher.read_text()
    other = re.sub(r"^py=\S+", "py=/usr/bin/python3", text, flags=re.M)
    assert other != text
    launcher.write_text(other)
    assert json.loads(run("doctor", "--json").stdout)["installed"][0]["current"] is False


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
        and set(doc["hooks"])
        == {
            "SessionStart",
            "UserPromptSubmit",
            "PreCompact",
            "PostCompact",
            "SessionEnd",
            "SubagentStart",
            "SubagentStop",
            "PreToolUse",
            "Stop",
        }
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


def test_the_project_scope_is_refused_since_teams_commit_its_file_and_its_paths_are_this_machines(project: Path):
    proc = run("install", "--scope", "project", cwd=project)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "teams commit" in proc.stderr and "--scope local" in proc.stderr and "plugin" in proc.stderr
    assert not (project / ".claude" / "settings.json").exists()


def test_uninstall_still_takes_the_kit_out_of_the_project_scope(project: Path):
    shared = project / ".claude" / "settings.json"
    shared.write_text((project / ".claude" / "settings.local.json").read_text())  # an older install's
    assert run("uninstall", "--scope", "project", cwd=project).returncode == 0
    assert "PreCompact" not in shared.read_text()


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


# --- never lose or detach the user's settings ------------------------------------------------------

from session_kit.install import installer  # noqa: E402 - in process: the races need threads


def in_process_install(claude_root: Path, **kw) -> installer.InstallResult:
    return installer.install(scope="user", claude_root=claude_root, project=claude_root, **kw)


def in_process_uninstall(claude_root: Path) -> installer.InstallResult:
    return installer.uninstall(scope="user", claude_root=claude_root, project=claude_root)


def test_an_editor_saving_in_place_while_install_reads_loses_no_setting(settings_file: Path, claude_root: Path):
    import threading

    truncated = threading.Event()

    def editor() -> None:  # truncate, think a little, write (what `open(path, "w")` editors do)
        with open(settings_file, "wb") as f:
            truncated.set()
            time.sleep(0.3)
            f.write(USER_SETTINGS)

    thread = threading.Thread(target=editor)
    thread.start()
    truncated.wait(5)
    in_process_install(claude_root)
    thread.join()
    settings = json.loads(settings_file.read_bytes())
    assert settings["model"] == "opus" and settings["permissions"] == {"allow": ["Bash(ls:*)"]}
    backups = list((Path(os.environ["SESSION_KIT_HOME"]) / "install" / "backups").iterdir())
    assert backups and all(b.read_bytes().strip() for b in backups)  # no backup of a transient empty read


def test_a_settings_file_emptied_after_install_is_refused_not_replaced(installed, settings_file: Path):
    settings_file.write_bytes(b"")
    past = time.time() - 60
    os.utime(settings_file, (past, past))
    proc = run("install")
    assert proc.returncode == 5 and proc.stderr.count("\n") == 1 and "empty" in proc.stderr
    assert settings_file.read_bytes() == b""


EDITOR = r"""
import json, os, random, sys, time
path, count, seen = sys.argv[1], int(sys.argv[2]), sys.argv[3]
for i in range(count):
    settings = json.loads(open(path, "rb").read())
    if i and f"edit-{i - 1}" not in settings:  # read while a stale version stood for a moment
        with open(seen, "a") as log:
            log.write(f"{i - 1}\n")
    settings[f"edit-{i}"] = i
    tmp = f"{path}.editor.tmp"
    with open(tmp, "w") as f:
        json.dump(settings, f, indent=2)
    os.replace(tmp, path)  # an editor that saves by rename
    time.sleep(random.uniform(0.002, 0.02))
"""


def test_edits_saved_by_rename_during_installs_are_all_kept(settings_file: Path, claude_root: Path, tmp_path: Path):
    """The kit never replaces a version it did not read. One race is left to any two writers
    that read, modify and rename without a lock: in the instant between the kit's swap and
    its swap back (when it finds the file changed under it), the editor may read the kit's
    stale version and save on top of it. The editor logs when it read a file lacking its own
    previous edit; only such edits may be missing, and rarely."""
    edits = 300
    seen = tmp_path / "stale-reads"
    editor = subprocess.Popen([sys.executable, "-c", EDITOR, str(settings_file), str(edits), str(seen)])
    try:
        while editor.poll() is None:
            in_process_install(claude_root)
            in_process_uninstall(claude_root)
    finally:
        editor.wait(60)
    assert editor.returncode == 0
    settings = json.loads(settings_file.read_bytes())
    lost = [i for i in range(edits) if f"edit-{i}" not in settings]
    stale = {int(n) for n in seen.read_text().split()} if seen.exists() else set()
    assert set(lost) <= stale and len(stale) <= 3, (lost, stale)
    assert settings["model"] == "opus"


def test_a_symlinked_settings_file_stays_a_link_and_the_target_is_written(claude_root: Path, tmp_path: Path):
    target = tmp_path / "dotfiles" / "claude-settings.json"
    target.parent.mkdir()
    target.write_bytes(USER_SETTINGS)
    link = claude_root / "settings.json"
    link.symlink_to(target)
    assert run("install").returncode == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    installed_settings = json.loads(target.read_bytes())
    assert installed_settings["model"] == "opus" and "SessionStart" in installed_settings["hooks"]
    assert run("uninstall").returncode == 0
    assert link.is_symlink() and target.read_bytes() == USER_SETTINGS


def test_a_number_past_float_range_keeps_its_text(claude_root: Path):
    path = claude_root / "settings.json"
    path.write_bytes(b'{"x": 1e400, "y": 1.10, "z": -0.0}\n')
    assert run("install").returncode == 0
    text = path.read_text()
    assert '"x": 1e400' in text and '"y": 1.10' in text and "Infinity" not in text


@pytest.mark.parametrize("blank", [b"", b"  \n\n", b"\t \r\n"], ids=["empty", "spaces", "tabs-crlf"])
def test_an_empty_or_blank_settings_file_is_given_back_byte_for_byte(claude_root: Path, blank: bytes):
    path = claude_root / "settings.json"
    path.write_bytes(blank)
    past = time.time() - 60
    os.utime(path, (past, past))
    assert run("install").returncode == 0 and json.loads(path.read_bytes())["hooks"]
    assert run("uninstall").returncode == 0
    assert path.read_bytes() == blank


def test_temp_files_of_a_killed_install_are_cleaned_up(settings_file: Path, claude_root: Path):
    commands = claude_root / "commands"
    commands.mkdir()
    dead = 2**22 + 12345  # above the default pid_max: no process has it
    leftovers = [commands / f".debug-agent.md.{dead}.1.tmp", claude_root / f".settings.json.{dead}.2.tmp"]
    for p in leftovers:
        p.write_text("half")
    mine = commands / ".notes.tmp"
    mine.write_text("the user's")
    assert run("install").returncode == 0
    assert [p for p in leftovers if p.exists()] == [] and mine.exists()
    leftovers[0].write_text("half")
    assert run("uninstall").returncode == 0
    assert not leftovers[0].exists() and mine.exists()


def test_doctor_names_hooks_whose_interpreter_is_gone(settings_file: Path, claude_root: Path):
    settings = json.loads(settings_file.read_bytes())
    gone = f"/removed/venv/bin/python -I -S /removed/venv/session_kit/hooks/run.py session-start {MARKER}"
    settings["hooks"]["SessionStart"].append({"hooks": [{"type": "command", "command": gone}]})
    settings_file.write_text(json.dumps(settings))
    proc = run("doctor", "--json")
    assert proc.returncode == 1
    item = json.loads(proc.stdout)["installed"][0]
    assert any("/removed/venv/bin/python" in d for d in item["dangling"])
    assert "dangling" in run("doctor").stdout


def test_doctor_names_slash_commands_that_call_a_missing_session_kit(installed, claude_root: Path):
    env = {**os.environ, "PATH": "/usr/bin:/bin"}  # no session-kit on PATH
    launcher = Path(os.environ["SESSION_KIT_HOME"]) / "bin" / "session-kit"
    launcher.unlink()
    proc = subprocess.run([str(EXE), "doctor", "--json"], capture_output=True, text=True, env=env, timeout=60)
    item = json.loads(proc.stdout)["installed"][0]
    assert proc.returncode == 1 and any("session-kit" in d and "slash" in d for d in item["dangling"])


def test_doctor_finds_nothing_dangling_after_install(installed):
    report = json.loads(run("doctor", "--json").stdout)
    assert [item["dangling"] for item in report["installed"]] == [[]]


def test_without_an_atomic_swap_an_in_place_save_during_install_still_loses_nothing(
    settings_file: Path, claude_root: Path, monkeypatch: pytest.MonkeyPatch
):
    import threading

    from session_kit.install import settings_file as files

    monkeypatch.setattr(files, "_exchange", lambda a, b: False)  # as where renameat2 is missing
    truncated = threading.Event()

    def editor() -> None:
        with open(settings_file, "wb") as f:
            truncated.set()
            time.sleep(0.3)
            f.write(USER_SETTINGS)

    thread = threading.Thread(target=editor)
    thread.start()
    truncated.wait(5)
    in_process_install(claude_root)
    thread.join()
    settings = json.loads(settings_file.read_bytes())
    assert settings["model"] == "opus" and MARKER in settings_file.read_text()


def test_a_symlink_planted_for_the_backups_folder_gets_no_copy_of_the_settings(settings_file: Path, tmp_path: Path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    install_dir = Path(os.environ["SESSION_KIT_HOME"]) / "install"
    install_dir.mkdir(parents=True)
    (install_dir / "backups").symlink_to(elsewhere)
    proc = run("install")
    assert proc.returncode == 5 and "symlink" in proc.stderr and list(elsewhere.iterdir()) == []
    assert settings_file.read_bytes() == USER_SETTINGS


def _left_in(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*")) if folder.exists() else []


def test_uninstall_leaves_nothing_of_the_install_in_the_kits_state(claude_root: Path):
    state = Path(os.environ["SESSION_KIT_HOME"])
    assert run("install").returncode == 0 and _left_in(state)
    assert run("uninstall").returncode == 0
    assert _left_in(state) == []


def test_uninstall_removes_the_commands_folder_the_install_created(claude_root: Path):
    assert run("install").returncode == 0 and (claude_root / "commands").is_dir()
    assert run("uninstall").returncode == 0
    assert not (claude_root / "commands").exists() and _left_in(claude_root) == ["projects"]


def test_uninstall_keeps_a_commands_folder_that_was_there_before(claude_root: Path):
    (claude_root / "commands").mkdir()
    assert run("install").returncode == 0 and run("uninstall").returncode == 0
    assert (claude_root / "commands").is_dir()


def test_uninstalling_one_scope_keeps_what_the_other_install_needs(project: Path, claude_root: Path):
    state = Path(os.environ["SESSION_KIT_HOME"])
    assert run("install").returncode == 0
    assert run("uninstall").returncode == 0
    assert (state / "bin" / "session-kit").is_file() and (state / "install" / "receipts.json").is_file()
    assert run("uninstall", "--scope", "local", cwd=project).returncode == 0
    assert _left_in(state) == []


def test_temp_files_a_killed_install_left_in_the_backups_folder_are_cleaned_up(settings_file: Path):
    backups = Path(os.environ["SESSION_KIT_HOME"]) / "install" / "backups"
    backups.mkdir(parents=True)
    dead = 2**22 + 12345  # above the default pid_max: no process has it
    leftovers = [
        backups / f".0123456789abcdef-settings.json.20260101T000000.{dead}.{dead}.1.tmp",
        backups.parent / f".receipts.json.{dead}.2.tmp",
    ]
    for p in leftovers:
        p.write_text("half")
    assert run("install").returncode == 0
    assert [p for p in leftovers if p.exists()] == []
    assert [p.name for p in backups.iterdir() if p.name.endswith(".tmp")] == []


def test_the_settings_lock_file_is_private_whatever_the_umask(settings_file: Path):
    proc = subprocess.run(["sh", "-c", f"umask 022 && exec {EXE} install"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    locks = list((Path(os.environ["SESSION_KIT_HOME"]) / "locks").iterdir())
    assert locks and all(p.stat().st_mode & 0o777 == 0o600 for p in locks)


# --- the secret guard: off unless asked, kept by a later install, gone with uninstall ---------


def _kit_events(path: Path) -> set[str]:
    hooks = json.loads(path.read_text()).get("hooks", {})
    return {event for event, groups in hooks.items() for g in groups for h in g["hooks"] if MARKER in h["command"]}


def _doctor_guard() -> list[str]:
    proc = subprocess.run([str(EXE), "doctor", "--json"], capture_output=True, text=True, timeout=60)
    return json.loads(proc.stdout)["guard_secrets"]


def test_install_leaves_the_secret_guard_out_unless_asked(installed, settings_file: Path):
    assert "PostToolUse" not in _kit_events(settings_file)
    assert "Secret guard: off (session-kit install --guard-secrets turns it on)" in installed.stdout
    assert _doctor_guard() == []


def test_install_guard_secrets_adds_the_post_tool_use_hook_and_a_later_install_keeps_it(settings_file: Path):
    proc = run("install", "--guard-secrets")
    assert proc.returncode == 0, proc.stderr
    assert "Secret guard: on" in proc.stdout
    [command] = [
        h["command"] for g in json.loads(settings_file.read_text())["hooks"]["PostToolUse"] for h in g["hooks"]
    ]
    assert command.endswith(f"post-tool-use || : {MARKER}")
    assert run("install").returncode == 0
    assert "PostToolUse" in _kit_events(settings_file)
    assert _doctor_guard() == [f"hooks in {settings_file}"]
    wide = {**os.environ, "COLUMNS": "1000"}  # the line whole: at 80 columns a long path wraps
    doctor = subprocess.run([str(EXE), "doctor"], capture_output=True, text=True, timeout=60, env=wide)
    assert f"Secret guard: on (hooks in {settings_file})" in doctor.stdout
    assert "; current" in doctor.stdout


def test_no_guard_secrets_takes_the_guard_out_and_uninstall_leaves_the_file_as_it_was(settings_file: Path):
    assert run("install", "--guard-secrets").returncode == 0
    assert run("install", "--no-guard-secrets").returncode == 0
    assert "PostToolUse" not in _kit_events(settings_file) and "SessionStart" in _kit_events(settings_file)
    assert run("install", "--guard-secrets").returncode == 0
    assert run("uninstall").returncode == 0
    assert settings_file.read_bytes() == USER_SETTINGS
