"""`install` and `uninstall` racing real editors that save the user's settings file while the
kit changes it: one saving in place (truncate, think, write), one saving by rename. The user
loses no setting and no edit, whatever moment the kit reads, replaces or removes the file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from session_kit.errors import BadFile
from session_kit.install import installer
from session_kit.install import settings_file as files

USER = {"model": "opus", "permissions": {"allow": ["Bash(ls:*)"]}}

# An editor saving `count` times; each save reads the file, adds `edit-<i>`, and writes it
# back in place (`open(path, "w")`: the file is empty until the editor writes, for as long as
# the pause in GAPS says) or by rename. It logs each save it finds missing on its next read.
EDITOR = r"""
import json, os, sys, time
path, count, style, log = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
GAPS = (0.0, 0.05, 0.3, 0.6, 0.9)
i = 0
while i < count:
    try:
        settings = json.loads(open(path, "rb").read())
    except (ValueError, OSError):  # our own save half done, or the kit's moment without a file
        time.sleep(0.005)
        continue
    if i and f"edit-{i - 1}" not in settings:
        with open(log, "a") as f:
            f.write(f"{i - 1}\n")
    settings[f"edit-{i}"] = i
    data = json.dumps(settings, indent=2).encode()
    if style == "in-place":
        with open(path, "wb") as f:
            time.sleep(GAPS[i % len(GAPS)])
            f.write(data[: len(data) // 2])
            f.flush()
            time.sleep(0.002)
            f.write(data[len(data) // 2 :])
    else:
        tmp = path + ".editor.tmp"
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    i += 1
    time.sleep(0.01)
"""


@pytest.mark.parametrize("style", ["in-place", "by-rename"])
def test_installs_and_uninstalls_racing_an_editor_lose_no_setting_and_no_edit(
    claude_root: Path, tmp_path: Path, style: str
):
    path = claude_root / "settings.json"
    path.write_text(json.dumps(USER, indent=2))
    saves = 15 if style == "in-place" else 200
    log = tmp_path / "missing-edits"
    editor = subprocess.Popen([sys.executable, "-c", EDITOR, str(path), str(saves), style, str(log)])
    kit = {"runs": 0, "refused": 0, "blank backups": 0}
    backups = Path(os.environ["SESSION_KIT_HOME"], "install", "backups")  # gone again after the last uninstall
    try:
        while editor.poll() is None:
            for change in (installer.install, installer.uninstall):
                kit["runs"] += 1
                try:
                    change(scope="user", claude_root=claude_root, project=claude_root)
                except BadFile:  # refusing a file in flux (exit 5) is allowed; replacing it is not
                    kit["refused"] += 1
                if backups.is_dir():  # never a backup of the blank (`.original` is the file as first found)
                    displaced = [b for b in backups.iterdir() if not b.name.endswith(".original")]
                    kit["blank backups"] += sum(not b.read_bytes().strip() for b in displaced)
    finally:
        editor.wait(120)
    assert editor.returncode == 0
    settings = json.loads(path.read_bytes())
    assert settings["model"] == "opus" and settings["permissions"] == USER["permissions"], settings
    lost = [i for i in range(saves) if f"edit-{i}" not in settings]
    missing = log.read_text().split() if log.exists() else []
    assert (lost, missing) == ([], []), kit
    assert kit["runs"] > kit["refused"] and kit["blank backups"] == 0, kit


@pytest.mark.parametrize("swap", [True, False], ids=["atomic-swap", "no-atomic-swap"])
def test_an_in_place_save_that_lands_after_the_replace_is_put_back_and_redone(
    claude_root: Path, swap: bool, monkeypatch: pytest.MonkeyPatch
):
    """The editor truncated the file (the kit reads it settled and blank), then writes its
    bytes long after: they went to the file the kit displaced, which is put back."""
    if not swap:
        monkeypatch.setattr(files, "_exchange", lambda a, b: False)  # as where renameat2 is missing
    path = claude_root / "settings.json"
    path.write_bytes(b"")
    past = time.time() - 60
    os.utime(path, (past, past))
    seen = files.read_settings_file(path)
    late = json.dumps(USER).encode()
    with open(path, "r+b") as handle:  # the editor's descriptor, on the file the kit will displace

        def write_late() -> None:
            time.sleep(0.2)
            handle.write(late)
            handle.flush()

        writer = threading.Thread(target=write_late)
        writer.start()
        try:
            replaced = files.replace_if_unchanged(path, b'{"hooks": {}}\n', seen, mode=0o600)
        finally:
            writer.join()
    assert replaced is None and path.read_bytes() == late


def test_a_half_written_settings_file_is_waited_for_not_refused(claude_root: Path):
    path = claude_root / "settings.json"
    data = json.dumps(USER, indent=2).encode()
    path.write_bytes(data[:10])

    def finish() -> None:
        time.sleep(0.2)
        with open(path, "ab") as f:
            f.write(data[10:])

    writer = threading.Thread(target=finish)
    writer.start()
    try:
        installer.install(scope="user", claude_root=claude_root, project=claude_root)
    finally:
        writer.join()
    assert json.loads(path.read_bytes())["model"] == "opus"


def test_an_editor_that_truncates_then_stalls_two_seconds_loses_no_key_to_an_install(claude_root: Path):
    """The campaign's shape: the editor truncates the file and writes it 2 s later; the kit
    reads it blank once settled (0.5 s still) and replaces it. The editor's bytes land in the
    displaced file, still watched then: they are put back and the hooks installed on top."""
    path = claude_root / "settings.json"
    path.write_bytes(json.dumps(USER).encode())
    truncated = threading.Event()

    def editor() -> None:
        with open(path, "wb") as f:  # the file is empty from here until the write
            truncated.set()
            time.sleep(2.0)
            f.write(json.dumps({**USER, "edited": True}).encode())

    writer = threading.Thread(target=editor)
    writer.start()
    try:
        truncated.wait(5)
        installer.install(scope="user", claude_root=claude_root, project=claude_root)
    finally:
        writer.join()
    settings = json.loads(path.read_bytes())
    assert settings["model"] == "opus" and settings["edited"] is True
    assert "hooks" in settings
